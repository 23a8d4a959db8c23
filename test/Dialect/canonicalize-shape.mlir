// RUN: ktc-opt %s -split-input-file -canonicalize | FileCheck %s

// expand_dims and broadcast of a splat are splats of the final shape.
// CHECK-LABEL: func.func @reshape_of_splat
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK-NEXT: %[[S:.*]] = ktc.splat %[[X]] : f32 -> tensor<64x32xf32>
// CHECK-NEXT: return %[[S]]
func.func @reshape_of_splat(%x: f32) -> tensor<64x32xf32> {
  %0 = ktc.splat %x : f32 -> tensor<64xf32>
  %1 = ktc.expand_dims %0 axis = 1 : tensor<64xf32> -> tensor<64x1xf32>
  %2 = ktc.broadcast %1 : tensor<64x1xf32> -> tensor<64x32xf32>
  return %2 : tensor<64x32xf32>
}

// -----

// A broadcast to the same shape is the identity.
// CHECK-LABEL: func.func @identity_broadcast
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK-NEXT: return %[[X]]
func.func @identity_broadcast(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = ktc.broadcast %x : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Nested broadcasts become one.
// CHECK-LABEL: func.func @broadcast_of_broadcast
// CHECK-SAME: (%[[X:.*]]: tensor<1x1xi32>)
// CHECK-NEXT: %[[B:.*]] = ktc.broadcast %[[X]] : tensor<1x1xi32> -> tensor<16x32xi32>
// CHECK-NEXT: return %[[B]]
func.func @broadcast_of_broadcast(%x: tensor<1x1xi32>) -> tensor<16x32xi32> {
  %0 = ktc.broadcast %x : tensor<1x1xi32> -> tensor<1x32xi32>
  %1 = ktc.broadcast %0 : tensor<1x32xi32> -> tensor<16x32xi32>
  return %1 : tensor<16x32xi32>
}

// -----

// Constants are reshaped at compile time.
// CHECK-LABEL: func.func @constant_reshape
// CHECK: %[[C:.*]] = arith.constant dense<1.000000e+00> : tensor<8x4xf32>
// CHECK-NEXT: return %[[C]]
func.func @constant_reshape() -> tensor<8x4xf32> {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  %0 = ktc.expand_dims %c axis = 0 : tensor<4xf32> -> tensor<1x4xf32>
  %1 = ktc.broadcast %0 : tensor<1x4xf32> -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

// A real broadcast of a non-splat stays.
// CHECK-LABEL: func.func @real_broadcast
// CHECK: ktc.expand_dims
// CHECK: ktc.broadcast
func.func @real_broadcast() -> tensor<16x32xi32> {
  %r = ktc.arange 0, 16 : tensor<16xi32>
  %0 = ktc.expand_dims %r axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %1 = ktc.broadcast %0 : tensor<16x1xi32> -> tensor<16x32xi32>
  return %1 : tensor<16x32xi32>
}
