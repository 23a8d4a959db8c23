// join, split and interleave (as JoinSplit.cpp writes them) through the
// whole GPU pipeline: the default layouts keep each pair in one thread
// (PairLayouts.h), so none converts a layout, and no kernel needs shared
// memory (LDS), a shuffle (shfl, DPP, bpermute) or a barrier. A pair across
// two lanes (the layouts before) moved interleave's and split's pairs
// through LDS or shuffles, and made join's lanes each load both operands and
// select.
// RUN: ktc-opt %s -split-input-file --ktc-gpu-pipeline="target=gfx942 num-warps=4" -o %t.gfx942.4
// RUN: FileCheck %s < %t.gfx942.4
// RUN: FileCheck %s --check-prefix=FREE < %t.gfx942.4
// RUN: ktc-opt %s -split-input-file --ktc-gpu-pipeline="target=gfx1100 num-warps=4" -o %t.gfx1100.4
// RUN: FileCheck %s < %t.gfx1100.4
// RUN: FileCheck %s --check-prefix=FREE < %t.gfx1100.4
// RUN: ktc-opt %s -split-input-file --ktc-gpu-pipeline="target=sm_90 num-warps=4" -o %t.sm_90.4
// RUN: FileCheck %s < %t.sm_90.4
// RUN: FileCheck %s --check-prefix=FREE < %t.sm_90.4
// RUN: ktc-opt %s -split-input-file --ktc-gpu-pipeline="target=sm_90 num-warps=1" -o %t.sm_90.1
// RUN: FileCheck %s < %t.sm_90.1
// RUN: FileCheck %s --check-prefix=FREE < %t.sm_90.1

// FREE-NOT: addr_space = 3
// FREE-NOT: ptr<3>
// FREE-NOT: shfl
// FREE-NOT: dpp
// FREE-NOT: bpermute
// FREE-NOT: barrier

// join(x, y) of two loaded rows, stored as [256, 2] pairs (out[2i + e]);
// `out` of unknown alignment: the pairs are stored a float at a time.
func.func @join_store(%a: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}, %b: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}, %out: !ktc.ptr<f32>, %n: i32) attributes {ktc.kernel} {
  %zero = arith.constant dense<0> : tensor<256x2xi32>
  %two = arith.constant dense<2> : tensor<256xi32>
  %c256 = arith.constant 256 : i32
  %r = ktc.arange 0, 256 : tensor<256xi32>
  %pid = ktc.program_id 0 : i32
  %base = arith.muli %pid, %c256 : i32
  %bb = ktc.splat %base : i32 -> tensor<256xi32>
  %i = arith.addi %bb, %r : tensor<256xi32>
  %nb = ktc.splat %n : i32 -> tensor<256xi32>
  %m = arith.cmpi slt, %i, %nb : tensor<256xi32>
  %ap = ktc.splat %a : !ktc.ptr<f32> -> tensor<256x!ktc.ptr<f32>>
  %aq = ktc.addptr %ap, %i : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
  %x = ktc.load %aq, mask %m : tensor<256x!ktc.ptr<f32>>
  %bp = ktc.splat %b : !ktc.ptr<f32> -> tensor<256x!ktc.ptr<f32>>
  %bq = ktc.addptr %bp, %i : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
  %y = ktc.load %bq, mask %m : tensor<256x!ktc.ptr<f32>>
  %ex = ktc.expand_dims %x axis = 1 : tensor<256xf32> -> tensor<256x1xf32>
  %bx = ktc.broadcast %ex : tensor<256x1xf32> -> tensor<256x2xf32>
  %ey = ktc.expand_dims %y axis = 1 : tensor<256xf32> -> tensor<256x1xf32>
  %by = ktc.broadcast %ey : tensor<256x1xf32> -> tensor<256x2xf32>
  %e = ktc.arange 0, 2 : tensor<2xi32>
  %e1 = ktc.expand_dims %e axis = 0 : tensor<2xi32> -> tensor<1x2xi32>
  %idx = ktc.broadcast %e1 : tensor<1x2xi32> -> tensor<256x2xi32>
  %first = arith.cmpi eq, %idx, %zero : tensor<256x2xi32>
  %j = arith.select %first, %bx, %by : tensor<256x2xi1>, tensor<256x2xf32>
  %i2 = arith.muli %i, %two : tensor<256xi32>
  %i3 = ktc.expand_dims %i2 axis = 1 : tensor<256xi32> -> tensor<256x1xi32>
  %i4 = ktc.broadcast %i3 : tensor<256x1xi32> -> tensor<256x2xi32>
  %off = arith.addi %i4, %idx : tensor<256x2xi32>
  %m1 = ktc.expand_dims %m axis = 1 : tensor<256xi1> -> tensor<256x1xi1>
  %m2 = ktc.broadcast %m1 : tensor<256x1xi1> -> tensor<256x2xi1>
  %op = ktc.splat %out : !ktc.ptr<f32> -> tensor<256x2x!ktc.ptr<f32>>
  %oq = ktc.addptr %op, %off : tensor<256x2x!ktc.ptr<f32>>, tensor<256x2xi32>
  ktc.store %oq, %j, mask %m2 : tensor<256x2x!ktc.ptr<f32>>
  return
}

// CHECK-LABEL: llvm.func @join_store(
// Each thread loads its own x and y (no copy in the partner lane) and stores
// them as they are: no select of x or y by lane.
// CHECK-NOT: llvm.select
// CHECK: llvm.return

// -----

// split of a loaded [128, 2] tile of pairs (in[2i + e]) into its halves.
func.func @split_tile(%in: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}, %a: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}, %b: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}) attributes {ktc.kernel} {
  %two = arith.constant dense<2> : tensor<128xi32>
  %i = ktc.arange 0, 128 : tensor<128xi32>
  %i2 = arith.muli %i, %two : tensor<128xi32>
  %i3 = ktc.expand_dims %i2 axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %i4 = ktc.broadcast %i3 : tensor<128x1xi32> -> tensor<128x2xi32>
  %e = ktc.arange 0, 2 : tensor<2xi32>
  %e1 = ktc.expand_dims %e axis = 0 : tensor<2xi32> -> tensor<1x2xi32>
  %idx = ktc.broadcast %e1 : tensor<1x2xi32> -> tensor<128x2xi32>
  %off = arith.addi %i4, %idx : tensor<128x2xi32>
  %ip = ktc.splat %in : !ktc.ptr<f32> -> tensor<128x2x!ktc.ptr<f32>>
  %iq = ktc.addptr %ip, %off : tensor<128x2x!ktc.ptr<f32>>, tensor<128x2xi32>
  %t = ktc.load %iq : tensor<128x2x!ktc.ptr<f32>>
  %lo:2 = ktc.reduce_with %t, %idx axis = 1 : tensor<128x2xf32>, tensor<128x2xi32> -> tensor<128xf32>, tensor<128xi32> {
  ^bb0(%p: f32, %pi: i32, %q: f32, %qi: i32):
    %lt = arith.cmpi slt, %pi, %qi : i32
    %v = arith.select %lt, %p, %q : f32
    %w = arith.select %lt, %pi, %qi : i32
    ktc.reduce_return %v, %w : f32, i32
  }
  %hi:2 = ktc.reduce_with %t, %idx axis = 1 : tensor<128x2xf32>, tensor<128x2xi32> -> tensor<128xf32>, tensor<128xi32> {
  ^bb0(%p: f32, %pi: i32, %q: f32, %qi: i32):
    %gt = arith.cmpi sgt, %pi, %qi : i32
    %v = arith.select %gt, %p, %q : f32
    %w = arith.select %gt, %pi, %qi : i32
    ktc.reduce_return %v, %w : f32, i32
  }
  %ap = ktc.splat %a : !ktc.ptr<f32> -> tensor<128x!ktc.ptr<f32>>
  %aq = ktc.addptr %ap, %i : tensor<128x!ktc.ptr<f32>>, tensor<128xi32>
  ktc.store %aq, %lo#0 : tensor<128x!ktc.ptr<f32>>
  %bp = ktc.splat %b : !ktc.ptr<f32> -> tensor<128x!ktc.ptr<f32>>
  %bq = ktc.addptr %bp, %i : tensor<128x!ktc.ptr<f32>>, tensor<128xi32>
  ktc.store %bq, %hi#0 : tensor<128x!ktc.ptr<f32>>
  return
}

// CHECK-LABEL: llvm.func @split_tile(
// Each pair in one 8-byte load; its halves are the vector's elements.
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> vector<2xf32>
// CHECK-NOT: llvm.select
// CHECK: llvm.return

// -----

// split(reshape(load(in + k), [128, 2])) of i64 pairs, masked.
func.func @split_row(%in: !ktc.ptr<i64> {ktc.divisibility = 16 : i32}, %a: !ktc.ptr<i64> {ktc.divisibility = 16 : i32}, %b: !ktc.ptr<i64> {ktc.divisibility = 16 : i32}, %n: i32) attributes {ktc.kernel} {
  %c2 = arith.constant 2 : i32
  %k = ktc.arange 0, 256 : tensor<256xi32>
  %n2 = arith.muli %n, %c2 : i32
  %n2b = ktc.splat %n2 : i32 -> tensor<256xi32>
  %mk = arith.cmpi slt, %k, %n2b : tensor<256xi32>
  %ip = ktc.splat %in : !ktc.ptr<i64> -> tensor<256x!ktc.ptr<i64>>
  %iq = ktc.addptr %ip, %k : tensor<256x!ktc.ptr<i64>>, tensor<256xi32>
  %row = ktc.load %iq, mask %mk : tensor<256x!ktc.ptr<i64>>
  %t = ktc.reshape %row : tensor<256xi64> -> tensor<128x2xi64>
  %e = ktc.arange 0, 2 : tensor<2xi32>
  %e1 = ktc.expand_dims %e axis = 0 : tensor<2xi32> -> tensor<1x2xi32>
  %idx = ktc.broadcast %e1 : tensor<1x2xi32> -> tensor<128x2xi32>
  %lo:2 = ktc.reduce_with %t, %idx axis = 1 : tensor<128x2xi64>, tensor<128x2xi32> -> tensor<128xi64>, tensor<128xi32> {
  ^bb0(%p: i64, %pi: i32, %q: i64, %qi: i32):
    %lt = arith.cmpi slt, %pi, %qi : i32
    %v = arith.select %lt, %p, %q : i64
    %w = arith.select %lt, %pi, %qi : i32
    ktc.reduce_return %v, %w : i64, i32
  }
  %hi:2 = ktc.reduce_with %t, %idx axis = 1 : tensor<128x2xi64>, tensor<128x2xi32> -> tensor<128xi64>, tensor<128xi32> {
  ^bb0(%p: i64, %pi: i32, %q: i64, %qi: i32):
    %gt = arith.cmpi sgt, %pi, %qi : i32
    %v = arith.select %gt, %p, %q : i64
    %w = arith.select %gt, %pi, %qi : i32
    ktc.reduce_return %v, %w : i64, i32
  }
  %i = ktc.arange 0, 128 : tensor<128xi32>
  %nb = ktc.splat %n : i32 -> tensor<128xi32>
  %m = arith.cmpi slt, %i, %nb : tensor<128xi32>
  %ap = ktc.splat %a : !ktc.ptr<i64> -> tensor<128x!ktc.ptr<i64>>
  %aq = ktc.addptr %ap, %i : tensor<128x!ktc.ptr<i64>>, tensor<128xi32>
  ktc.store %aq, %lo#0, mask %m : tensor<128x!ktc.ptr<i64>>
  %bp = ktc.splat %b : !ktc.ptr<i64> -> tensor<128x!ktc.ptr<i64>>
  %bq = ktc.addptr %bp, %i : tensor<128x!ktc.ptr<i64>>, tensor<128xi32>
  ktc.store %bq, %hi#0, mask %m : tensor<128x!ktc.ptr<i64>>
  return
}

// CHECK-LABEL: llvm.func @split_row(
// CHECK: {{llvm.load %.* : !llvm.ptr<1> -> vector<2xi64>|ld.global.v2.b64|ld.global.v4.b32}}
// CHECK-NOT: llvm.select
// CHECK: llvm.return

// -----

// interleave(x, y): join, then reshape [256, 2] -> [512], stored masked.
func.func @interleave(%a: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}, %b: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}, %out: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}, %n: i32) attributes {ktc.kernel} {
  %zero = arith.constant dense<0> : tensor<256x2xi32>
  %c2 = arith.constant 2 : i32
  %i = ktc.arange 0, 256 : tensor<256xi32>
  %nb = ktc.splat %n : i32 -> tensor<256xi32>
  %m = arith.cmpi slt, %i, %nb : tensor<256xi32>
  %ap = ktc.splat %a : !ktc.ptr<f32> -> tensor<256x!ktc.ptr<f32>>
  %aq = ktc.addptr %ap, %i : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
  %x = ktc.load %aq, mask %m : tensor<256x!ktc.ptr<f32>>
  %bp = ktc.splat %b : !ktc.ptr<f32> -> tensor<256x!ktc.ptr<f32>>
  %bq = ktc.addptr %bp, %i : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
  %y = ktc.load %bq, mask %m : tensor<256x!ktc.ptr<f32>>
  %ex = ktc.expand_dims %x axis = 1 : tensor<256xf32> -> tensor<256x1xf32>
  %bx = ktc.broadcast %ex : tensor<256x1xf32> -> tensor<256x2xf32>
  %ey = ktc.expand_dims %y axis = 1 : tensor<256xf32> -> tensor<256x1xf32>
  %by = ktc.broadcast %ey : tensor<256x1xf32> -> tensor<256x2xf32>
  %e = ktc.arange 0, 2 : tensor<2xi32>
  %e1 = ktc.expand_dims %e axis = 0 : tensor<2xi32> -> tensor<1x2xi32>
  %idx = ktc.broadcast %e1 : tensor<1x2xi32> -> tensor<256x2xi32>
  %first = arith.cmpi eq, %idx, %zero : tensor<256x2xi32>
  %j = arith.select %first, %bx, %by : tensor<256x2xi1>, tensor<256x2xf32>
  %row = ktc.reshape %j : tensor<256x2xf32> -> tensor<512xf32>
  %k = ktc.arange 0, 512 : tensor<512xi32>
  %n2 = arith.muli %n, %c2 : i32
  %n2b = ktc.splat %n2 : i32 -> tensor<512xi32>
  %mk = arith.cmpi slt, %k, %n2b : tensor<512xi32>
  %op = ktc.splat %out : !ktc.ptr<f32> -> tensor<512x!ktc.ptr<f32>>
  %oq = ktc.addptr %op, %k : tensor<512x!ktc.ptr<f32>>, tensor<512xi32>
  ktc.store %oq, %row, mask %mk : tensor<512x!ktc.ptr<f32>>
  return
}

// CHECK-LABEL: llvm.func @interleave(
// x's and y's elements side by side in one 8-byte store.
// CHECK-NOT: llvm.select
// CHECK: {{llvm.store %.* : vector<2xf32>, !llvm.ptr<1>|st.global.v2.b32}}
// CHECK: llvm.return

// -----

// interleave of two [16, 64] tiles along their rows: join to [16, 64, 2],
// reshaped to [16, 128] and stored (row stride 128).
func.func @interleave_rows(%a: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}, %b: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}, %out: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}) attributes {ktc.kernel} {
  %zero = arith.constant dense<0> : tensor<16x64x2xi32>
  %c64 = arith.constant dense<64> : tensor<16x1xi32>
  %c128 = arith.constant dense<128> : tensor<16x1xi32>
  %r = ktc.arange 0, 16 : tensor<16xi32>
  %r1 = ktc.expand_dims %r axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %ri = arith.muli %r1, %c64 : tensor<16x1xi32>
  %ro = arith.muli %r1, %c128 : tensor<16x1xi32>
  %c = ktc.arange 0, 64 : tensor<64xi32>
  %c1 = ktc.expand_dims %c axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %rib = ktc.broadcast %ri : tensor<16x1xi32> -> tensor<16x64xi32>
  %cb = ktc.broadcast %c1 : tensor<1x64xi32> -> tensor<16x64xi32>
  %in = arith.addi %rib, %cb : tensor<16x64xi32>
  %ap = ktc.splat %a : !ktc.ptr<f32> -> tensor<16x64x!ktc.ptr<f32>>
  %aq = ktc.addptr %ap, %in : tensor<16x64x!ktc.ptr<f32>>, tensor<16x64xi32>
  %x = ktc.load %aq : tensor<16x64x!ktc.ptr<f32>>
  %bp = ktc.splat %b : !ktc.ptr<f32> -> tensor<16x64x!ktc.ptr<f32>>
  %bq = ktc.addptr %bp, %in : tensor<16x64x!ktc.ptr<f32>>, tensor<16x64xi32>
  %y = ktc.load %bq : tensor<16x64x!ktc.ptr<f32>>
  %ex = ktc.expand_dims %x axis = 2 : tensor<16x64xf32> -> tensor<16x64x1xf32>
  %bx = ktc.broadcast %ex : tensor<16x64x1xf32> -> tensor<16x64x2xf32>
  %ey = ktc.expand_dims %y axis = 2 : tensor<16x64xf32> -> tensor<16x64x1xf32>
  %by = ktc.broadcast %ey : tensor<16x64x1xf32> -> tensor<16x64x2xf32>
  %e = ktc.arange 0, 2 : tensor<2xi32>
  %e1 = ktc.expand_dims %e axis = 0 : tensor<2xi32> -> tensor<1x2xi32>
  %e2 = ktc.expand_dims %e1 axis = 0 : tensor<1x2xi32> -> tensor<1x1x2xi32>
  %idx = ktc.broadcast %e2 : tensor<1x1x2xi32> -> tensor<16x64x2xi32>
  %first = arith.cmpi eq, %idx, %zero : tensor<16x64x2xi32>
  %j = arith.select %first, %bx, %by : tensor<16x64x2xi1>, tensor<16x64x2xf32>
  %row = ktc.reshape %j : tensor<16x64x2xf32> -> tensor<16x128xf32>
  %k = ktc.arange 0, 128 : tensor<128xi32>
  %k1 = ktc.expand_dims %k axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %rob = ktc.broadcast %ro : tensor<16x1xi32> -> tensor<16x128xi32>
  %kb = ktc.broadcast %k1 : tensor<1x128xi32> -> tensor<16x128xi32>
  %off = arith.addi %rob, %kb : tensor<16x128xi32>
  %op = ktc.splat %out : !ktc.ptr<f32> -> tensor<16x128x!ktc.ptr<f32>>
  %oq = ktc.addptr %op, %off : tensor<16x128x!ktc.ptr<f32>>, tensor<16x128xi32>
  ktc.store %oq, %row : tensor<16x128x!ktc.ptr<f32>>
  return
}

// CHECK-LABEL: llvm.func @interleave_rows(
// Each thread loads two neighbours of x and of y (8 bytes each) and stores
// them interleaved as one 16-byte vector.
// CHECK-NOT: llvm.select
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> vector<2xf32>
// CHECK: llvm.store %{{.*}} : vector<4xf32>, !llvm.ptr<1>
// CHECK: llvm.return
