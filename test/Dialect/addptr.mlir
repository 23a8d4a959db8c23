// RUN: ktc-opt %s | ktc-opt | FileCheck %s

// CHECK-LABEL: func.func @scalar
// CHECK-NEXT: ktc.addptr %{{.*}}, %{{.*}} : !ktc.ptr<f32>, i32
// CHECK-NEXT: ktc.addptr %{{.*}}, %{{.*}} : !ktc.ptr<f32>, i64
func.func @scalar(%p: !ktc.ptr<f32>, %i: i32, %l: i64) -> !ktc.ptr<f32> {
  %0 = ktc.addptr %p, %i : !ktc.ptr<f32>, i32
  %1 = ktc.addptr %0, %l : !ktc.ptr<f32>, i64
  return %1 : !ktc.ptr<f32>
}

// CHECK-LABEL: func.func @blocks
// CHECK: ktc.addptr %{{.*}}, %{{.*}} : tensor<256x!ktc.ptr<f16>>, tensor<256xi32>
// CHECK: ktc.addptr %{{.*}}, %{{.*}} : tensor<8x32x!ktc.ptr<f16>>, tensor<8x32xi64>
func.func @blocks(%p: !ktc.ptr<f16>, %o: tensor<8x32xi64>) {
  %ps = ktc.splat %p : !ktc.ptr<f16> -> tensor<256x!ktc.ptr<f16>>
  %r = ktc.arange 0, 256 : tensor<256xi32>
  %0 = ktc.addptr %ps, %r : tensor<256x!ktc.ptr<f16>>, tensor<256xi32>
  %p2 = ktc.splat %p : !ktc.ptr<f16> -> tensor<8x32x!ktc.ptr<f16>>
  %1 = ktc.addptr %p2, %o : tensor<8x32x!ktc.ptr<f16>>, tensor<8x32xi64>
  return
}
