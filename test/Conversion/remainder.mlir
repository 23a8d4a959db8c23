// RUN: ktc-opt %s --ktc-assign-layouts="num-warps=1 wave-size=32" --cse --convert-ktc-to-llvm="target=sm_90 num-warps=1" | FileCheck %s
// RUN: ktc-opt %s --ktc-gpu-pipeline="target=gfx942 num-warps=1" | FileCheck %s --check-prefix=LOWERED

// f32 `%` on GPUs is C's fmod, exactly, for every quotient (lib/Conversion/
// Fmod.cpp): both operands split into exponent and mantissa from their
// bits, the exponent difference consumed 12 bits a step in a loop, each
// step an exact reduction (roundeven of the scaled quotient, one fma, |y|
// back when negative), the result scaled by y's exponent; the special cases
// selected after, the dividend's sign last (-0 % 1 is -0).
// CHECK-LABEL: func.func @rem
// CHECK: llvm.intr.fabs
// CHECK: llvm.intr.fabs
// CHECK: llvm.fdiv
// CHECK: scf.while
// CHECK: llvm.icmp "sgt"
// CHECK: scf.condition
// CHECK: llvm.intr.roundeven
// CHECK: llvm.intr.fma
// CHECK: scf.yield
// CHECK: llvm.intr.roundeven
// CHECK: llvm.intr.fma
// CHECK: llvm.fcmp "uno"
// CHECK: llvm.intr.copysign
// CHECK-NOT: llvm.frem
func.func @rem(%x: f32, %y: f32, %out: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %r = arith.remf %x, %y : f32
  ktc.store %out, %r : !ktc.ptr<f32>
  return
}

// After the whole pipeline the loop is a branch back to its header.
// LOWERED-LABEL: llvm.func @rem
// LOWERED: llvm.cond_br
// LOWERED: llvm.intr.roundeven
// LOWERED: llvm.intr.fma
// LOWERED: llvm.br
// LOWERED-NOT: llvm.frem
