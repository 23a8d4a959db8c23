// RUN: ktc-opt %s --ktc-assign-layouts="num-warps=4 wave-size=32" --convert-ktc-to-llvm="target=sm_90 num-warps=4" | FileCheck %s

// The fold of a 2-D reduction starts from the combiner's identity: NaN for
// max/min (maxnum(NaN, x) is x, and a row of NaNs stays NaN, as the 1-D
// reduction and the host give), -0 for a float sum (-0 + x is x, signed
// zeros included).
// CHECK-LABEL: func.func @identities
// CHECK: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %[[NAN]]) -> (f32)
// CHECK: arith.maxnumf
// CHECK: %[[NAN2:.*]] = arith.constant 0x7FC00000 : f32
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %[[NAN2]]) -> (f32)
// CHECK: arith.minnumf
// CHECK: %[[NEGZERO:.*]] = arith.constant -0.000000e+00 : f32
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %[[NEGZERO]]) -> (f32)
// CHECK: arith.addf
// CHECK-NOT: 0xFF800000
// CHECK-NOT: 0x7F800000
func.func @identities(%p: !ktc.ptr<f32>, %out: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<8x32x!ktc.ptr<f32>>
  %x = ktc.load %pb : tensor<8x32x!ktc.ptr<f32>>
  %mx = ktc.reduce max %x axis = 1 : tensor<8x32xf32> -> tensor<8xf32>
  %mn = ktc.reduce min %x axis = 0 : tensor<8x32xf32> -> tensor<32xf32>
  %s = ktc.reduce sum %x axis = 1 : tensor<8x32xf32> -> tensor<8xf32>
  %r = ktc.arange 0, 8 : tensor<8xi32>
  %c = ktc.arange 0, 32 : tensor<32xi32>
  %ob = ktc.splat %out : !ktc.ptr<f32> -> tensor<8x!ktc.ptr<f32>>
  %o = ktc.addptr %ob, %r : tensor<8x!ktc.ptr<f32>>, tensor<8xi32>
  ktc.store %o, %mx : tensor<8x!ktc.ptr<f32>>
  %o2 = ktc.addptr %o, %r : tensor<8x!ktc.ptr<f32>>, tensor<8xi32>
  ktc.store %o2, %s : tensor<8x!ktc.ptr<f32>>
  %cb = ktc.splat %out : !ktc.ptr<f32> -> tensor<32x!ktc.ptr<f32>>
  %co = ktc.addptr %cb, %c : tensor<32x!ktc.ptr<f32>>, tensor<32xi32>
  ktc.store %co, %mn : tensor<32x!ktc.ptr<f32>>
  return
}
