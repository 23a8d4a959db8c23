// RUN: ktc-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{#ktc.blocked sizes must be powers of two, got 3}}
func.func @size(%x: tensor<64xf32, #ktc.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) {
  return
}

// -----

// expected-error @+1 {{#ktc.blocked threadsPerWarp must multiply to a wave size of 32 or 64, got 16}}
func.func @wave(%x: tensor<64xf32, #ktc.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>>) {
  return
}

// -----

// expected-error @+1 {{#ktc.blocked order must be a permutation of the dimensions}}
func.func @order(%x: tensor<4x64xf32, #ktc.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 1]}>>) {
  return
}

// -----

// expected-error @+1 {{#ktc.blocked needs sizePerThread, threadsPerWarp, warpsPerCTA and order of one rank, from 1 to 3}}
func.func @rank(%x: tensor<64xf32, #ktc.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) {
  return
}

// -----

func.func @layout_rank_mismatch(%v: f32) {
  // expected-error @+1 {{'ktc.splat' op result #0 must be block tensor}}
  %0 = ktc.splat %v : f32 -> tensor<4x64xf32, #ktc.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
  return
}

// -----

// expected-error @+1 {{#ktc.slice dim 2 is out of range for its rank-2 parent}}
func.func @slice_dim(%x: tensor<64xf32, #ktc.slice<{dim = 2, parent = #ktc.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>}>>) {
  return
}

// -----

// expected-error @+1 {{#ktc.slice's parent must have rank 2 or more}}
func.func @slice_of_1d(%x: tensor<64xf32, #ktc.slice<{dim = 0, parent = #ktc.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>}>>) {
  return
}

// -----

// expected-error @+1 {{#ktc.slice's parent must be a layout (#ktc.blocked, #ktc.slice, #ktc.mma or #ktc.dot_operand), got 1 : i32}}
func.func @slice_parent(%x: tensor<64xf32, #ktc.slice<{dim = 0, parent = 1 : i32}>>) {
  return
}

// -----

func.func @convert_shape(%x: tensor<64xf32, #ktc.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) {
  // expected-error @+1 {{'ktc.convert_layout' op failed to verify that all of {src, result} have same shape}}
  %y = ktc.convert_layout %x : tensor<64xf32, #ktc.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>> -> tensor<128xf32, #ktc.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
  return
}
