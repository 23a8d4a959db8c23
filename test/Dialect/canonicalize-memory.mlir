// RUN: ktc-opt %s -split-input-file -canonicalize | FileCheck %s

// An all-true mask is no mask; `other` goes with it.
// CHECK-LABEL: func.func @load_true_mask
// CHECK-SAME: (%[[P:.*]]: tensor<64x!ktc.ptr<f32>>
// CHECK-NEXT: %[[L:.*]] = ktc.load %[[P]] : tensor<64x!ktc.ptr<f32>>
// CHECK-NEXT: return %[[L]]
func.func @load_true_mask(%p: tensor<64x!ktc.ptr<f32>>, %o: tensor<64xf32>) -> tensor<64xf32> {
  %t = arith.constant dense<true> : tensor<64xi1>
  %0 = ktc.load %p, mask %t, other %o : tensor<64x!ktc.ptr<f32>>
  return %0 : tensor<64xf32>
}

// -----

// An all-false mask with `other` is `other`: nothing is read.
// CHECK-LABEL: func.func @load_false_mask
// CHECK-SAME: %[[O:[a-z0-9]+]]: tensor<64xf32>
// CHECK-NOT: ktc.load
// CHECK: return %[[O]]
func.func @load_false_mask(%p: tensor<64x!ktc.ptr<f32>>, %o: tensor<64xf32>) -> tensor<64xf32> {
  %f = arith.constant dense<false> : tensor<64xi1>
  %0 = ktc.load %p, mask %f, other %o : tensor<64x!ktc.ptr<f32>>
  return %0 : tensor<64xf32>
}

// -----

// An all-false mask without `other` gives undefined values: left alone.
// CHECK-LABEL: func.func @load_false_mask_no_other
// CHECK: ktc.load %{{.*}}, mask %{{.*}} : tensor<64x!ktc.ptr<f32>>
func.func @load_false_mask_no_other(%p: tensor<64x!ktc.ptr<f32>>) -> tensor<64xf32> {
  %f = arith.constant dense<false> : tensor<64xi1>
  %0 = ktc.load %p, mask %f : tensor<64x!ktc.ptr<f32>>
  return %0 : tensor<64xf32>
}

// -----

// A splat of `true` (a scalar comparison) is recognised too.
// CHECK-LABEL: func.func @load_splat_true
// CHECK: ktc.load %{{.*}} : tensor<64x!ktc.ptr<f32>>
func.func @load_splat_true(%p: tensor<64x!ktc.ptr<f32>>) -> tensor<64xf32> {
  %t = arith.constant true
  %m = ktc.splat %t : i1 -> tensor<64xi1>
  %0 = ktc.load %p, mask %m : tensor<64x!ktc.ptr<f32>>
  return %0 : tensor<64xf32>
}

// -----

// Stores: an all-true mask is dropped, an all-false store is erased.
// CHECK-LABEL: func.func @stores
// CHECK-SAME: (%[[P:.*]]: tensor<64x!ktc.ptr<f32>>, %[[V:.*]]: tensor<64xf32>)
// CHECK-NEXT: ktc.store %[[P]], %[[V]] : tensor<64x!ktc.ptr<f32>>
// CHECK-NEXT: return
func.func @stores(%p: tensor<64x!ktc.ptr<f32>>, %v: tensor<64xf32>) {
  %t = arith.constant dense<true> : tensor<64xi1>
  %f = arith.constant dense<false> : tensor<64xi1>
  ktc.store %p, %v, mask %t : tensor<64x!ktc.ptr<f32>>
  ktc.store %p, %v, mask %f : tensor<64x!ktc.ptr<f32>>
  return
}

// -----

// A mask only known at run time stays.
// CHECK-LABEL: func.func @runtime_mask
// CHECK: ktc.store %{{.*}}, %{{.*}}, mask %{{.*}} : !ktc.ptr<f32>
func.func @runtime_mask(%p: !ktc.ptr<f32>, %v: f32, %m: i1) {
  ktc.store %p, %v, mask %m : !ktc.ptr<f32>
  return
}
