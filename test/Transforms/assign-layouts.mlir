// RUN: ktc-opt %s -split-input-file --ktc-assign-layouts="num-warps=4 wave-size=32" | FileCheck %s
// RUN: ktc-opt %s -split-input-file --ktc-assign-layouts="num-warps=8 wave-size=64" | FileCheck %s --check-prefix=CDNA

// Aligned vector-add: 4 elements (16 bytes) per thread, 32 threads, 4 warps;
// every block of the kernel, constants included, gets the layout.
// CHECK: #[[L:.*]] = #ktc.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @add
// CHECK-DAG: ktc.arange 0, 1024 : tensor<1024xi32, #[[L]]>
// CHECK-DAG: arith.constant dense<0.000000e+00> : tensor<1024xf32, #[[L]]>
// CHECK: ktc.load %{{.*}}, mask %{{.*}}, other %{{.*}} : tensor<1024x!ktc.ptr<f32>, #[[L]]>
// CHECK: ktc.store %{{.*}}, %{{.*}}, mask %{{.*}} : tensor<1024x!ktc.ptr<f32>, #[[L]]>
// A wave of 64 and 8 waves: 1024 / 512 = 2 elements per thread at most.
// CDNA: #ktc.blocked<{sizePerThread = [2], threadsPerWarp = [64], warpsPerCTA = [8], order = [0]}>
func.func @add(%x: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
               %n: i32 {ktc.divisibility = 16 : i32}) attributes {ktc.kernel} {
  %r = ktc.arange 0, 1024 : tensor<1024xi32>
  %nb = ktc.splat %n : i32 -> tensor<1024xi32>
  %m = arith.cmpi slt, %r, %nb : tensor<1024xi32>
  %xb = ktc.splat %x : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
  %xp = ktc.addptr %xb, %r : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
  %z = arith.constant dense<0.0> : tensor<1024xf32>
  %v = ktc.load %xp, mask %m, other %z : tensor<1024x!ktc.ptr<f32>>
  ktc.store %xp, %v, mask %m : tensor<1024x!ktc.ptr<f32>>
  return
}

// -----

// Masked by an arbitrary n: scalar accesses, one element per thread; the
// loop's carried block gets the layout too.
// CHECK: #[[S:.*]] = #ktc.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @loop
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<256xf32, #[[S]]>)
func.func @loop(%x: !ktc.ptr<f32>, %n: i32) attributes {ktc.kernel} {
  %c0 = arith.constant 0 : i32
  %c256 = arith.constant 256 : i32
  %zero = arith.constant dense<0.0> : tensor<256xf32>
  %acc = scf.for %i = %c0 to %n step %c256 iter_args(%a = %zero) -> (tensor<256xf32>) : i32 {
    %r = ktc.arange 0, 256 : tensor<256xi32>
    %ib = ktc.splat %i : i32 -> tensor<256xi32>
    %offs = arith.addi %ib, %r : tensor<256xi32>
    %nb = ktc.splat %n : i32 -> tensor<256xi32>
    %m = arith.cmpi slt, %offs, %nb : tensor<256xi32>
    %xb = ktc.splat %x : !ktc.ptr<f32> -> tensor<256x!ktc.ptr<f32>>
    %xp = ktc.addptr %xb, %offs : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
    %v = ktc.load %xp, mask %m : tensor<256x!ktc.ptr<f32>>
    %s = arith.addf %a, %v : tensor<256xf32>
    scf.yield %s : tensor<256xf32>
  }
  return
}

// -----

// A block smaller than the threads: one element each, replicated.
// CHECK: #ktc.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @small
// CHECK: tensor<16xi32, #
func.func @small() attributes {ktc.kernel} {
  %r = ktc.arange 0, 16 : tensor<16xi32>
  return
}

// -----

// A 64x64 f32 tile of a row-major matrix whose stride is a multiple of 4
// elements: runs of 4 columns (16 bytes) per thread, 16 lanes along a row.
// The 64x1 and 1x64 blocks have no access of their own: one column each.
// CHECK-DAG: #[[T:.*]] = #ktc.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @tile
// CHECK: ktc.load %{{.*}} : tensor<64x64x!ktc.ptr<f32>, #[[T]]>
// CDNA: #ktc.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
// CDNA-LABEL: func.func @tile
func.func @tile(%x: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                %stride: i32 {ktc.divisibility = 16 : i32}) attributes {ktc.kernel} {
  %r = ktc.arange 0, 64 : tensor<64xi32>
  %r2 = ktc.expand_dims %r axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %c2 = ktc.expand_dims %r axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %sb = ktc.splat %stride : i32 -> tensor<64x1xi32>
  %rs = arith.muli %r2, %sb : tensor<64x1xi32>
  %rb = ktc.broadcast %rs : tensor<64x1xi32> -> tensor<64x64xi32>
  %cb = ktc.broadcast %c2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %offs = arith.addi %rb, %cb : tensor<64x64xi32>
  %xb = ktc.splat %x : !ktc.ptr<f32> -> tensor<64x64x!ktc.ptr<f32>>
  %xp = ktc.addptr %xb, %offs : tensor<64x64x!ktc.ptr<f32>>, tensor<64x64xi32>
  %v = ktc.load %xp : tensor<64x64x!ktc.ptr<f32>>
  ktc.store %xp, %v : tensor<64x64x!ktc.ptr<f32>>
  return
}

// -----

// The same tile with a stride of unknown divisibility: one column per
// thread, the 32 lanes along a row.
// CHECK-DAG: #[[U:.*]] = #ktc.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @tile_unaligned
// CHECK: ktc.load %{{.*}} : tensor<64x64x!ktc.ptr<f32>, #[[U]]>
func.func @tile_unaligned(%x: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                          %stride: i32) attributes {ktc.kernel} {
  %r = ktc.arange 0, 64 : tensor<64xi32>
  %r2 = ktc.expand_dims %r axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %c2 = ktc.expand_dims %r axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %sb = ktc.splat %stride : i32 -> tensor<64x1xi32>
  %rs = arith.muli %r2, %sb : tensor<64x1xi32>
  %rb = ktc.broadcast %rs : tensor<64x1xi32> -> tensor<64x64xi32>
  %cb = ktc.broadcast %c2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %offs = arith.addi %rb, %cb : tensor<64x64xi32>
  %xb = ktc.splat %x : !ktc.ptr<f32> -> tensor<64x64x!ktc.ptr<f32>>
  %xp = ktc.addptr %xb, %offs : tensor<64x64x!ktc.ptr<f32>>, tensor<64x64xi32>
  %v = ktc.load %xp : tensor<64x64x!ktc.ptr<f32>>
  return
}
