// RUN: ktc-opt %s --ktc-assign-layouts="num-warps=4 wave-size=32" --cse --convert-ktc-to-llvm="target=sm_90 num-warps=4" --canonicalize --cse | FileCheck %s
// RUN: ktc-opt %s --ktc-assign-layouts="num-warps=4 wave-size=64" --cse --convert-ktc-to-llvm="target=gfx942 num-warps=4" --canonicalize --cse | FileCheck %s --check-prefix=AMD

// ktc.reduce_with of a 1-D block of 256 (value, index) pairs over 4 waves:
// the combine region is cloned wherever two partials meet -- in the
// thread, after each lane butterfly (both values moved: the f32 as its
// bits, the i32 as is), and over the waves' partials, which go to shared
// memory side by side (4 f32, then 4 i32 at byte 16; one writer a wave),
// a barrier, four loads of each in wave order, a barrier.
// CHECK: llvm.mlir.global internal @ktc_smem()
// CHECK-LABEL: func.func @argmax_1d
// CHECK: arith.cmpf ogt
// CHECK-COUNT-10: nvvm.shfl.sync  bfly {{.*}} : i32 -> i32
// CHECK-NEXT: arith.cmpf ogt
// CHECK: scf.if
// CHECK-NEXT: llvm.getelementptr
// CHECK-NEXT: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: nvvm.barrier
// CHECK-NEXT: llvm.store %{{.*}}, %arg1 {{.*}} : i32, !llvm.ptr<1>
// On gfx942 (waves of 64): DPP within rows of 16, ds_bpermute beyond, each
// value of the pair moved.
// AMD-LABEL: func.func @argmax_1d
// AMD-COUNT-8: rocdl.update.dpp
// AMD-COUNT-4: rocdl.ds_bpermute
// AMD: rocdl.barrier
// AMD: arith.cmpf ogt
// AMD: rocdl.barrier
func.func @argmax_1d(%p: !ktc.ptr<f32>, %out: !ktc.ptr<i32>) attributes {ktc.kernel} {
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<256x!ktc.ptr<f32>>
  %i = ktc.arange 0, 256 : tensor<256xi32>
  %q = ktc.addptr %pb, %i : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
  %x = ktc.load %q : tensor<256x!ktc.ptr<f32>>
  %v, %k = ktc.reduce_with %x, %i axis = 0 : tensor<256xf32>, tensor<256xi32> -> f32, i32 {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %eq = arith.cmpf oeq, %a, %b : f32
    %lt = arith.cmpi slt, %ai, %bi : i32
    %tie = arith.andi %eq, %lt : i1
    %take = arith.ori %gt, %tie : i1
    %rv = arith.select %take, %a, %b : f32
    %rk = arith.select %take, %ai, %bi : i32
    ktc.reduce_return %rv, %rk : f32, i32
  }
  ktc.store %out, %k : !ktc.ptr<i32>
  return
}

// A 2-D xor along each axis of a block of 8x32 (each lane a column, each
// wave two rows): along axis 1 five xor butterflies, no shared memory;
// along axis 0 the two registers in the thread, then the 4 waves through
// shared memory. A 64-element block over 128 threads is replicated: each
// element is combined once (xor is not idempotent).
// CHECK-LABEL: func.func @xor_2d
// CHECK-COUNT-10: nvvm.shfl.sync  bfly
// CHECK: arith.xori
// CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK: nvvm.barrier
// The 64 elements: lanes, then one writer in each of the first two waves
// (tid & 0b1011111 == 0: lane 0, wave bit 1 clear), two partials read.
// CHECK-COUNT-5: nvvm.shfl.sync  bfly
// CHECK: arith.andi %{{.*}}, %c95_i32
// CHECK: scf.if
// CHECK: nvvm.barrier
// CHECK-COUNT-2: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK: nvvm.barrier
func.func @xor_2d(%p: !ktc.ptr<i32>, %out: !ktc.ptr<i32>) attributes {ktc.kernel} {
  %pb = ktc.splat %p : !ktc.ptr<i32> -> tensor<8x32x!ktc.ptr<i32>>
  %x = ktc.load %pb : tensor<8x32x!ktc.ptr<i32>>
  %r = ktc.reduce_with %x axis = 1 : tensor<8x32xi32> -> tensor<8xi32> {
  ^bb0(%a: i32, %b: i32):
    %s = arith.xori %a, %b : i32
    ktc.reduce_return %s : i32
  }
  %c = ktc.reduce_with %x axis = 0 : tensor<8x32xi32> -> tensor<32xi32> {
  ^bb0(%a: i32, %b: i32):
    %s = arith.xori %a, %b : i32
    ktc.reduce_return %s : i32
  }
  %ri = ktc.arange 0, 8 : tensor<8xi32>
  %ci = ktc.arange 0, 32 : tensor<32xi32>
  %ob = ktc.splat %out : !ktc.ptr<i32> -> tensor<8x!ktc.ptr<i32>>
  %o = ktc.addptr %ob, %ri : tensor<8x!ktc.ptr<i32>>, tensor<8xi32>
  ktc.store %o, %r : tensor<8x!ktc.ptr<i32>>
  %cb = ktc.splat %out : !ktc.ptr<i32> -> tensor<32x!ktc.ptr<i32>>
  %co = ktc.addptr %cb, %ci : tensor<32x!ktc.ptr<i32>>, tensor<32xi32>
  ktc.store %co, %c : tensor<32x!ktc.ptr<i32>>
  %sb = ktc.splat %p : !ktc.ptr<i32> -> tensor<64x!ktc.ptr<i32>>
  %si = ktc.arange 0, 64 : tensor<64xi32>
  %sq = ktc.addptr %sb, %si : tensor<64x!ktc.ptr<i32>>, tensor<64xi32>
  %s = ktc.load %sq : tensor<64x!ktc.ptr<i32>>
  %sx = ktc.reduce_with %s axis = 0 : tensor<64xi32> -> i32 {
  ^bb0(%a: i32, %b: i32):
    %t = arith.xori %a, %b : i32
    ktc.reduce_return %t : i32
  }
  ktc.store %out, %sx : !ktc.ptr<i32>
  return
}
