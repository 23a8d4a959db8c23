// RUN: ktc-opt %s -split-input-file | ktc-opt -split-input-file | FileCheck %s

// Every pointee type of !ktc.ptr, as kernel arguments.
// CHECK-LABEL: func.func @pointers
// CHECK-SAME: !ktc.ptr<i32>
// CHECK-SAME: !ktc.ptr<i64>
// CHECK-SAME: !ktc.ptr<f16>
// CHECK-SAME: !ktc.ptr<bf16>
// CHECK-SAME: !ktc.ptr<f32>
func.func @pointers(%a: !ktc.ptr<i32>, %b: !ktc.ptr<i64>, %c: !ktc.ptr<f16>,
                    %d: !ktc.ptr<bf16>, %e: !ktc.ptr<f32>) {
  return
}

// -----

// Block tensors over every element type, 1-D and 2-D.
// CHECK-LABEL: func.func @blocks
// CHECK: ktc.splat %{{.*}} : i1 -> tensor<2xi1>
// CHECK: ktc.splat %{{.*}} : i32 -> tensor<1024xi32>
// CHECK: ktc.splat %{{.*}} : i64 -> tensor<16x32xi64>
// CHECK: ktc.splat %{{.*}} : f16 -> tensor<1xf16>
// CHECK: ktc.splat %{{.*}} : bf16 -> tensor<8x1xbf16>
// CHECK: ktc.splat %{{.*}} : f32 -> tensor<16384xf32>
// CHECK: ktc.splat %{{.*}} : !ktc.ptr<f16> -> tensor<4x64x!ktc.ptr<f16>>
func.func @blocks(%b: i1, %i: i32, %l: i64, %h: f16, %bh: bf16, %f: f32,
                  %p: !ktc.ptr<f16>) {
  %0 = ktc.splat %b : i1 -> tensor<2xi1>
  %1 = ktc.splat %i : i32 -> tensor<1024xi32>
  %2 = ktc.splat %l : i64 -> tensor<16x32xi64>
  %3 = ktc.splat %h : f16 -> tensor<1xf16>
  %4 = ktc.splat %bh : bf16 -> tensor<8x1xbf16>
  %5 = ktc.splat %f : f32 -> tensor<16384xf32>
  %6 = ktc.splat %p : !ktc.ptr<f16> -> tensor<4x64x!ktc.ptr<f16>>
  return
}
