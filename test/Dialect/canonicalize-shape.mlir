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

// -----

// The identity permutation folds away; nested permutations compose (here to
// the identity, then to nothing).
// CHECK-LABEL: func.func @identity_trans
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x8xf32>)
// CHECK-NEXT: return %[[X]], %[[X]]
func.func @identity_trans(%x: tensor<2x4x8xf32>) -> (tensor<2x4x8xf32>, tensor<2x4x8xf32>) {
  %0 = ktc.trans %x perm = [0, 1, 2] : tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  %1 = ktc.trans %x perm = [2, 0, 1] : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
  %2 = ktc.trans %1 perm = [1, 2, 0] : tensor<8x2x4xf32> -> tensor<2x4x8xf32>
  return %0, %2 : tensor<2x4x8xf32>, tensor<2x4x8xf32>
}

// -----

// trans(trans(x, [2, 0, 1]), [0, 2, 1]) = trans(x, [2, 1, 0]).
// CHECK-LABEL: func.func @trans_of_trans
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x8xi32>)
// CHECK-NEXT: %[[T:.*]] = ktc.trans %[[X]] perm = [2, 1, 0] : tensor<2x4x8xi32> -> tensor<8x4x2xi32>
// CHECK-NEXT: return %[[T]]
func.func @trans_of_trans(%x: tensor<2x4x8xi32>) -> tensor<8x4x2xi32> {
  %0 = ktc.trans %x perm = [2, 0, 1] : tensor<2x4x8xi32> -> tensor<8x2x4xi32>
  %1 = ktc.trans %0 perm = [0, 2, 1] : tensor<8x2x4xi32> -> tensor<8x4x2xi32>
  return %1 : tensor<8x4x2xi32>
}

// -----

// trans and reshape of a splat are splats; of a constant, constants.
// CHECK-LABEL: func.func @trans_reshape_of_splat
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK-DAG: %[[C:.*]] = arith.constant dense<2> : tensor<4x2x8xi32>
// CHECK-DAG: %[[D:.*]] = arith.constant dense<3> : tensor<64xi32>
// CHECK-DAG: %[[S:.*]] = ktc.splat %[[X]] : f32 -> tensor<32x64xf32>
// CHECK-DAG: %[[R:.*]] = ktc.splat %[[X]] : f32 -> tensor<8x8x32xf32>
// CHECK: return %[[S]], %[[R]], %[[C]], %[[D]]
func.func @trans_reshape_of_splat(%x: f32) -> (tensor<32x64xf32>, tensor<8x8x32xf32>, tensor<4x2x8xi32>, tensor<64xi32>) {
  %0 = ktc.splat %x : f32 -> tensor<64x32xf32>
  %1 = ktc.trans %0 perm = [1, 0] : tensor<64x32xf32> -> tensor<32x64xf32>
  %2 = ktc.reshape %0 : tensor<64x32xf32> -> tensor<8x8x32xf32>
  %c = arith.constant dense<2> : tensor<2x4x8xi32>
  %3 = ktc.trans %c perm = [1, 0, 2] : tensor<2x4x8xi32> -> tensor<4x2x8xi32>
  %d = arith.constant dense<3> : tensor<8x8xi32>
  %4 = ktc.reshape %d : tensor<8x8xi32> -> tensor<64xi32>
  return %1, %2, %3, %4 : tensor<32x64xf32>, tensor<8x8x32xf32>, tensor<4x2x8xi32>, tensor<64xi32>
}

// -----

// A reshape to the same shape folds away; nested reshapes become one, and
// one back to the source's shape nothing.
// CHECK-LABEL: func.func @reshape_of_reshape
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK-NEXT: %[[R:.*]] = ktc.reshape %[[X]] : tensor<4x8xf32> -> tensor<2x2x8xf32>
// CHECK-NEXT: return %[[X]], %[[R]], %[[X]]
func.func @reshape_of_reshape(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<2x2x8xf32>, tensor<4x8xf32>) {
  %0 = ktc.reshape %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = ktc.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
  %2 = ktc.reshape %1 : tensor<32xf32> -> tensor<2x2x8xf32>
  %3 = ktc.reshape %2 : tensor<2x2x8xf32> -> tensor<4x8xf32>
  return %0, %2, %3 : tensor<4x8xf32>, tensor<2x2x8xf32>, tensor<4x8xf32>
}

// -----

// A real permutation or reshape of a non-splat stays.
// CHECK-LABEL: func.func @real_trans_reshape
// CHECK: ktc.trans %{{.*}} perm = [1, 0]
// CHECK: ktc.reshape
func.func @real_trans_reshape(%x: tensor<4x8xf32>) -> (tensor<8x4xf32>, tensor<32xf32>) {
  %0 = ktc.trans %x perm = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %1 = ktc.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
  return %0, %1 : tensor<8x4xf32>, tensor<32xf32>
}
