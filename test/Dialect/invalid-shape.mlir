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

func.func @expand_past_rank_two(%x: tensor<4x4xi32>) {
  // expected-error @+1 {{'ktc.expand_dims' op result #0 must be block tensor}}
  %0 = ktc.expand_dims %x axis = 0 : tensor<4x4xi32> -> tensor<1x4x4xi32>
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
