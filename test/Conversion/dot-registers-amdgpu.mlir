// RUN: ktc-opt %s --convert-ktc-to-llvm="target=gfx942 num-warps=4" | FileCheck %s

// Operands already in the #ktc.dot_operand layouts of an MFMA result go
// straight into the instructions: no LDS, no barrier. 64x64x64 over 2x2
// waves: one 32x32 tile a wave, 8 K steps of 8.
#mfma = #ktc.mma<{instr = "mfma32x32x8_f16", warpsPerCTA = [2, 2]}>
#fa = #ktc.dot_operand<{opIdx = 0, parent = #mfma}>
#fb = #ktc.dot_operand<{opIdx = 1, parent = #mfma}>
// CHECK-LABEL: func.func @mfma
// CHECK-NOT: rocdl.barrier
// CHECK-COUNT-8: llvm.call_intrinsic "llvm.amdgcn.mfma.f32.32x32x8f16"
// CHECK-NOT: rocdl.barrier
func.func @mfma(%x: tensor<64x64xf16, #fa>, %y: tensor<64x64xf16, #fb>,
                %c: tensor<64x64xf32, #mfma>) -> tensor<64x64xf32, #mfma> {
  %d = ktc.dot %x, %y, %c : tensor<64x64xf16, #fa>, tensor<64x64xf16, #fb> -> tensor<64x64xf32, #mfma>
  return %d : tensor<64x64xf32, #mfma>
}
