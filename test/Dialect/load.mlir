// RUN: ktc-opt %s | ktc-opt | FileCheck %s

// CHECK-LABEL: func.func @loads
// CHECK-SAME: (%[[P:.*]]: tensor<128x!ktc.ptr<f32>>, %[[M:.*]]: tensor<128xi1>, %[[O:.*]]: tensor<128xf32>
// CHECK-NEXT: ktc.load %[[P]] : tensor<128x!ktc.ptr<f32>>
// CHECK-NEXT: ktc.load %[[P]], mask %[[M]] : tensor<128x!ktc.ptr<f32>>
// CHECK-NEXT: ktc.load %[[P]], mask %[[M]], other %[[O]] : tensor<128x!ktc.ptr<f32>>
func.func @loads(%p: tensor<128x!ktc.ptr<f32>>, %m: tensor<128xi1>,
                 %o: tensor<128xf32>) -> (tensor<128xf32>, tensor<128xf32>, tensor<128xf32>) {
  %0 = ktc.load %p : tensor<128x!ktc.ptr<f32>>
  %1 = ktc.load %p, mask %m : tensor<128x!ktc.ptr<f32>>
  %2 = ktc.load %p, mask %m, other %o : tensor<128x!ktc.ptr<f32>>
  return %0, %1, %2 : tensor<128xf32>, tensor<128xf32>, tensor<128xf32>
}

// A scalar load and loads of every pointee type; the result type follows
// from the pointer type.
// CHECK-LABEL: func.func @types
// CHECK: %{{.*}} = ktc.load %{{.*}} : !ktc.ptr<i32>
// CHECK: ktc.load %{{.*}}, mask %{{.*}}, other %{{.*}} : !ktc.ptr<i64>
// CHECK: ktc.load %{{.*}} : tensor<2x4x!ktc.ptr<f16>>
// CHECK: ktc.load %{{.*}} {tag = "kept"} : tensor<8x!ktc.ptr<bf16>>
func.func @types(%a: !ktc.ptr<i32>, %b: !ktc.ptr<i64>, %m: i1, %o: i64,
                 %c: tensor<2x4x!ktc.ptr<f16>>, %d: tensor<8x!ktc.ptr<bf16>>)
    -> (i32, i64, tensor<2x4xf16>, tensor<8xbf16>) {
  %0 = ktc.load %a : !ktc.ptr<i32>
  %1 = ktc.load %b, mask %m, other %o : !ktc.ptr<i64>
  %2 = ktc.load %c : tensor<2x4x!ktc.ptr<f16>>
  %3 = ktc.load %d {tag = "kept"} : tensor<8x!ktc.ptr<bf16>>
  return %0, %1, %2, %3 : i32, i64, tensor<2x4xf16>, tensor<8xbf16>
}
