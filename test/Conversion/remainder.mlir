// RUN: ktc-opt %s --ktc-assign-layouts="num-warps=1 wave-size=32" --convert-ktc-to-llvm="target=sm_90 num-warps=1" | FileCheck %s

// f32 `%` on GPUs is C's fmod: x - trunc(x / y) * y by an fma, corrected by
// |y| when the rounded quotient reached the next integer, x itself for an
// infinite y, and the dividend's sign last (-0 % 1 is -0).
// CHECK-LABEL: func.func @rem
// CHECK: llvm.fdiv
// CHECK: llvm.intr.trunc
// CHECK: llvm.intr.fma
// CHECK: llvm.intr.fabs
// CHECK: llvm.intr.copysign
// CHECK: llvm.select
// CHECK: llvm.select
// CHECK: llvm.intr.copysign
// CHECK-NOT: llvm.frem
func.func @rem(%x: f32, %y: f32, %out: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %r = arith.remf %x, %y : f32
  ktc.store %out, %r : !ktc.ptr<f32>
  return
}
