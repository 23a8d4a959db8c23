// RUN: ktc-opt %s -split-input-file -canonicalize | FileCheck %s

// The max or min of a splat is its scalar.
// CHECK-LABEL: func.func @extremum_of_splat
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK-NEXT: return %[[X]], %[[X]]
func.func @extremum_of_splat(%x: f32) -> (f32, f32) {
  %s = ktc.splat %x : f32 -> tensor<256xf32>
  %0 = ktc.reduce max %s axis = 0 : tensor<256xf32> -> f32
  %1 = ktc.reduce min %s axis = 0 : tensor<256xf32> -> f32
  return %0, %1 : f32, f32
}

// -----

// On a 2-D splat it is a splat of the reduced shape.
// CHECK-LABEL: func.func @extremum_of_2d_splat
// CHECK-SAME: (%[[X:.*]]: i32)
// CHECK-NEXT: %[[S:.*]] = ktc.splat %[[X]] : i32 -> tensor<16xi32>
// CHECK-NEXT: return %[[S]]
func.func @extremum_of_2d_splat(%x: i32) -> tensor<16xi32> {
  %s = ktc.splat %x : i32 -> tensor<16x64xi32>
  %0 = ktc.reduce max %s axis = 1 : tensor<16x64xi32> -> tensor<16xi32>
  return %0 : tensor<16xi32>
}

// -----

// A sum of a splat is not folded (x * N rounds differently for floats).
// CHECK-LABEL: func.func @sum_of_splat
// CHECK: ktc.reduce sum
func.func @sum_of_splat(%x: f32) -> f32 {
  %s = ktc.splat %x : f32 -> tensor<256xf32>
  %0 = ktc.reduce sum %s axis = 0 : tensor<256xf32> -> f32
  return %0 : f32
}
