// RUN: ktc-opt %s --ktc-assign-layouts="num-warps=4 wave-size=32" --cse --convert-ktc-to-llvm="target=sm_90 num-warps=4" | FileCheck %s
// RUN: ktc-opt %s --ktc-assign-layouts="num-warps=4 wave-size=64" --cse --convert-ktc-to-llvm="target=gfx942 num-warps=4" | FileCheck %s --check-prefix=AMD

// A load masked element by element (issue 18). On NVIDIA each element is
// one predicated inline-asm load (`other` moved in first, then @p
// ld.global) and each store a predicated st.global: straight-line code,
// no scf.if. AMD keeps a branch per element.
// CHECK-LABEL: func.func @masked
// CHECK-NOT: scf.if
// CHECK: %[[M:.*]] = arith.cmpi slt
// CHECK-NOT: scf.if
// CHECK: llvm.inline_asm has_side_effects "mov.b32 $0, $3;\0A\09@$2 ld.global.b32 $0, [$1];", "=r,l,b,r,~{memory}"
// CHECK-NOT: scf.if
// CHECK: llvm.inline_asm has_side_effects "@$1 st.global.b32 [$0], $2;", "l,b,r,~{memory}"
// CHECK-NOT: scf.if
// CHECK: return
// AMD-LABEL: func.func @masked
// AMD: scf.if
// AMD: llvm.load
// AMD: scf.if
// AMD: llvm.store
// AMD-NOT: llvm.inline_asm
func.func @masked(%p: !ktc.ptr<f32>, %n: i32) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %nb = ktc.splat %n : i32 -> tensor<128xi32>
  %m = arith.cmpi slt, %r, %nb : tensor<128xi32>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<128x!ktc.ptr<f32>>
  %q = ktc.addptr %pb, %r : tensor<128x!ktc.ptr<f32>>, tensor<128xi32>
  %ninf = arith.constant dense<0xFF800000> : tensor<128xf32>
  %x = ktc.load %q, mask %m, other %ninf : tensor<128x!ktc.ptr<f32>>
  ktc.store %q, %x, mask %m : tensor<128x!ktc.ptr<f32>>
  return
}
