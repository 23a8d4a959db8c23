// RUN: ktc-opt %s | ktc-opt | FileCheck %s

// CHECK-LABEL: func.func @splats
// CHECK-SAME: (%[[F:.*]]: f32, %[[P:.*]]: !ktc.ptr<bf16>, %[[B:.*]]: i1)
// CHECK-NEXT: ktc.splat %[[F]] : f32 -> tensor<256xf32>
// CHECK-NEXT: ktc.splat %[[F]] : f32 -> tensor<4x64xf32>
// CHECK-NEXT: ktc.splat %[[P]] : !ktc.ptr<bf16> -> tensor<128x!ktc.ptr<bf16>>
// CHECK-NEXT: ktc.splat %[[B]] : i1 -> tensor<32xi1>
func.func @splats(%f: f32, %p: !ktc.ptr<bf16>, %b: i1) {
  %0 = ktc.splat %f : f32 -> tensor<256xf32>
  %1 = ktc.splat %f : f32 -> tensor<4x64xf32>
  %2 = ktc.splat %p : !ktc.ptr<bf16> -> tensor<128x!ktc.ptr<bf16>>
  %3 = ktc.splat %b : i1 -> tensor<32xi1>
  return
}
