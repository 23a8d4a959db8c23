// RUN: ktc-opt %s | ktc-opt | FileCheck %s
// RUN: ktc-opt %s --mlir-print-op-generic | ktc-opt | FileCheck %s

// f16, bf16 and f32 operands; tf32 only printed when asked for.
// CHECK-LABEL: func.func @dot
// CHECK: ktc.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf16>, tensor<32x128xf16> -> tensor<64x128xf32>
// CHECK: ktc.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
// CHECK: ktc.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x1xf32>, tensor<1x1xf32> -> tensor<1x1xf32>
// CHECK: ktc.dot %{{.*}}, %{{.*}}, %{{.*}} input_precision = tf32 : tensor<16x8xf32>, tensor<8x4xf32> -> tensor<16x4xf32>
func.func @dot(%a: tensor<64x32xf16>, %b: tensor<32x128xf16>, %c: tensor<64x128xf32>,
               %d: tensor<16x16xbf16>, %e: tensor<16x16xf32>,
               %f: tensor<1x1xf32>,
               %g: tensor<16x8xf32>, %h: tensor<8x4xf32>, %i: tensor<16x4xf32>) {
  %0 = ktc.dot %a, %b, %c : tensor<64x32xf16>, tensor<32x128xf16> -> tensor<64x128xf32>
  %1 = ktc.dot %d, %d, %e : tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
  %2 = ktc.dot %f, %f, %f input_precision = ieee : tensor<1x1xf32>, tensor<1x1xf32> -> tensor<1x1xf32>
  %3 = ktc.dot %g, %h, %i input_precision = tf32 : tensor<16x8xf32>, tensor<8x4xf32> -> tensor<16x4xf32>
  return
}

// The matrix-instruction layouts print and parse.
// CHECK-LABEL: func.func @layouts
// CHECK-SAME: #ktc.mma<{instr = "mfma32x32x8_f16", warpsPerCTA = [2, 2]}>
// CHECK-SAME: #ktc.dot_operand<{opIdx = 1, parent = #ktc.mma<{instr = "mma16816_bf16", warpsPerCTA = [4, 1]}>}>
// CHECK-SAME: #ktc.dot_operand<{opIdx = 0, parent = #blocked}>
func.func @layouts(%c: tensor<64x64xf32, #ktc.mma<{instr = "mfma32x32x8_f16", warpsPerCTA = [2, 2]}>>,
                   %b: tensor<32x64xbf16, #ktc.dot_operand<{opIdx = 1, parent = #ktc.mma<{instr = "mma16816_bf16", warpsPerCTA = [4, 1]}>}>>,
                   %a: tensor<64x16xf32, #ktc.dot_operand<{opIdx = 0, parent = #ktc.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>}>>) {
  return
}
