// RUN: ktc-opt %s -split-input-file -verify-diagnostics

func.func @rank(%a: tensor<64xf16>, %b: tensor<64x16xf16>, %c: tensor<64x16xf32>) {
  // expected-error @+1 {{multiplies 2-D blocks}}
  %0 = ktc.dot %a, %b, %c : tensor<64xf16>, tensor<64x16xf16> -> tensor<64x16xf32>
  return
}

// -----

func.func @inner(%a: tensor<16x32xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{inner dimensions differ: a is 16x32 and b is 16x16 (a's columns must be b's rows)}}
  %0 = ktc.dot %a, %b, %c : tensor<16x32xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @acc_shape(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{accumulator must be 16x8 (a's rows by b's columns), got 16x16}}
  %0 = ktc.dot %a, %b, %c : tensor<16x32xf16>, tensor<32x8xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @mixed(%a: tensor<16x16xf16>, %b: tensor<16x16xbf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{operands must have one element type, got 'f16' and 'bf16'}}
  %0 = ktc.dot %a, %b, %c : tensor<16x16xf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @ints(%a: tensor<16x16xi32>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{operands must be f16, bf16, f32 or i8, got 'i32'}}
  %0 = ktc.dot %a, %a, %c : tensor<16x16xi32>, tensor<16x16xi32> -> tensor<16x16xf32>
  return
}

// -----

func.func @acc_type(%a: tensor<16x16xf16>, %c: tensor<16x16xf16>) {
  // expected-error @+1 {{accumulator must be f32, got 'f16'}}
  %0 = ktc.dot %a, %a, %c : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf16>
  return
}

// -----

func.func @tf32(%a: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{input_precision = tf32 applies to f32 operands, got 'f16'}}
  %0 = ktc.dot %a, %a, %c input_precision = tf32 : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @result(%a: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{all of {acc, result} have same type}}
  %0 = "ktc.dot"(%a, %a, %c) : (tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>) -> tensor<16x8xf32>
  return
}

// -----

// expected-error @+1 {{#ktc.mma: unknown instruction "mfma64x64x4_f16"; known: mma16816_f16, mma16816_bf16, mma1688_tf32, mma16832_s8, wgmma64x16x16_f16}}
func.func @instr(%c: tensor<64x64xf32, #ktc.mma<{instr = "mfma64x64x4_f16", warpsPerCTA = [2, 2]}>>) {
  return
}

// -----

// expected-error @+1 {{#ktc.mma warpsPerCTA must be two powers of two whose product is at most 32}}
func.func @warps(%c: tensor<64x64xf32, #ktc.mma<{instr = "mfma32x32x8_f16", warpsPerCTA = [3, 1]}>>) {
  return
}

// -----

// expected-error @+1 {{#ktc.dot_operand opIdx must be 0 (A) or 1 (B), got 2}}
func.func @opidx(%c: tensor<64x64xf16, #ktc.dot_operand<{opIdx = 2, parent = #ktc.mma<{instr = "mfma32x32x8_f16", warpsPerCTA = [2, 2]}>}>>) {
  return
}

// -----

// expected-error @+1 {{#ktc.dot_operand's parent must be a #ktc.mma or a rank-2 #ktc.blocked layout, got #ktc.blocked}}
func.func @parent(%c: tensor<64x64xf16, #ktc.dot_operand<{opIdx = 0, parent = #ktc.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>}>>) {
  return
}

// -----

// expected-error @+1 {{#ktc.mma "wgmma64x64x16_f16" is issued by 4 warps together: warpsPerCTA[0] must be a multiple of 4, not 2}}
func.func @warpgroup(%c: tensor<64x64xf32, #ktc.mma<{instr = "wgmma64x64x16_f16", warpsPerCTA = [2, 2]}>>) {
  return
}

// -----

func.func @i8_acc(%a: tensor<16x16xi8>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{accumulator of i8 operands must be i32, got 'f32'}}
  %0 = ktc.dot %a, %a, %c : tensor<16x16xi8>, tensor<16x16xi8> -> tensor<16x16xf32>
  return
}
