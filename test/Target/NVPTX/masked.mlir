// Masked loads and stores whose mask changes element by element are
// predicated PTX (issue 18), as Triton's NVIDIA backend writes them: the
// `other` value (f16 1.5: 15872) moved into the destination, then
// `@p ld.global`; stores
// `@p st.global`. No branch per element: a kernel of them has no bra at all.
// Lone bytes are ld/st .b8 through a 16-bit register. Whole vectors under
// one mask bit are predicated too (they stay packed until used), except on
// sm_100 and later, where they keep their branch (one per vector) so that
// LLVM sees the vector loads its f32x2 adds are formed from.
// RUN: ktc-compile %S/../Inputs/masked.mlir --target=sm_90 --emit=asm | FileCheck %s
// RUN: ktc-compile %S/../Inputs/masked.mlir --target=sm_100 --emit=asm | FileCheck %s --check-prefix=SM100

// CHECK-LABEL: .entry tail(
// CHECK-NOT: bra
// CHECK: mov.b16 [[O:%rs[0-9]+]], 15872;
// CHECK: mov.b16 [[D:%rs[0-9]+]], [[O]];
// CHECK-NEXT: @[[P:%p[0-9]+]] ld.global.b16 [[D]], [%rd{{[0-9]+}}];
// CHECK-NOT: bra
// CHECK: @[[P]] st.global.b16 [%rd{{[0-9]+}}], [[D]];
// CHECK-NOT: bra
// CHECK: ret;

// CHECK-LABEL: .entry rows(
// CHECK-NOT: bra
// CHECK: @[[R:%p[0-9]+]] ld.global.v4.b32 {%r{{.*}}}, [%rd{{[0-9]+}}];
// CHECK-NOT: bra
// CHECK: @[[R]] st.global.v4.b32 [%rd{{[0-9]+}}], {%r{{.*}}};
// CHECK-NOT: bra
// CHECK: ret;

// SM100-LABEL: .entry rows(
// SM100-NOT: @%p{{[0-9]+}} ld.global
// SM100: bra
// SM100-NOT: @%p{{[0-9]+}} ld.global
// SM100: ld.global.v2.b64 {%rd{{.*}}}, [%rd{{[0-9]+}}];
// SM100-NOT: @%p{{[0-9]+}} st.global
// SM100: ret;

// CHECK-LABEL: .entry bytes(
// CHECK-NOT: bra
// CHECK: @[[B:%p[0-9]+]] ld.global.b8 %rs{{[0-9]+}}, [%rd{{[0-9]+}}];
// CHECK-NOT: bra
// CHECK: @[[B]] st.global.b8 [%rd{{[0-9]+}}], %rs{{[0-9]+}};
// CHECK-NOT: bra
// CHECK: ret;
