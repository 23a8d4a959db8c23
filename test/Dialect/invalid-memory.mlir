// RUN: ktc-opt %s -split-input-file -verify-diagnostics

// The custom syntax infers mask and result types from the pointer type, so
// the mismatches below are written in the generic form.

func.func @load_mask_shape(%p: tensor<128x!ktc.ptr<f32>>, %m: tensor<64xi1>) {
  // expected-error @+1 {{'ktc.load' op mask shape (64) must match the pointer shape (128)}}
  %0 = "ktc.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<128x!ktc.ptr<f32>>, tensor<64xi1>) -> tensor<128xf32>
  return
}

// -----

func.func @load_other_without_mask(%p: tensor<128x!ktc.ptr<f32>>, %o: tensor<128xf32>) {
  // expected-error @+1 {{'ktc.load' op 'other' needs a mask: it is the value of the masked-off elements}}
  %0 = "ktc.load"(%p, %o) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (tensor<128x!ktc.ptr<f32>>, tensor<128xf32>) -> tensor<128xf32>
  return
}

// -----

func.func @load_other_type(%p: tensor<128x!ktc.ptr<f32>>, %m: tensor<128xi1>, %o: tensor<128xf16>) {
  // expected-error @+1 {{'ktc.load' op 'other' must have the result type 'tensor<128xf32>', got 'tensor<128xf16>'}}
  %0 = "ktc.load"(%p, %m, %o) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<128x!ktc.ptr<f32>>, tensor<128xi1>, tensor<128xf16>) -> tensor<128xf32>
  return
}

// -----

func.func @load_result_type(%p: tensor<128x!ktc.ptr<f32>>) {
  // expected-error @+1 {{'ktc.load' op result type must be 'tensor<128xf32>' (the pointee type in the pointer shape), got 'tensor<128xi32>'}}
  %0 = "ktc.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!ktc.ptr<f32>>) -> tensor<128xi32>
  return
}

// -----

func.func @load_through_non_pointer(%p: tensor<128xi32>) {
  // expected-error @+1 {{expected !ktc.ptr or a block of !ktc.ptr, got 'tensor<128xi32>'}}
  %0 = ktc.load %p : tensor<128xi32>
  return
}

// -----

func.func @load_mask_not_bool(%p: tensor<128x!ktc.ptr<f32>>, %m: tensor<128xi32>) {
  // expected-error @+1 {{'ktc.load' op operand #1 must be i1 scalar or block tensor, but got 'tensor<128xi32>'}}
  %0 = "ktc.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<128x!ktc.ptr<f32>>, tensor<128xi32>) -> tensor<128xf32>
  return
}

// -----

func.func @store_value_type(%p: tensor<128x!ktc.ptr<f32>>, %v: tensor<64xf32>) {
  // expected-error @+1 {{'ktc.store' op stored value must have type 'tensor<128xf32>' (the pointee type in the pointer shape), got 'tensor<64xf32>'}}
  "ktc.store"(%p, %v) : (tensor<128x!ktc.ptr<f32>>, tensor<64xf32>) -> ()
  return
}

// -----

func.func @store_mask_shape(%p: !ktc.ptr<f32>, %v: f32, %m: tensor<4xi1>) {
  // expected-error @+1 {{'ktc.store' op mask shape (4) must match the pointer shape (scalar)}}
  "ktc.store"(%p, %v, %m) : (!ktc.ptr<f32>, f32, tensor<4xi1>) -> ()
  return
}

// -----

func.func @store_value_mismatch_in_custom_syntax(%p: tensor<128x!ktc.ptr<f32>>, %v: tensor<128xf16>) {
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%v' expects different type than prior uses: 'tensor<128xf32>' vs 'tensor<128xf16>'}}
  ktc.store %p, %v : tensor<128x!ktc.ptr<f32>>
  return
}
