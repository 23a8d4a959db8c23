// RUN: ktc-opt %s | ktc-opt | FileCheck %s

// Blocks of rank 3: expand_dims of a 2-D block, broadcast, arithmetic,
// pointers, loads, stores and reductions along each axis.
// CHECK-LABEL: func.func @cube
// CHECK: ktc.expand_dims %{{.*}} axis = 2 : tensor<4x8xi32> -> tensor<4x8x1xi32>
// CHECK: ktc.expand_dims %{{.*}} axis = 0 : tensor<4x8xi32> -> tensor<1x4x8xi32>
// CHECK: ktc.broadcast %{{.*}} : tensor<4x8x1xi32> -> tensor<4x8x2xi32>
// CHECK: arith.addi %{{.*}} : tensor<4x8x2xi32>
// CHECK: ktc.addptr %{{.*}} : tensor<4x8x2x!ktc.ptr<f32>>, tensor<4x8x2xi32>
// CHECK: ktc.load %{{.*}}, mask %{{.*}} : tensor<4x8x2x!ktc.ptr<f32>>
// CHECK: ktc.reduce sum %{{.*}} axis = 0 : tensor<4x8x2xf32> -> tensor<8x2xf32>
// CHECK: ktc.reduce max %{{.*}} axis = 1 : tensor<4x8x2xf32> -> tensor<4x2xf32>
// CHECK: ktc.reduce min %{{.*}} axis = 2 : tensor<4x8x2xf32> -> tensor<4x8xf32>
// CHECK: ktc.store %{{.*}} : tensor<4x8x2x!ktc.ptr<f32>>
func.func @cube(%p: !ktc.ptr<f32>, %t: tensor<4x8xi32>,
                %m: tensor<4x8x2xi1>) {
  %0 = ktc.expand_dims %t axis = 2 : tensor<4x8xi32> -> tensor<4x8x1xi32>
  %1 = ktc.expand_dims %t axis = 0 : tensor<4x8xi32> -> tensor<1x4x8xi32>
  %2 = ktc.broadcast %0 : tensor<4x8x1xi32> -> tensor<4x8x2xi32>
  %3 = arith.addi %2, %2 : tensor<4x8x2xi32>
  %ps = ktc.splat %p : !ktc.ptr<f32> -> tensor<4x8x2x!ktc.ptr<f32>>
  %4 = ktc.addptr %ps, %3 : tensor<4x8x2x!ktc.ptr<f32>>, tensor<4x8x2xi32>
  %x = ktc.load %4, mask %m : tensor<4x8x2x!ktc.ptr<f32>>
  %5 = ktc.reduce sum %x axis = 0 : tensor<4x8x2xf32> -> tensor<8x2xf32>
  %6 = ktc.reduce max %x axis = 1 : tensor<4x8x2xf32> -> tensor<4x2xf32>
  %7 = ktc.reduce min %x axis = 2 : tensor<4x8x2xf32> -> tensor<4x8xf32>
  ktc.store %4, %x : tensor<4x8x2x!ktc.ptr<f32>>
  return
}
