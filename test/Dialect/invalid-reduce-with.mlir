// RUN: ktc-opt %s -split-input-file -verify-diagnostics

func.func @axis_out_of_range(%x: tensor<256xi32>) {
  // expected-error @+1 {{'ktc.reduce_with' op axis 1 is out of range for a rank-1 block}}
  %0 = ktc.reduce_with %x axis = 1 : tensor<256xi32> -> i32 {
  ^bb0(%a: i32, %b: i32):
    ktc.reduce_return %a : i32
  }
  return
}

// -----

func.func @wrong_result(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'ktc.reduce_with' op result 0 must be 'tensor<4xf32>' (block 0 without axis 1), got 'tensor<8xf32>'}}
  %0 = ktc.reduce_with %x axis = 1 : tensor<4x8xf32> -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    ktc.reduce_return %a : f32
  }
  return
}

// -----

func.func @shapes_differ(%x: tensor<4x8xf32>, %i: tensor<8x4xi32>) {
  // expected-error @+1 {{'ktc.reduce_with' op reduces blocks of one shape, got 'tensor<4x8xf32>' and 'tensor<8x4xi32>'}}
  %0, %1 = ktc.reduce_with %x, %i axis = 1 : tensor<4x8xf32>, tensor<8x4xi32> -> tensor<4xf32>, tensor<8xi32> {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    ktc.reduce_return %a, %ai : f32, i32
  }
  return
}

// -----

func.func @pointers(%p: tensor<8x!ktc.ptr<f32>>) {
  // expected-error @+1 {{'ktc.reduce_with' op cannot reduce a block of '!ktc.ptr<f32>'}}
  %0 = ktc.reduce_with %p axis = 0 : tensor<8x!ktc.ptr<f32>> -> !ktc.ptr<f32> {
  ^bb0(%a: !ktc.ptr<f32>, %b: !ktc.ptr<f32>):
    ktc.reduce_return %a : !ktc.ptr<f32>
  }
  return
}

// -----

func.func @arity(%x: tensor<8xi32>) {
  // expected-error @+1 {{'ktc.reduce_with' op combine region must take 2 scalars (two partials of 1 values), got 3}}
  %0 = ktc.reduce_with %x axis = 0 : tensor<8xi32> -> i32 {
  ^bb0(%a: i32, %b: i32, %c: i32):
    ktc.reduce_return %a : i32
  }
  return
}

// -----

func.func @argument_type(%x: tensor<8xi32>) {
  // expected-error @+1 {{'ktc.reduce_with' op combine argument 1 must be 'i32', got 'f32'}}
  %0 = ktc.reduce_with %x axis = 0 : tensor<8xi32> -> i32 {
  ^bb0(%a: i32, %b: f32):
    ktc.reduce_return %a : i32
  }
  return
}

// -----

func.func @returns_too_many(%x: tensor<8xi32>) {
  %0 = ktc.reduce_with %x axis = 0 : tensor<8xi32> -> i32 {
  ^bb0(%a: i32, %b: i32):
    // expected-error @+1 {{'ktc.reduce_return' op returns 2 values, the reduction combines 1}}
    ktc.reduce_return %a, %b : i32, i32
  }
  return
}

// -----

func.func @return_type(%x: tensor<8xi32>) {
  %0 = ktc.reduce_with %x axis = 0 : tensor<8xi32> -> i32 {
  ^bb0(%a: i32, %b: i32):
    %f = arith.sitofp %a : i32 to f32
    // expected-error @+1 {{'ktc.reduce_return' op value 0 must be 'i32', got 'f32'}}
    ktc.reduce_return %f : f32
  }
  return
}

// -----

func.func @block_inside(%x: tensor<8xi32>) {
  %0 = ktc.reduce_with %x axis = 0 : tensor<8xi32> -> i32 {
  ^bb0(%a: i32, %b: i32):
    // expected-error @+1 {{'ktc.arange' op in a combine region must compute on scalars, got 'tensor<4xi32>'}}
    %r = ktc.arange 0, 4 : tensor<4xi32>
    ktc.reduce_return %a : i32
  }
  return
}

// -----

func.func @captures(%x: tensor<8xi32>, %n: i32) {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = ktc.reduce_with %x axis = 0 : tensor<8xi32> -> i32 {
  ^bb0(%a: i32, %b: i32):
    // expected-error @+1 {{using value defined outside the region}}
    %r = arith.addi %a, %n : i32
    ktc.reduce_return %r : i32
  }
  return
}
