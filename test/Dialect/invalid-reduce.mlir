// RUN: ktc-opt %s -split-input-file -verify-diagnostics

func.func @axis_out_of_range(%x: tensor<256xf32>) {
  // expected-error @+1 {{'ktc.reduce' op axis 1 is out of range for a rank-1 block}}
  %0 = ktc.reduce max %x axis = 1 : tensor<256xf32> -> f32
  return
}

// -----

func.func @negative_axis(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'ktc.reduce' op axis -1 is out of range for a rank-2 block}}
  %0 = ktc.reduce sum %x axis = -1 : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @wrong_result(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'ktc.reduce' op result type must be 'tensor<4xf32>' (the input without axis 1), got 'tensor<8xf32>'}}
  %0 = ktc.reduce sum %x axis = 1 : tensor<4x8xf32> -> tensor<8xf32>
  return
}

// -----

func.func @scalar_result_from_2d(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'ktc.reduce' op result type must be 'tensor<8xf32>' (the input without axis 0), got 'f32'}}
  %0 = ktc.reduce max %x axis = 0 : tensor<4x8xf32> -> f32
  return
}

// -----

func.func @pointers(%x: tensor<8x!ktc.ptr<f32>>) {
  // expected-error @+1 {{'ktc.reduce' op cannot reduce a block of pointers}}
  %0 = ktc.reduce max %x axis = 0 : tensor<8x!ktc.ptr<f32>> -> !ktc.ptr<f32>
  return
}

// -----

func.func @sum_of_bools(%x: tensor<8xi1>) {
  // expected-error @+1 {{'ktc.reduce' op cannot sum a block of i1; extend it to i32 first}}
  %0 = ktc.reduce sum %x axis = 0 : tensor<8xi1> -> i1
  return
}

// -----

func.func @unknown_kind(%x: tensor<8xf32>) {
  // expected-error @+1 {{expected reduction kind sum, max or min, got 'prod'}}
  %0 = ktc.reduce prod %x axis = 0 : tensor<8xf32> -> f32
  return
}
