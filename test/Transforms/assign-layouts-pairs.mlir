// RUN: ktc-opt %s -split-input-file --ktc-assign-layouts="num-warps=4 wave-size=32" | FileCheck %s
// RUN: ktc-opt %s -split-input-file --ktc-assign-layouts="num-warps=2 wave-size=64" | FileCheck %s --check-prefix=CDNA

// Blocks joined into or split along a last dimension of size 2 hold each
// pair in a thread, that dimension the fastest (PairLayouts.h); the rest
// is laid out as a block of the leading shape would be.

// interleave of two aligned rows of 512: the row of 1024 stored takes runs
// of 4 (16 bytes), 2 of them a thread; its pairs the same registers, [2, 2]
// a thread. The joined rows are slices of the pairs' layout: no
// conversion anywhere.
// CHECK: #[[PAIRS:.*]] = #ktc.blocked<{sizePerThread = [2, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[ROW:.*]] = #ktc.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @interleave
// CHECK-NOT: convert_layout
// CHECK: ktc.load %{{.*}} : tensor<512x!ktc.ptr<f32>, #ktc.slice<{dim = 1, parent = #[[PAIRS]]}>>
// CHECK-NOT: convert_layout
// CHECK: ktc.reshape %{{.*}} : tensor<512x2xf32, #[[PAIRS]]> -> tensor<1024xf32, #[[ROW]]>
// CHECK-NOT: convert_layout
// CHECK: return
// Waves of 64, 2 of them: 1024 / 128 = 8 a thread, in runs of 4.
// CDNA: #[[PAIRS:.*]] = #ktc.blocked<{sizePerThread = [2, 2], threadsPerWarp = [64, 1], warpsPerCTA = [2, 1], order = [1, 0]}>
// CDNA: #[[ROW:.*]] = #ktc.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [2], order = [0]}>
// CDNA: ktc.reshape %{{.*}} : tensor<512x2xf32, #[[PAIRS]]> -> tensor<1024xf32, #[[ROW]]>
func.func @interleave(%a: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}, %b: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}, %out: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}) attributes {ktc.kernel} {
  %zero = arith.constant dense<0> : tensor<512x2xi32>
  %i = ktc.arange 0, 512 : tensor<512xi32>
  %ap = ktc.splat %a : !ktc.ptr<f32> -> tensor<512x!ktc.ptr<f32>>
  %aq = ktc.addptr %ap, %i : tensor<512x!ktc.ptr<f32>>, tensor<512xi32>
  %x = ktc.load %aq : tensor<512x!ktc.ptr<f32>>
  %bp = ktc.splat %b : !ktc.ptr<f32> -> tensor<512x!ktc.ptr<f32>>
  %bq = ktc.addptr %bp, %i : tensor<512x!ktc.ptr<f32>>, tensor<512xi32>
  %y = ktc.load %bq : tensor<512x!ktc.ptr<f32>>
  %ex = ktc.expand_dims %x axis = 1 : tensor<512xf32> -> tensor<512x1xf32>
  %bx = ktc.broadcast %ex : tensor<512x1xf32> -> tensor<512x2xf32>
  %ey = ktc.expand_dims %y axis = 1 : tensor<512xf32> -> tensor<512x1xf32>
  %by = ktc.broadcast %ey : tensor<512x1xf32> -> tensor<512x2xf32>
  %e = ktc.arange 0, 2 : tensor<2xi32>
  %e1 = ktc.expand_dims %e axis = 0 : tensor<2xi32> -> tensor<1x2xi32>
  %idx = ktc.broadcast %e1 : tensor<1x2xi32> -> tensor<512x2xi32>
  %first = arith.cmpi eq, %idx, %zero : tensor<512x2xi32>
  %j = arith.select %first, %bx, %by : tensor<512x2xi1>, tensor<512x2xf32>
  %row = ktc.reshape %j : tensor<512x2xf32> -> tensor<1024xf32>
  %k = ktc.arange 0, 1024 : tensor<1024xi32>
  %op = ktc.splat %out : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
  %oq = ktc.addptr %op, %k : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
  ktc.store %oq, %row : tensor<1024x!ktc.ptr<f32>>
  return
}

// -----

// split of a [16, 32, 2] tile of pairs loaded through a pointer of unknown
// alignment (scalar loads): still each pair in a thread, the [16, 32]
// halves laid out as any [16, 32] block (here: no access of that shape).
// CHECK: #[[T:.*]] = #ktc.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK-LABEL: func.func @split_tile
// CHECK-NOT: convert_layout
// CHECK: ktc.load %{{.*}} : tensor<16x32x2x!ktc.ptr<f32>, #[[T]]>
// CHECK: ktc.reduce_with %{{.*}} axis = 2 : {{.*}} -> tensor<16x32xf32, #ktc.slice<{dim = 2, parent = #[[T]]}>>
// CHECK-NOT: convert_layout
// CHECK: return
// CDNA: #[[T:.*]] = #ktc.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [2, 32, 1], warpsPerCTA = [2, 1, 1], order = [2, 1, 0]}>
// CDNA-LABEL: func.func @split_tile
// CDNA: ktc.load %{{.*}} : tensor<16x32x2x!ktc.ptr<f32>, #[[T]]>
func.func @split_tile(%in: !ktc.ptr<f32>, %out: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %c64 = arith.constant dense<64> : tensor<16x1x1xi32>
  %c2 = arith.constant dense<2> : tensor<1x32x1xi32>
  %r = ktc.arange 0, 16 : tensor<16xi32>
  %r1 = ktc.expand_dims %r axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %r2 = ktc.expand_dims %r1 axis = 2 : tensor<16x1xi32> -> tensor<16x1x1xi32>
  %r3 = arith.muli %r2, %c64 : tensor<16x1x1xi32>
  %c = ktc.arange 0, 32 : tensor<32xi32>
  %c1 = ktc.expand_dims %c axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %cc = ktc.expand_dims %c1 axis = 2 : tensor<1x32xi32> -> tensor<1x32x1xi32>
  %c3 = arith.muli %cc, %c2 : tensor<1x32x1xi32>
  %e = ktc.arange 0, 2 : tensor<2xi32>
  %e1 = ktc.expand_dims %e axis = 0 : tensor<2xi32> -> tensor<1x2xi32>
  %e2 = ktc.expand_dims %e1 axis = 0 : tensor<1x2xi32> -> tensor<1x1x2xi32>
  %rb = ktc.broadcast %r3 : tensor<16x1x1xi32> -> tensor<16x32x2xi32>
  %cb = ktc.broadcast %c3 : tensor<1x32x1xi32> -> tensor<16x32x2xi32>
  %eb = ktc.broadcast %e2 : tensor<1x1x2xi32> -> tensor<16x32x2xi32>
  %o1 = arith.addi %rb, %cb : tensor<16x32x2xi32>
  %off = arith.addi %o1, %eb : tensor<16x32x2xi32>
  %ip = ktc.splat %in : !ktc.ptr<f32> -> tensor<16x32x2x!ktc.ptr<f32>>
  %iq = ktc.addptr %ip, %off : tensor<16x32x2x!ktc.ptr<f32>>, tensor<16x32x2xi32>
  %t = ktc.load %iq : tensor<16x32x2x!ktc.ptr<f32>>
  %hi:2 = ktc.reduce_with %t, %eb axis = 2 : tensor<16x32x2xf32>, tensor<16x32x2xi32> -> tensor<16x32xf32>, tensor<16x32xi32> {
  ^bb0(%p: f32, %pi: i32, %q: f32, %qi: i32):
    %gt = arith.cmpi sgt, %pi, %qi : i32
    %v = arith.select %gt, %p, %q : f32
    %w = arith.select %gt, %pi, %qi : i32
    ktc.reduce_return %v, %w : f32, i32
  }
  %s = ktc.reduce sum %hi#0 axis = 1 : tensor<16x32xf32> -> tensor<16xf32>
  %op = ktc.splat %out : !ktc.ptr<f32> -> tensor<16x!ktc.ptr<f32>>
  %oq = ktc.addptr %op, %r : tensor<16x!ktc.ptr<f32>>, tensor<16xi32>
  ktc.store %oq, %s : tensor<16x!ktc.ptr<f32>>
  return
}
