// RUN: ktc-opt %s -split-input-file -verify-diagnostics

func.func @element_mismatch(%x: f32) {
  // expected-error @+1 {{'ktc.splat' op result element type 'f16' must equal the operand type 'f32'}}
  %0 = ktc.splat %x : f32 -> tensor<128xf16>
  return
}

// -----

func.func @not_power_of_two(%x: f32) {
  // expected-error @+1 {{'ktc.splat' op result #0 must be block tensor (static power-of-two 1-D, 2-D or 3-D shape over i1, i8, i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN, f8E5M2 or !ktc.ptr), but got 'tensor<3xf32>'}}
  %0 = ktc.splat %x : f32 -> tensor<3xf32>
  return
}

// -----

func.func @rank_four(%x: f32) {
  // expected-error @+1 {{'ktc.splat' op result #0 must be block tensor}}
  %0 = ktc.splat %x : f32 -> tensor<2x2x2x2xf32>
  return
}

// -----

func.func @dynamic_shape(%x: f32) {
  // expected-error @+1 {{'ktc.splat' op result #0 must be block tensor}}
  %0 = "ktc.splat"(%x) : (f32) -> tensor<?xf32>
  return
}

// -----

func.func @unsupported_element(%x: f80) {
  // expected-error @+1 {{'ktc.splat' op operand #0 must be scalar of type i1, i8, i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN, f8E5M2 or !ktc.ptr, but got 'f80'}}
  %0 = ktc.splat %x : f80 -> tensor<4xf80>
  return
}

// -----

func.func @splat_of_block(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ktc.splat' op operand #0 must be scalar}}
  %0 = "ktc.splat"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}
