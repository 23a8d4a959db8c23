// RUN: ktc-opt %s --convert-ktc-to-llvm="target=sm_90 num-warps=4" | FileCheck %s

// Operands already in the #ktc.dot_operand layouts of the result (written
// by hand, or by a producer that made them so) go straight into the
// instructions: no shared memory, no barrier. Operands in other layouts are
// staged by the dot (test/Target/NVPTX/dot.mlir).
#mma = #ktc.mma<{instr = "mma16816_f16", warpsPerCTA = [2, 2]}>
#a = #ktc.dot_operand<{opIdx = 0, parent = #mma}>
#b = #ktc.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-NOT: ktc_smem
// CHECK-LABEL: func.func @registers
// CHECK-NOT: nvvm.barrier
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.nvvm.mma.m16n8k16.row.col.f32.f32"
// CHECK-NOT: llvm.call_intrinsic "llvm.nvvm.mma
// CHECK-NOT: nvvm.barrier
// CHECK: return
func.func @registers(%x: tensor<32x32xf16, #a>, %y: tensor<32x32xf16, #b>,
                     %c: tensor<32x32xf32, #mma>) -> tensor<32x32xf32, #mma> {
  %d = ktc.dot %x, %y, %c : tensor<32x32xf16, #a>, tensor<32x32xf16, #b> -> tensor<32x32xf32, #mma>
  return %d : tensor<32x32xf32, #mma>
}

