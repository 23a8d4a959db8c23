// RUN: ktc-opt %s -split-input-file -ktc-combine | FileCheck %s

// Chained pointer arithmetic becomes one addptr of the summed offsets.
// CHECK-LABEL: func.func @nested_addptr
// CHECK-SAME: (%[[P:.*]]: tensor<64x!ktc.ptr<f32>>, %[[A:.*]]: tensor<64xi32>, %[[B:.*]]: tensor<64xi32>)
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[A]], %[[B]] : tensor<64xi32>
// CHECK-NEXT: %[[Q:.*]] = ktc.addptr %[[P]], %[[S]]
// CHECK-NEXT: ktc.load %[[Q]]
func.func @nested_addptr(%p: tensor<64x!ktc.ptr<f32>>, %a: tensor<64xi32>, %b: tensor<64xi32>) -> tensor<64xf32> {
  %0 = ktc.addptr %p, %a : tensor<64x!ktc.ptr<f32>>, tensor<64xi32>
  %1 = ktc.addptr %0, %b : tensor<64x!ktc.ptr<f32>>, tensor<64xi32>
  %2 = ktc.load %1 : tensor<64x!ktc.ptr<f32>>
  return %2 : tensor<64xf32>
}

// -----

// Offsets of different widths are not combined.
// CHECK-LABEL: func.func @mixed_offsets
// CHECK: ktc.addptr %{{.*}}, %{{.*}} : !ktc.ptr<f32>, i32
// CHECK: ktc.addptr %{{.*}}, %{{.*}} : !ktc.ptr<f32>, i64
func.func @mixed_offsets(%p: !ktc.ptr<f32>, %a: i32, %b: i64) -> !ktc.ptr<f32> {
  %0 = ktc.addptr %p, %a : !ktc.ptr<f32>, i32
  %1 = ktc.addptr %0, %b : !ktc.ptr<f32>, i64
  return %1 : !ktc.ptr<f32>
}

// -----

// select(m, load(p, mask m), o) is a load with `other`.
// CHECK-LABEL: func.func @select_of_masked_load
// CHECK-SAME: (%[[P:.*]]: tensor<64x!ktc.ptr<f32>>, %[[M:.*]]: tensor<64xi1>, %[[O:.*]]: tensor<64xf32>)
// CHECK-NEXT: %[[L:.*]] = ktc.load %[[P]], mask %[[M]], other %[[O]]
// CHECK-NEXT: return %[[L]]
func.func @select_of_masked_load(%p: tensor<64x!ktc.ptr<f32>>, %m: tensor<64xi1>, %o: tensor<64xf32>) -> tensor<64xf32> {
  %0 = ktc.load %p, mask %m : tensor<64x!ktc.ptr<f32>>
  %1 = arith.select %m, %0, %o : tensor<64xi1>, tensor<64xf32>
  return %1 : tensor<64xf32>
}

// -----

// With a different mask, or a load used elsewhere, the select stays.
// CHECK-LABEL: func.func @select_other_mask
// CHECK: ktc.load %{{.*}}, mask %{{.*}} : tensor<64x!ktc.ptr<f32>>
// CHECK: arith.select
// CHECK: ktc.load %{{.*}}, mask %{{.*}} : tensor<64x!ktc.ptr<f32>>
// CHECK: arith.select
func.func @select_other_mask(%p: tensor<64x!ktc.ptr<f32>>, %m: tensor<64xi1>, %n: tensor<64xi1>, %o: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %0 = ktc.load %p, mask %m : tensor<64x!ktc.ptr<f32>>
  %1 = arith.select %n, %0, %o : tensor<64xi1>, tensor<64xf32>
  %2 = ktc.load %p, mask %m : tensor<64x!ktc.ptr<f32>>
  %3 = arith.select %m, %2, %o : tensor<64xi1>, tensor<64xf32>
  return %1, %2, %3 : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

// -----

// Splat pointer plus splat offset is computed once, as a scalar.
// CHECK-LABEL: func.func @splat_addptr
// CHECK-SAME: (%[[P:.*]]: !ktc.ptr<f32>, %[[I:.*]]: i32)
// CHECK-NEXT: %[[Q:.*]] = ktc.addptr %[[P]], %[[I]] : !ktc.ptr<f32>, i32
// CHECK-NEXT: %[[S:.*]] = ktc.splat %[[Q]] : !ktc.ptr<f32> -> tensor<128x!ktc.ptr<f32>>
// CHECK-NEXT: return %[[S]]
func.func @splat_addptr(%p: !ktc.ptr<f32>, %i: i32) -> tensor<128x!ktc.ptr<f32>> {
  %ps = ktc.splat %p : !ktc.ptr<f32> -> tensor<128x!ktc.ptr<f32>>
  %is = ktc.splat %i : i32 -> tensor<128xi32>
  %0 = ktc.addptr %ps, %is : tensor<128x!ktc.ptr<f32>>, tensor<128xi32>
  return %0 : tensor<128x!ktc.ptr<f32>>
}
