// RUN: ktc-opt %s | ktc-opt | FileCheck %s

// The 2-D offsets of a tile: rows[:, None] * stride + cols[None, :].
// CHECK-LABEL: func.func @tile_offsets
// CHECK: ktc.broadcast %{{.*}} : tensor<16x1xi32> -> tensor<16x32xi32>
// CHECK: ktc.broadcast %{{.*}} : tensor<1x32xi32> -> tensor<16x32xi32>
// CHECK: arith.addi %{{.*}}, %{{.*}} : tensor<16x32xi32>
// CHECK: ktc.broadcast %{{.*}} : tensor<1x1xf32> -> tensor<16x32xf32>
func.func @tile_offsets(%stride: i32) -> tensor<16x32xi32> {
  %rows = ktc.arange 0, 16 : tensor<16xi32>
  %cols = ktc.arange 0, 32 : tensor<32xi32>
  %r2 = ktc.expand_dims %rows axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %s = ktc.splat %stride : i32 -> tensor<16x1xi32>
  %rs = arith.muli %r2, %s : tensor<16x1xi32>
  %c2 = ktc.expand_dims %cols axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %rb = ktc.broadcast %rs : tensor<16x1xi32> -> tensor<16x32xi32>
  %cb = ktc.broadcast %c2 : tensor<1x32xi32> -> tensor<16x32xi32>
  %off = arith.addi %rb, %cb : tensor<16x32xi32>
  %one = arith.constant dense<1.0> : tensor<1x1xf32>
  %all = ktc.broadcast %one : tensor<1x1xf32> -> tensor<16x32xf32>
  return %off : tensor<16x32xi32>
}
