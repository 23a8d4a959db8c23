// RUN: ktc-opt %s | ktc-opt | FileCheck %s
// RUN: ktc-opt %s -mlir-print-op-generic | ktc-opt | FileCheck %s

// CHECK-LABEL: func.func @rmw
// CHECK-SAME: (%[[P:.*]]: tensor<128x!ktc.ptr<i32>>, %[[V:.*]]: tensor<128xi32>, %[[M:.*]]: tensor<128xi1>
// CHECK-NEXT: ktc.atomic_rmw add %[[P]], %[[V]] : tensor<128x!ktc.ptr<i32>>
// CHECK-NEXT: ktc.atomic_rmw max %[[P]], %[[V]], mask %[[M]] : tensor<128x!ktc.ptr<i32>>
// CHECK-NEXT: ktc.atomic_rmw min %[[P]], %[[V]] sem = relaxed : tensor<128x!ktc.ptr<i32>>
// CHECK-NEXT: ktc.atomic_rmw xchg %[[P]], %[[V]] scope = cta : tensor<128x!ktc.ptr<i32>>
// CHECK-NEXT: ktc.atomic_rmw and %[[P]], %[[V]], mask %[[M]] sem = acquire scope = sys : tensor<128x!ktc.ptr<i32>>
// CHECK-NEXT: ktc.atomic_rmw or %[[P]], %[[V]] sem = release : tensor<128x!ktc.ptr<i32>>
// CHECK-NEXT: ktc.atomic_rmw xor %[[P]], %[[V]] : tensor<128x!ktc.ptr<i32>>
// CHECK-NEXT: ktc.atomic_rmw add %{{.*}}, %{{.*}} : !ktc.ptr<f32>
// CHECK-NEXT: ktc.atomic_rmw max %{{.*}}, %{{.*}} : tensor<4x8x!ktc.ptr<i64>>
func.func @rmw(%p: tensor<128x!ktc.ptr<i32>>, %v: tensor<128xi32>,
               %m: tensor<128xi1>, %s: !ktc.ptr<f32>, %x: f32,
               %q: tensor<4x8x!ktc.ptr<i64>>, %w: tensor<4x8xi64>) {
  %0 = ktc.atomic_rmw add %p, %v : tensor<128x!ktc.ptr<i32>>
  %1 = ktc.atomic_rmw max %p, %v, mask %m sem = acq_rel scope = gpu : tensor<128x!ktc.ptr<i32>>
  %2 = ktc.atomic_rmw min %p, %v sem = relaxed : tensor<128x!ktc.ptr<i32>>
  %3 = ktc.atomic_rmw xchg %p, %v scope = cta : tensor<128x!ktc.ptr<i32>>
  %4 = ktc.atomic_rmw and %p, %v, mask %m sem = acquire scope = sys : tensor<128x!ktc.ptr<i32>>
  %5 = ktc.atomic_rmw or %p, %v sem = release : tensor<128x!ktc.ptr<i32>>
  %6 = ktc.atomic_rmw xor %p, %v : tensor<128x!ktc.ptr<i32>>
  %7 = ktc.atomic_rmw add %s, %x : !ktc.ptr<f32>
  %8 = ktc.atomic_rmw max %q, %w : tensor<4x8x!ktc.ptr<i64>>
  return
}

// CHECK-LABEL: func.func @cas
// CHECK-NEXT: ktc.atomic_cas %{{.*}}, %{{.*}}, %{{.*}} : !ktc.ptr<i32>
// CHECK-NEXT: ktc.atomic_cas %{{.*}}, %{{.*}}, %{{.*}}, mask %{{.*}} sem = relaxed scope = cta : tensor<64x!ktc.ptr<f32>>
func.func @cas(%p: !ktc.ptr<i32>, %c: i32, %v: i32,
               %q: tensor<64x!ktc.ptr<f32>>, %cf: tensor<64xf32>,
               %vf: tensor<64xf32>, %m: tensor<64xi1>) {
  %0 = ktc.atomic_cas %p, %c, %v : !ktc.ptr<i32>
  %1 = ktc.atomic_cas %q, %cf, %vf, mask %m sem = relaxed scope = cta : tensor<64x!ktc.ptr<f32>>
  return
}
