// RUN: ktc-opt %s | ktc-opt | FileCheck %s
// RUN: ktc-opt %s -mlir-print-op-generic | ktc-opt | FileCheck %s

// CHECK-LABEL: func.func @cumsum
// CHECK: ktc.scan %{{.*}} axis = 0 : tensor<256xf32> -> tensor<256xf32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT: ktc.scan_return %[[S]] : f32
func.func @cumsum(%x: tensor<256xf32>) -> tensor<256xf32> {
  %0 = ktc.scan %x axis = 0 : tensor<256xf32> -> tensor<256xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    ktc.scan_return %s : f32
  }
  return %0 : tensor<256xf32>
}

// CHECK-LABEL: func.func @pair_reverse
// CHECK: ktc.scan %{{.*}}, %{{.*}} axis = 1 reverse : tensor<4x64xf32>, tensor<4x64xi32> -> tensor<4x64xf32>, tensor<4x64xi32> {
// CHECK: ktc.scan_return %{{.*}}, %{{.*}} : f32, i32
func.func @pair_reverse(%x: tensor<4x64xf32>, %i: tensor<4x64xi32>) {
  %0:2 = ktc.scan %x, %i axis = 1 reverse : tensor<4x64xf32>, tensor<4x64xi32> -> tensor<4x64xf32>, tensor<4x64xi32> {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %b, %a : f32
    %m = arith.select %gt, %b, %a : f32
    %mi = arith.select %gt, %bi, %ai : i32
    ktc.scan_return %m, %mi : f32, i32
  }
  return
}

// CHECK-LABEL: func.func @rank3
// CHECK: ktc.scan %{{.*}} axis = 2 : tensor<2x4x8xi64> -> tensor<2x4x8xi64>
func.func @rank3(%x: tensor<2x4x8xi64>) {
  %0 = ktc.scan %x axis = 2 : tensor<2x4x8xi64> -> tensor<2x4x8xi64> {
  ^bb0(%a: i64, %b: i64):
    %s = arith.muli %a, %b : i64
    ktc.scan_return %s : i64
  }
  return
}
