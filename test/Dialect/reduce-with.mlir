// RUN: ktc-opt %s | ktc-opt | FileCheck %s
// RUN: ktc-opt %s -mlir-print-op-generic | ktc-opt | FileCheck %s

// A reduction with a combine region: one block (xor), two blocks (an
// argmax's value and index), 2-D along either axis.

// CHECK-LABEL: func.func @xor_sum
// CHECK: ktc.reduce_with %{{.*}} axis = 0 : tensor<256xi32> -> i32 {
// CHECK-NEXT: ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32):
// CHECK-NEXT: %[[X:.*]] = arith.xori %[[A]], %[[B]] : i32
// CHECK-NEXT: ktc.reduce_return %[[X]] : i32
func.func @xor_sum(%x: tensor<256xi32>) -> i32 {
  %0 = ktc.reduce_with %x axis = 0 : tensor<256xi32> -> i32 {
  ^bb0(%a: i32, %b: i32):
    %r = arith.xori %a, %b : i32
    ktc.reduce_return %r : i32
  }
  return %0 : i32
}

// CHECK-LABEL: func.func @argmax_rows
// CHECK: ktc.reduce_with %{{.*}}, %{{.*}} axis = 1 : tensor<16x32xf32>, tensor<16x32xi32> -> tensor<16xf32>, tensor<16xi32> {
// CHECK: ktc.reduce_return %{{.*}}, %{{.*}} : f32, i32
func.func @argmax_rows(%x: tensor<16x32xf32>, %i: tensor<16x32xi32>) -> tensor<16xi32> {
  %v, %k = ktc.reduce_with %x, %i axis = 1 : tensor<16x32xf32>, tensor<16x32xi32> -> tensor<16xf32>, tensor<16xi32> {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %eq = arith.cmpf oeq, %a, %b : f32
    %lt = arith.cmpi slt, %ai, %bi : i32
    %tie = arith.andi %eq, %lt : i1
    %take = arith.ori %gt, %tie : i1
    %v = arith.select %take, %a, %b : f32
    %k = arith.select %take, %ai, %bi : i32
    ktc.reduce_return %v, %k : f32, i32
  }
  return %k : tensor<16xi32>
}

// CHECK-LABEL: func.func @columns
// CHECK: ktc.reduce_with %{{.*}} axis = 0 : tensor<4x8xf16> -> tensor<8xf16>
func.func @columns(%x: tensor<4x8xf16>) -> tensor<8xf16> {
  %0 = ktc.reduce_with %x axis = 0 : tensor<4x8xf16> -> tensor<8xf16> {
  ^bb0(%a: f16, %b: f16):
    %r = arith.maximumf %a, %b : f16
    ktc.reduce_return %r : f16
  }
  return %0 : tensor<8xf16>
}
