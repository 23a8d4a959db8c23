// RUN: ktc-opt %s -split-input-file -verify-diagnostics

func.func @shape_mismatch(%p: tensor<128x!ktc.ptr<f32>>, %o: tensor<64xi32>) {
  // expected-error @+1 {{'ktc.addptr' op pointer shape (128) and offset shape (64) must agree}}
  %0 = ktc.addptr %p, %o : tensor<128x!ktc.ptr<f32>>, tensor<64xi32>
  return
}

// -----

func.func @block_offset_on_scalar(%p: !ktc.ptr<f32>, %o: tensor<64xi32>) {
  // expected-error @+1 {{'ktc.addptr' op pointer shape (scalar) and offset shape (64) must agree; splat the pointer first}}
  %0 = ktc.addptr %p, %o : !ktc.ptr<f32>, tensor<64xi32>
  return
}

// -----

func.func @not_a_pointer(%p: tensor<64xi32>, %o: tensor<64xi32>) {
  // expected-error @+1 {{'ktc.addptr' op operand #0 must be !ktc.ptr or block tensor of !ktc.ptr, but got 'tensor<64xi32>'}}
  %0 = ktc.addptr %p, %o : tensor<64xi32>, tensor<64xi32>
  return
}

// -----

func.func @float_offset(%p: !ktc.ptr<f32>, %o: f32) {
  // expected-error @+1 {{'ktc.addptr' op operand #1 must be i32 or i64 scalar or block tensor, but got 'f32'}}
  %0 = ktc.addptr %p, %o : !ktc.ptr<f32>, f32
  return
}

// -----

func.func @result_type(%p: !ktc.ptr<f32>, %o: i32) {
  // expected-error @+1 {{'ktc.addptr' op failed to verify that all of {ptr, result} have same type}}
  %0 = "ktc.addptr"(%p, %o) : (!ktc.ptr<f32>, i32) -> !ktc.ptr<f16>
  return
}
