// RUN: ktc-opt %s -split-input-file -canonicalize | FileCheck %s

// Adding zero is the identity, for scalars and blocks.
// CHECK-LABEL: func.func @add_zero
// CHECK-SAME: (%[[P:.*]]: !ktc.ptr<f32>, %[[B:.*]]: tensor<64x!ktc.ptr<f16>>)
// CHECK-NEXT: return %[[P]], %[[B]]
func.func @add_zero(%p: !ktc.ptr<f32>, %b: tensor<64x!ktc.ptr<f16>>)
    -> (!ktc.ptr<f32>, tensor<64x!ktc.ptr<f16>>) {
  %z = arith.constant 0 : i32
  %0 = ktc.addptr %p, %z : !ktc.ptr<f32>, i32
  %zb = arith.constant dense<0> : tensor<64xi64>
  %1 = ktc.addptr %b, %zb : tensor<64x!ktc.ptr<f16>>, tensor<64xi64>
  return %0, %1 : !ktc.ptr<f32>, tensor<64x!ktc.ptr<f16>>
}

// -----

// A non-zero offset stays.
// CHECK-LABEL: func.func @add_one
// CHECK: ktc.addptr %{{.*}}, %{{.*}} : !ktc.ptr<f32>, i32
func.func @add_one(%p: !ktc.ptr<f32>) -> !ktc.ptr<f32> {
  %c = arith.constant 1 : i32
  %0 = ktc.addptr %p, %c : !ktc.ptr<f32>, i32
  return %0 : !ktc.ptr<f32>
}

// -----

// Pure ops with unused results disappear; loads (memory reads) may too,
// stores may not.
// CHECK-LABEL: func.func @dead_code
// CHECK-NOT: ktc.addptr
// CHECK-NOT: ktc.load
// CHECK: ktc.store
func.func @dead_code(%p: !ktc.ptr<f32>, %i: i32, %v: f32) {
  %0 = ktc.addptr %p, %i : !ktc.ptr<f32>, i32
  %1 = ktc.load %0 : !ktc.ptr<f32>
  %2 = ktc.program_id 0 : i32
  %3 = ktc.arange 0, 8 : tensor<8xi32>
  ktc.store %p, %v : !ktc.ptr<f32>
  return
}
