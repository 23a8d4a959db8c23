// RUN: ktc-opt %s -split-input-file -canonicalize | FileCheck %s

// A splat of a constant is a dense constant.
// CHECK-LABEL: func.func @splat_of_constant
// CHECK-DAG: %[[F:.*]] = arith.constant dense<2.500000e+00> : tensor<256xf32>
// CHECK-DAG: %[[I:.*]] = arith.constant dense<7> : tensor<16x16xi32>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<true> : tensor<8xi1>
// CHECK-NOT: ktc.splat
// CHECK: return %[[F]], %[[I]], %[[B]]
func.func @splat_of_constant() -> (tensor<256xf32>, tensor<16x16xi32>, tensor<8xi1>) {
  %f = arith.constant 2.5 : f32
  %i = arith.constant 7 : i32
  %b = arith.constant true
  %0 = ktc.splat %f : f32 -> tensor<256xf32>
  %1 = ktc.splat %i : i32 -> tensor<16x16xi32>
  %2 = ktc.splat %b : i1 -> tensor<8xi1>
  return %0, %1, %2 : tensor<256xf32>, tensor<16x16xi32>, tensor<8xi1>
}

// -----

// A splat of a non-constant stays.
// CHECK-LABEL: func.func @splat_of_argument
// CHECK: ktc.splat %{{.*}} : f32 -> tensor<256xf32>
func.func @splat_of_argument(%x: f32) -> tensor<256xf32> {
  %0 = ktc.splat %x : f32 -> tensor<256xf32>
  return %0 : tensor<256xf32>
}

// -----

// A constant splat feeding arithmetic folds with it (upstream arith folds).
// CHECK-LABEL: func.func @folds_through_arith
// CHECK: %[[C:.*]] = arith.constant dense<6> : tensor<64xi32>
// CHECK-NEXT: return %[[C]]
func.func @folds_through_arith() -> tensor<64xi32> {
  %a = arith.constant 2 : i32
  %b = arith.constant 3 : i32
  %sa = ktc.splat %a : i32 -> tensor<64xi32>
  %sb = ktc.splat %b : i32 -> tensor<64xi32>
  %0 = arith.muli %sa, %sb : tensor<64xi32>
  return %0 : tensor<64xi32>
}
