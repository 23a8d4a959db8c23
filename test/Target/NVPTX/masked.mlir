// Masked loads and stores whose mask changes element by element are
// predicated PTX (issue 18), as Triton's NVIDIA backend writes them: the
// `other` value (f16 1.5: 15872) moved into the destination, then
// `@p ld.global`; stores
// `@p st.global`. No branch per element: a kernel of them has no bra at all.
// Lone bytes are ld/st .b8 through a 16-bit register. Whole vectors under
// one mask bit keep their branch (one per vector), which LLVM sees through.
// RUN: ktc-compile %S/../Inputs/masked.mlir --target=sm_90 --emit=asm | FileCheck %s

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
// CHECK-NOT: @%p{{[0-9]+}} ld.global
// CHECK: bra
// CHECK-NOT: @%p{{[0-9]+}} ld.global
// CHECK: ld.global.v4.b32 {%r{{.*}}}, [%rd{{[0-9]+}}];
// CHECK-NOT: @%p{{[0-9]+}} st.global
// CHECK: ret;

// CHECK-LABEL: .entry bytes(
// CHECK-NOT: bra
// CHECK: @[[B:%p[0-9]+]] ld.global.b8 %rs{{[0-9]+}}, [%rd{{[0-9]+}}];
// CHECK-NOT: bra
// CHECK: @[[B]] st.global.b8 [%rd{{[0-9]+}}], %rs{{[0-9]+}};
// CHECK-NOT: bra
// CHECK: ret;
