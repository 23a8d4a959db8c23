// RUN: ktc-opt %s --ktc-assign-layouts="num-warps=4 wave-size=32" --convert-ktc-to-llvm="target=sm_90 num-warps=4" | FileCheck %s
// RUN: ktc-opt %s --ktc-gpu-pipeline="target=gfx942 num-warps=4" | FileCheck %s --check-prefix=AMD

// 2-D blocks: expand_dims and broadcast move elements between layouts
// through shared memory (every thread writes what it holds, a barrier,
// every thread reads what it needs, a barrier); a reduction along axis 1
// goes through shared memory and folds each row in a loop. The 16x32 f32
// block takes 4 bytes an element there (2048; 8 an element until issue 22
// item 5).
// CHECK: llvm.mlir.global internal @ktc_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<2048 x i8>
// CHECK-LABEL: func.func @rows
// expand_dims of the 16 row indices: stores, a barrier, loads, a barrier.
// CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK: nvvm.barrier
// The row sums: the tile to shared memory, then a loop over 32 columns.
// CHECK: nvvm.barrier
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32)  : i32
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: arith.addf
// AMD: llvm.func @rows(
// AMD: rocdl.barrier
// AMD-NOT: ktc.
func.func @rows(%p: !ktc.ptr<f32>, %out: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 16 : tensor<16xi32>
  %c = ktc.arange 0, 32 : tensor<32xi32>
  %r2 = ktc.expand_dims %r axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %c2 = ktc.expand_dims %c axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %c32 = arith.constant dense<32> : tensor<16x1xi32>
  %rs = arith.muli %r2, %c32 : tensor<16x1xi32>
  %rb = ktc.broadcast %rs : tensor<16x1xi32> -> tensor<16x32xi32>
  %cb = ktc.broadcast %c2 : tensor<1x32xi32> -> tensor<16x32xi32>
  %offs = arith.addi %rb, %cb : tensor<16x32xi32>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<16x32x!ktc.ptr<f32>>
  %q = ktc.addptr %pb, %offs : tensor<16x32x!ktc.ptr<f32>>, tensor<16x32xi32>
  %x = ktc.load %q : tensor<16x32x!ktc.ptr<f32>>
  %s = ktc.reduce sum %x axis = 1 : tensor<16x32xf32> -> tensor<16xf32>
  %ob = ktc.splat %out : !ktc.ptr<f32> -> tensor<16x!ktc.ptr<f32>>
  %o = ktc.addptr %ob, %r : tensor<16x!ktc.ptr<f32>>, tensor<16xi32>
  ktc.store %o, %s : tensor<16x!ktc.ptr<f32>>
  return
}
