// RUN: ktc-opt %s | ktc-opt | FileCheck %s

// CHECK-LABEL: func.func @reductions
// CHECK-NEXT: ktc.reduce sum %{{.*}} axis = 0 : tensor<256xf32> -> f32
// CHECK-NEXT: ktc.reduce max %{{.*}} axis = 0 : tensor<256xf32> -> f32
// CHECK-NEXT: ktc.reduce min %{{.*}} axis = 0 : tensor<256xf32> -> f32
// CHECK-NEXT: ktc.reduce sum %{{.*}} axis = 1 : tensor<64x128xf32> -> tensor<64xf32>
// CHECK-NEXT: ktc.reduce max %{{.*}} axis = 0 : tensor<64x128xf32> -> tensor<128xf32>
// CHECK-NEXT: ktc.reduce min %{{.*}} axis = 0 : tensor<32xi32> -> i32
// CHECK-NEXT: ktc.reduce max %{{.*}} axis = 0 : tensor<32xi1> -> i1
// CHECK-NEXT: ktc.reduce sum %{{.*}} axis = 0 : tensor<8xf16> -> f16
func.func @reductions(%x: tensor<256xf32>, %t: tensor<64x128xf32>,
                      %i: tensor<32xi32>, %b: tensor<32xi1>, %h: tensor<8xf16>) {
  %0 = ktc.reduce sum %x axis = 0 : tensor<256xf32> -> f32
  %1 = ktc.reduce max %x axis = 0 : tensor<256xf32> -> f32
  %2 = ktc.reduce min %x axis = 0 : tensor<256xf32> -> f32
  %3 = ktc.reduce sum %t axis = 1 : tensor<64x128xf32> -> tensor<64xf32>
  %4 = ktc.reduce max %t axis = 0 : tensor<64x128xf32> -> tensor<128xf32>
  %5 = ktc.reduce min %i axis = 0 : tensor<32xi32> -> i32
  %6 = ktc.reduce max %b axis = 0 : tensor<32xi1> -> i1
  %7 = ktc.reduce sum %h axis = 0 : tensor<8xf16> -> f16
  return
}
