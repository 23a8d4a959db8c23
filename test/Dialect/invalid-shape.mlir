// RUN: ktc-opt %s -split-input-file -verify-diagnostics

func.func @expand_axis_out_of_range(%x: tensor<64xi32>) {
  // expected-error @+1 {{'ktc.expand_dims' op axis 2 is out of range [0, 1]}}
  %0 = ktc.expand_dims %x axis = 2 : tensor<64xi32> -> tensor<64x1xi32>
  return
}

// -----

func.func @expand_wrong_result(%x: tensor<64xi32>) {
  // expected-error @+1 {{'ktc.expand_dims' op result must be 'tensor<1x64xi32>' (a unit dimension inserted at axis 0), got 'tensor<64x1xi32>'}}
  %0 = ktc.expand_dims %x axis = 0 : tensor<64xi32> -> tensor<64x1xi32>
  return
}

// -----

func.func @expand_past_rank_three(%x: tensor<2x4x4xi32>) {
  // expected-error @+1 {{'ktc.expand_dims' op result #0 must be block tensor}}
  %0 = ktc.expand_dims %x axis = 0 : tensor<2x4x4xi32> -> tensor<1x2x4x4xi32>
  return
}

// -----

func.func @expand_rank_three_axis(%x: tensor<4x4xi32>) {
  // expected-error @+1 {{'ktc.expand_dims' op axis 3 is out of range [0, 2]}}
  %0 = ktc.expand_dims %x axis = 3 : tensor<4x4xi32> -> tensor<4x4x1xi32>
  return
}


// -----

func.func @broadcast_incompatible(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'ktc.broadcast' op cannot broadcast dimension 1 of size 8 to 16 (only size-1 dimensions stretch)}}
  %0 = ktc.broadcast %x : tensor<4x8xf32> -> tensor<4x16xf32>
  return
}

// -----

func.func @broadcast_rank(%x: tensor<8xf32>) {
  // expected-error @+1 {{'ktc.broadcast' op source rank 1 must equal result rank 2; use ktc.expand_dims to add a dimension}}
  %0 = ktc.broadcast %x : tensor<8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @broadcast_element(%x: tensor<1x8xf32>) {
  // expected-error @+1 {{'ktc.broadcast' op element types differ: 'f32' vs 'f16'}}
  %0 = ktc.broadcast %x : tensor<1x8xf32> -> tensor<4x8xf16>
  return
}

// -----

func.func @trans_not_a_permutation(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'ktc.trans' op perm [1, 1] is not a permutation of the 2 dimensions of the source (each of 0 .. 1 once)}}
  %0 = ktc.trans %x perm = [1, 1] : tensor<4x8xf32> -> tensor<8x8xf32>
  return
}

// -----

func.func @trans_perm_too_short(%x: tensor<2x4x8xf32>) {
  // expected-error @+1 {{'ktc.trans' op perm [1, 0] is not a permutation of the 3 dimensions of the source (each of 0 .. 2 once)}}
  %0 = ktc.trans %x perm = [1, 0] : tensor<2x4x8xf32> -> tensor<4x2x8xf32>
  return
}

// -----

func.func @trans_perm_out_of_range(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'ktc.trans' op perm [0, -1] is not a permutation of the 2 dimensions of the source (each of 0 .. 1 once)}}
  %0 = ktc.trans %x perm = [0, -1] : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @trans_wrong_result(%x: tensor<2x4x8xf32>) {
  // expected-error @+1 {{'ktc.trans' op result must be 'tensor<8x2x4xf32>' (the source's dimensions in the order of perm), got 'tensor<8x4x2xf32>'}}
  %0 = ktc.trans %x perm = [2, 0, 1] : tensor<2x4x8xf32> -> tensor<8x4x2xf32>
  return
}

// -----

func.func @trans_element(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'ktc.trans' op result must be 'tensor<8x4xf32>' (the source's dimensions in the order of perm), got 'tensor<8x4xf16>'}}
  %0 = ktc.trans %x perm = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf16>
  return
}

// -----

func.func @trans_scalar(%x: f32) {
  // expected-error @+1 {{'ktc.trans' op operand #0 must be block tensor}}
  %0 = "ktc.trans"(%x) <{perm = array<i32: 0>}> : (f32) -> tensor<1xf32>
  return
}

// -----

func.func @reshape_count(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'ktc.reshape' op cannot reshape 4x8 to 64: the element counts 2^5 and 2^6 differ}}
  %0 = ktc.reshape %x : tensor<4x8xf32> -> tensor<64xf32>
  return
}

// -----

func.func @reshape_element(%x: tensor<4x8xi32>) {
  // expected-error @+1 {{'ktc.reshape' op element types differ: 'i32' vs 'i64'}}
  %0 = ktc.reshape %x : tensor<4x8xi32> -> tensor<32xi64>
  return
}

// -----

func.func @reshape_not_power_of_two(%x: tensor<4x8xi32>) {
  // expected-error @+1 {{'ktc.reshape' op result #0 must be block tensor}}
  %0 = ktc.reshape %x : tensor<4x8xi32> -> tensor<2x16x1x1xi32>
  return
}
