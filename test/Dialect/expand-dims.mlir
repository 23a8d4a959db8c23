// RUN: ktc-opt %s | ktc-opt | FileCheck %s

// Row and column vectors from one range: x[None, :] and x[:, None].
// CHECK-LABEL: func.func @expand
// CHECK: %[[R:.*]] = ktc.arange 0, 64 : tensor<64xi32>
// CHECK-NEXT: ktc.expand_dims %[[R]] axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
// CHECK-NEXT: ktc.expand_dims %[[R]] axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
// CHECK: ktc.expand_dims %{{.*}} axis = 1 : tensor<64x!ktc.ptr<f32>> -> tensor<64x1x!ktc.ptr<f32>>
func.func @expand(%p: !ktc.ptr<f32>) {
  %r = ktc.arange 0, 64 : tensor<64xi32>
  %0 = ktc.expand_dims %r axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %1 = ktc.expand_dims %r axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ps = ktc.splat %p : !ktc.ptr<f32> -> tensor<64x!ktc.ptr<f32>>
  %2 = ktc.expand_dims %ps axis = 1 : tensor<64x!ktc.ptr<f32>> -> tensor<64x1x!ktc.ptr<f32>>
  return
}
