// RUN: ktc-opt %s | ktc-opt | FileCheck %s
// RUN: ktc-opt %s --mlir-print-op-generic | ktc-opt | FileCheck %s

// A 2-D transpose, permutations of a 3-D block, and blocks of pointers.
// CHECK-LABEL: func.func @trans
// CHECK: ktc.trans %{{.*}} perm = [1, 0] : tensor<64x32xf32> -> tensor<32x64xf32>
// CHECK: ktc.trans %{{.*}} perm = [2, 0, 1] : tensor<2x4x8xi32> -> tensor<8x2x4xi32>
// CHECK: ktc.trans %{{.*}} perm = [0, 2, 1] : tensor<2x4x8xi32> -> tensor<2x8x4xi32>
// CHECK: ktc.trans %{{.*}} perm = [0] : tensor<16xf16> -> tensor<16xf16>
// CHECK: ktc.trans %{{.*}} perm = [1, 0] : tensor<4x1x!ktc.ptr<f32>> -> tensor<1x4x!ktc.ptr<f32>>
func.func @trans(%a: tensor<64x32xf32>, %b: tensor<2x4x8xi32>,
                 %c: tensor<16xf16>, %p: tensor<4x1x!ktc.ptr<f32>>) {
  %0 = ktc.trans %a perm = [1, 0] : tensor<64x32xf32> -> tensor<32x64xf32>
  %1 = ktc.trans %b perm = [2, 0, 1] : tensor<2x4x8xi32> -> tensor<8x2x4xi32>
  %2 = ktc.trans %b perm = [0, 2, 1] : tensor<2x4x8xi32> -> tensor<2x8x4xi32>
  %3 = ktc.trans %c perm = [0] : tensor<16xf16> -> tensor<16xf16>
  %4 = ktc.trans %p perm = [1, 0] : tensor<4x1x!ktc.ptr<f32>> -> tensor<1x4x!ktc.ptr<f32>>
  return
}
