// RUN: ktc-opt %s -split-input-file --ktc-assign-layouts="num-warps=4 wave-size=32" --cse --convert-ktc-to-llvm="target=sm_90 num-warps=4" --canonicalize --cse | FileCheck %s --check-prefix=NV
// RUN: ktc-opt %s -split-input-file --ktc-assign-layouts="num-warps=4 wave-size=64" --cse --convert-ktc-to-llvm="target=gfx942 num-warps=4" --canonicalize --cse | FileCheck %s --check-prefix=AMD

// A 1024-element cumsum over 4 waves (one element a lane, the block 8
// (sm_90) or 4 (gfx942) times over: register bits above the waves'). Each
// lane bit is one exact xor shuffle of each register's total: 5 x 8
// shfl.sync.bfly on sm_90; 6 x 4 on gfx942 (DPP for xor 1, 2 and 8,
// ds_swizzle for 4 and 16, ds_bpermute for 32). The two wave bits go
// through shared memory at once: one 8-byte slot per wave and register
// (the lanes of a wave hold the same totals by then: 8 x 4 x 8 bytes on
// sm_90, 4 x 4 x 8 on gfx942), 2 barriers (after the writes, after the
// reads).
// NV: llvm.mlir.global internal @ktc_smem() {{.*}} : !llvm.array<256 x i8>
// NV-LABEL: func.func @cumsum
// NV-COUNT-40: nvvm.shfl.sync  bfly
// NV-NOT: nvvm.shfl.sync
// NV: llvm.store {{.*}} : f32, !llvm.ptr<3>
// NV: nvvm.barrier
// NV-NOT: nvvm.shfl.sync
// NV: llvm.load {{.*}} : !llvm.ptr<3> -> i32
// NV: nvvm.barrier
// NV-NOT: nvvm.barrier
// NV-NOT: nvvm.shfl.sync
// NV: return
// AMD: llvm.mlir.global internal @ktc_smem() {{.*}} : !llvm.array<128 x i8>
// AMD-LABEL: func.func @cumsum
// AMD-COUNT-3: rocdl.update.dpp
// AMD: rocdl.ds_swizzle %{{.*}}, %{{.*}} : (i32, i32) -> i32
// AMD: rocdl.update.dpp
// AMD: rocdl.ds_swizzle
// AMD: rocdl.ds_bpermute
// AMD: rocdl.barrier
// AMD: rocdl.barrier
// AMD-NOT: rocdl.barrier
// AMD: return
func.func @cumsum(%p: !ktc.ptr<f32>, %out: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 1024 : tensor<1024xi32>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
  %pp = ktc.addptr %pb, %r : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
  %x = ktc.load %pp : tensor<1024x!ktc.ptr<f32>>
  %c = ktc.scan %x axis = 0 : tensor<1024xf32> -> tensor<1024xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    ktc.scan_return %s : f32
  }
  %ob = ktc.splat %out : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
  %o = ktc.addptr %ob, %r : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
  ktc.store %o, %c : tensor<1024x!ktc.ptr<f32>>
  return
}

// -----

// A reverse max-scan along the rows of an 8x32 block: the axis lies in
// the lanes only (5 lane bits; 2 rows a thread on sm_90, 1 on gfx942), so
// no shared memory and no barrier.
// NV-LABEL: func.func @rows
// NV-COUNT-10: nvvm.shfl.sync  bfly
// NV-NOT: nvvm.shfl.sync
// NV-NOT: nvvm.barrier
// NV: return
// AMD-LABEL: func.func @rows
// AMD-COUNT-2: rocdl.update.dpp
// AMD: rocdl.ds_swizzle
// AMD: rocdl.update.dpp
// AMD: rocdl.ds_swizzle
// AMD-NOT: rocdl.ds_bpermute
// AMD-NOT: rocdl.barrier
// AMD: return
func.func @rows(%p: !ktc.ptr<i32>, %out: !ktc.ptr<i32>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 8 : tensor<8xi32>
  %c = ktc.arange 0, 32 : tensor<32xi32>
  %r1 = ktc.expand_dims %r axis = 1 : tensor<8xi32> -> tensor<8x1xi32>
  %c1 = ktc.expand_dims %c axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %k = arith.constant dense<32> : tensor<8x1xi32>
  %rk = arith.muli %r1, %k : tensor<8x1xi32>
  %rb = ktc.broadcast %rk : tensor<8x1xi32> -> tensor<8x32xi32>
  %cb = ktc.broadcast %c1 : tensor<1x32xi32> -> tensor<8x32xi32>
  %offs = arith.addi %rb, %cb : tensor<8x32xi32>
  %pb = ktc.splat %p : !ktc.ptr<i32> -> tensor<8x32x!ktc.ptr<i32>>
  %pp = ktc.addptr %pb, %offs : tensor<8x32x!ktc.ptr<i32>>, tensor<8x32xi32>
  %x = ktc.load %pp : tensor<8x32x!ktc.ptr<i32>>
  %s = ktc.scan %x axis = 1 reverse : tensor<8x32xi32> -> tensor<8x32xi32> {
  ^bb0(%a: i32, %b: i32):
    %m = arith.maxsi %a, %b : i32
    ktc.scan_return %m : i32
  }
  %ob = ktc.splat %out : !ktc.ptr<i32> -> tensor<8x32x!ktc.ptr<i32>>
  %o = ktc.addptr %ob, %offs : tensor<8x32x!ktc.ptr<i32>>, tensor<8x32xi32>
  ktc.store %o, %s : tensor<8x32x!ktc.ptr<i32>>
  return
}
