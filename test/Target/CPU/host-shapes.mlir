// RUN: ktc-opt %s -split-input-file --convert-ktc-to-host | FileCheck %s
// RUN: ktc-opt %s -split-input-file --ktc-host-pipeline | FileCheck %s --check-prefix=LLVM

// expand_dims of 1-D and 2-D blocks: a unit dimension joins its left
// neighbour's group (the first dimension's at axis 0).
// CHECK-LABEL: func.func @expand
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [1, 8] : tensor<8xi32> into tensor<1x8xi32>
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [1, 4, 8] : tensor<4x8xi32> into tensor<1x4x8xi32>
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [4, 1, 8] : tensor<4x8xi32> into tensor<4x1x8xi32>
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [4, 8, 1] : tensor<4x8xi32> into tensor<4x8x1xi32>
func.func @expand(%x: tensor<8xi32>, %y: tensor<4x8xi32>) -> (tensor<1x8xi32>, tensor<1x4x8xi32>, tensor<4x1x8xi32>, tensor<4x8x1xi32>) {
  %0 = ktc.expand_dims %x axis = 0 : tensor<8xi32> -> tensor<1x8xi32>
  %1 = ktc.expand_dims %y axis = 0 : tensor<4x8xi32> -> tensor<1x4x8xi32>
  %2 = ktc.expand_dims %y axis = 1 : tensor<4x8xi32> -> tensor<4x1x8xi32>
  %3 = ktc.expand_dims %y axis = 2 : tensor<4x8xi32> -> tensor<4x8x1xi32>
  return %0, %1, %2, %3 : tensor<1x8xi32>, tensor<1x4x8xi32>, tensor<4x1x8xi32>, tensor<4x8x1xi32>
}

// -----

// trans is a linalg.transpose with the same permutation; of pointers, on
// their i64 addresses.
// CHECK-LABEL: func.func @trans
// CHECK: linalg.transpose ins(%{{.*}} : tensor<2x4x8xf32>) outs(%{{.*}} : tensor<8x2x4xf32>) permutation = [2, 0, 1]
// CHECK: linalg.transpose ins(%{{.*}} : tensor<4x2xi64>) outs(%{{.*}} : tensor<2x4xi64>) permutation = [1, 0]
func.func @trans(%x: tensor<2x4x8xf32>, %p: tensor<4x2x!ktc.ptr<f32>>) -> (tensor<8x2x4xf32>, tensor<2x4x!ktc.ptr<f32>>) {
  %0 = ktc.trans %x perm = [2, 0, 1] : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
  %1 = ktc.trans %p perm = [1, 0] : tensor<4x2x!ktc.ptr<f32>> -> tensor<2x4x!ktc.ptr<f32>>
  return %0, %1 : tensor<8x2x4xf32>, tensor<2x4x!ktc.ptr<f32>>
}

// -----

// reshape goes through the 1-D block: collapse, then expand (row-major).
// CHECK-LABEL: func.func @reshape
// CHECK: %[[F:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<16x32xf32> into tensor<512xf32>
// CHECK: %[[C:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2]] output_shape [8, 8, 8] : tensor<512xf32> into tensor<8x8x8xf32>
// CHECK: %[[G:.*]] = tensor.collapse_shape %[[C]] {{\[\[}}0, 1, 2]] : tensor<8x8x8xf32> into tensor<512xf32>
// CHECK: tensor.expand_shape %[[G]] {{\[\[}}0, 1]] output_shape [64, 8] : tensor<512xf32> into tensor<64x8xf32>
func.func @reshape(%a: tensor<16x32xf32>) -> (tensor<512xf32>, tensor<64x8xf32>) {
  %0 = ktc.reshape %a : tensor<16x32xf32> -> tensor<512xf32>
  %1 = ktc.reshape %0 : tensor<512xf32> -> tensor<8x8x8xf32>
  %2 = ktc.reshape %1 : tensor<8x8x8xf32> -> tensor<64x8xf32>
  return %0, %2 : tensor<512xf32>, tensor<64x8xf32>
}

// -----

// A kernel using all four goes the whole way to the LLVM dialect.
// CHECK-LABEL: func.func @kernel
// LLVM-LABEL: llvm.func @kernel(
// LLVM-NOT: {{= ktc\.|^ *ktc\.}}
// LLVM-NOT: {{= tensor\.}}
// LLVM: llvm.return
func.func @kernel(%p: !ktc.ptr<f32>, %q: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 64 : tensor<64xi32>
  %t = ktc.reshape %r : tensor<64xi32> -> tensor<4x8x2xi32>
  %ps = ktc.splat %p : !ktc.ptr<f32> -> tensor<4x8x2x!ktc.ptr<f32>>
  %pp = ktc.addptr %ps, %t : tensor<4x8x2x!ktc.ptr<f32>>, tensor<4x8x2xi32>
  %x = ktc.load %pp : tensor<4x8x2x!ktc.ptr<f32>>
  %y = ktc.trans %x perm = [2, 0, 1] : tensor<4x8x2xf32> -> tensor<2x4x8xf32>
  %s = ktc.reduce sum %y axis = 0 : tensor<2x4x8xf32> -> tensor<4x8xf32>
  %e = ktc.expand_dims %s axis = 1 : tensor<4x8xf32> -> tensor<4x1x8xf32>
  %b = ktc.broadcast %e : tensor<4x1x8xf32> -> tensor<4x2x8xf32>
  %f = ktc.reshape %b : tensor<4x2x8xf32> -> tensor<64xf32>
  %qs = ktc.splat %q : !ktc.ptr<f32> -> tensor<64x!ktc.ptr<f32>>
  %qq = ktc.addptr %qs, %r : tensor<64x!ktc.ptr<f32>>, tensor<64xi32>
  ktc.store %qq, %f : tensor<64x!ktc.ptr<f32>>
  return
}
