// RUN: ktc-opt %s | ktc-opt | FileCheck %s
// RUN: ktc-opt %s --mlir-print-op-generic | ktc-opt | FileCheck %s

// Row-major reshapes between ranks 1, 2 and 3, of numbers and pointers.
// CHECK-LABEL: func.func @reshape
// CHECK: ktc.reshape %{{.*}} : tensor<16x32xf32> -> tensor<512xf32>
// CHECK: ktc.reshape %{{.*}} : tensor<512xf32> -> tensor<8x8x8xf32>
// CHECK: ktc.reshape %{{.*}} : tensor<8x8x8xf32> -> tensor<64x8xf32>
// CHECK: ktc.reshape %{{.*}} : tensor<4x2x!ktc.ptr<i64>> -> tensor<8x!ktc.ptr<i64>>
// CHECK: ktc.reshape %{{.*}} : tensor<8xi1> -> tensor<2x4xi1>
func.func @reshape(%a: tensor<16x32xf32>, %p: tensor<4x2x!ktc.ptr<i64>>,
                   %m: tensor<8xi1>) {
  %0 = ktc.reshape %a : tensor<16x32xf32> -> tensor<512xf32>
  %1 = ktc.reshape %0 : tensor<512xf32> -> tensor<8x8x8xf32>
  %2 = ktc.reshape %1 : tensor<8x8x8xf32> -> tensor<64x8xf32>
  %3 = ktc.reshape %p : tensor<4x2x!ktc.ptr<i64>> -> tensor<8x!ktc.ptr<i64>>
  %4 = ktc.reshape %m : tensor<8xi1> -> tensor<2x4xi1>
  return
}
