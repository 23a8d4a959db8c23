// RUN: ktc-opt %s | ktc-opt | FileCheck %s

// CHECK-LABEL: func.func @stores
// CHECK-SAME: (%[[P:.*]]: tensor<128x!ktc.ptr<f32>>, %[[V:.*]]: tensor<128xf32>, %[[M:.*]]: tensor<128xi1>
// CHECK-NEXT: ktc.store %[[P]], %[[V]] : tensor<128x!ktc.ptr<f32>>
// CHECK-NEXT: ktc.store %[[P]], %[[V]], mask %[[M]] : tensor<128x!ktc.ptr<f32>>
// CHECK-NEXT: ktc.store %{{.*}}, %{{.*}} : !ktc.ptr<i64>
// CHECK-NEXT: ktc.store %{{.*}}, %{{.*}}, mask %{{.*}} : tensor<4x8x!ktc.ptr<f16>>
func.func @stores(%p: tensor<128x!ktc.ptr<f32>>, %v: tensor<128xf32>,
                  %m: tensor<128xi1>, %s: !ktc.ptr<i64>, %x: i64,
                  %q: tensor<4x8x!ktc.ptr<f16>>, %h: tensor<4x8xf16>,
                  %qm: tensor<4x8xi1>) {
  ktc.store %p, %v : tensor<128x!ktc.ptr<f32>>
  ktc.store %p, %v, mask %m : tensor<128x!ktc.ptr<f32>>
  ktc.store %s, %x : !ktc.ptr<i64>
  ktc.store %q, %h, mask %qm : tensor<4x8x!ktc.ptr<f16>>
  return
}
