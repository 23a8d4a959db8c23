// RUN: ktc-opt %s --ktc-assign-layouts="num-warps=4 wave-size=32" --cse --convert-ktc-to-llvm="target=sm_90 num-warps=4" --canonicalize --cse | FileCheck %s

// A 2-D reduction reads its plan off the layout (8x32 over 4 waves of 32:
// each lane a column, each wave two rows in two registers). Along axis 1
// the 32 lanes combine in xor butterflies (shfl.bfly 1..16), each row in
// its own register; along axis 0 the two registers combine in the thread,
// then the 4 waves through one partial each in shared memory (a barrier,
// 4 loads in wave order, a barrier). No combiner identity is needed: no
// -inf or 0 start (maxnum/minnum ignore NaN unless all are, -0 sums stay
// -0), as the host gives.
// CHECK: llvm.mlir.global internal @ktc_smem() {{.*}} : !llvm.array<512 x i8>
// CHECK-LABEL: func.func @rows_and_columns
// CHECK-COUNT-2: nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %[[C1:.*]], %{{.*}} : i32 -> i32
// CHECK: arith.maxnumf
// CHECK: arith.minnumf
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: nvvm.barrier
// CHECK: arith.addf
// CHECK-NOT: 0xFF800000
// CHECK-NOT: 0x7F800000
// CHECK-NOT: 0x7FC00000
func.func @rows_and_columns(%p: !ktc.ptr<f32>, %out: !ktc.ptr<f32>) attributes {ktc.kernel} {
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
