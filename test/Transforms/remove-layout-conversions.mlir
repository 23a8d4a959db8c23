// RUN: ktc-opt %s -split-input-file --ktc-remove-layout-conversions | FileCheck %s
// RUN: ktc-opt %s -split-input-file --ktc-remove-layout-conversions="report=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// One warp of 32; #row holds runs of 4 along rows, #col runs of 4 along
// columns: a 32x32 block between them goes through shared memory.
#row = #ktc.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#col = #ktc.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [0, 1]}>

// A block built from splats and aranges is built again in the wanted
// layout: no conversion left.
// CHECK-LABEL: func.func @cheap_tree
// CHECK-NOT: ktc.convert_layout
// CHECK: ktc.arange 0, 32 : tensor<32xi32, #ktc.slice<{dim = 0, parent = #[[COL:.*]]}>>
// CHECK: ktc.expand_dims {{.*}} -> tensor<1x32xi32, #[[COL]]>
// CHECK: ktc.broadcast {{.*}} -> tensor<32x32xi32, #[[COL]]>
// CHECK: arith.addi {{.*}} : tensor<32x32xi32, #[[COL]]>
// CHECK-NOT: ktc.convert_layout
// CHECK: return
func.func @cheap_tree(%p: !ktc.ptr<i32>, %n: i32) {
  %c = ktc.arange 0, 32 : tensor<32xi32, #ktc.slice<{dim = 0, parent = #row}>>
  %c2 = ktc.expand_dims %c axis = 0 : tensor<32xi32, #ktc.slice<{dim = 0, parent = #row}>> -> tensor<1x32xi32, #row>
  %cb = ktc.broadcast %c2 : tensor<1x32xi32, #row> -> tensor<32x32xi32, #row>
  %nb = ktc.splat %n : i32 -> tensor<32x32xi32, #row>
  %x = arith.addi %cb, %nb : tensor<32x32xi32, #row>
  %y = ktc.convert_layout %x : tensor<32x32xi32, #row> -> tensor<32x32xi32, #col>
  %pb = ktc.splat %p : !ktc.ptr<i32> -> tensor<32x32x!ktc.ptr<i32>, #col>
  %ps = ktc.addptr %pb, %y : tensor<32x32x!ktc.ptr<i32>, #col>, tensor<32x32xi32, #col>
  ktc.store %ps, %y : tensor<32x32x!ktc.ptr<i32>, #col>
  return
}
// REPORT: remark: layout changes through shared memory: 1 before, 0 after; ktc.convert_layout: 1 before, 0 after

// -----

// A round trip: #row -> #col, an add with a splat, back to #row. The
// second conversion is hoisted above the add, where it folds with the
// first: none left.
#row = #ktc.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#col = #ktc.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [0, 1]}>
// CHECK-LABEL: func.func @round_trip
// CHECK-NOT: ktc.convert_layout
// CHECK: %[[X:.*]] = ktc.load {{.*}} : tensor<32x32x!ktc.ptr<f32>, #[[ROW:.*]]>
// CHECK: arith.addf %[[X]], {{.*}} : tensor<32x32xf32, #[[ROW]]>
// CHECK-NOT: ktc.convert_layout
// CHECK: return
func.func @round_trip(%ps: tensor<32x32x!ktc.ptr<f32>, #row>, %s: f32) {
  %x = ktc.load %ps : tensor<32x32x!ktc.ptr<f32>, #row>
  %xc = ktc.convert_layout %x : tensor<32x32xf32, #row> -> tensor<32x32xf32, #col>
  %sb = ktc.splat %s : f32 -> tensor<32x32xf32, #col>
  %y = arith.addf %xc, %sb : tensor<32x32xf32, #col>
  %yr = ktc.convert_layout %y : tensor<32x32xf32, #col> -> tensor<32x32xf32, #row>
  ktc.store %ps, %yr : tensor<32x32x!ktc.ptr<f32>, #row>
  return
}

// -----

// The conversion moves to the cheaper side: before the extf (f16 moves
// half the bytes) and before the broadcast (32 elements, not 1024).
#row = #ktc.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#col = #ktc.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [0, 1]}>
// CHECK-LABEL: func.func @cheaper_side
// CHECK: %[[H:.*]] = ktc.load {{.*}} : tensor<32x32x!ktc.ptr<f16>, #[[ROW:.*]]>
// CHECK: %[[HC:.*]] = ktc.convert_layout %[[H]] : tensor<32x32xf16, #[[ROW]]> -> tensor<32x32xf16, #[[COL:.*]]>
// CHECK: arith.extf %[[HC]] : tensor<32x32xf16, #[[COL]]> to tensor<32x32xf32, #[[COL]]>
// CHECK: %[[V:.*]] = ktc.load {{.*}} : tensor<32x1x!ktc.ptr<f32>, #[[ROW]]>
// CHECK: %[[VC:.*]] = ktc.convert_layout %[[V]] : tensor<32x1xf32, #[[ROW]]> -> tensor<32x1xf32, #[[COL]]>
// CHECK: ktc.broadcast %[[VC]] : tensor<32x1xf32, #[[COL]]> -> tensor<32x32xf32, #[[COL]]>
// CHECK-NOT: ktc.convert_layout {{.*}} tensor<32x32xf32
func.func @cheaper_side(%ph: tensor<32x32x!ktc.ptr<f16>, #row>, %pv: tensor<32x1x!ktc.ptr<f32>, #row>,
                        %out: tensor<32x32x!ktc.ptr<f32>, #col>) {
  %h = ktc.load %ph : tensor<32x32x!ktc.ptr<f16>, #row>
  %f = arith.extf %h : tensor<32x32xf16, #row> to tensor<32x32xf32, #row>
  %fc = ktc.convert_layout %f : tensor<32x32xf32, #row> -> tensor<32x32xf32, #col>
  %v = ktc.load %pv : tensor<32x1x!ktc.ptr<f32>, #row>
  %vb = ktc.broadcast %v : tensor<32x1xf32, #row> -> tensor<32x32xf32, #row>
  %vc = ktc.convert_layout %vb : tensor<32x32xf32, #row> -> tensor<32x32xf32, #col>
  %sum = arith.addf %fc, %vc : tensor<32x32xf32, #col>
  ktc.store %out, %sum : tensor<32x32x!ktc.ptr<f32>, #col>
  return
}

// -----

// Layouts with the same linear map: a slice of a 2-D layout and the 1-D
// blocked layout it equals. The load is retyped with its pointers: no
// conversion, the same accesses.
#p = #ktc.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#flat = #ktc.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @same_map
// CHECK-NOT: ktc.convert_layout
// CHECK: ktc.load {{.*}} : tensor<128x!ktc.ptr<f32>, #[[FLAT:.*]]>
// CHECK-NOT: ktc.convert_layout
// CHECK: return
func.func @same_map(%p: !ktc.ptr<f32>, %out: tensor<128x!ktc.ptr<f32>, #flat>) {
  %i = ktc.arange 0, 128 : tensor<128xi32, #ktc.slice<{dim = 1, parent = #p}>>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<128x!ktc.ptr<f32>, #ktc.slice<{dim = 1, parent = #p}>>
  %ps = ktc.addptr %pb, %i : tensor<128x!ktc.ptr<f32>, #ktc.slice<{dim = 1, parent = #p}>>, tensor<128xi32, #ktc.slice<{dim = 1, parent = #p}>>
  %x = ktc.load %ps : tensor<128x!ktc.ptr<f32>, #ktc.slice<{dim = 1, parent = #p}>>
  %y = ktc.convert_layout %x : tensor<128xf32, #ktc.slice<{dim = 1, parent = #p}>> -> tensor<128xf32, #flat>
  ktc.store %out, %y : tensor<128x!ktc.ptr<f32>, #flat>
  return
}

// -----

// Reductions of conversions: a 1-D block reduces as it is (a scalar has
// no layout); a 2-D one reduces first and converts the 32 sums.
#row = #ktc.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#col = #ktc.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [0, 1]}>
#a = #ktc.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#b = #ktc.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK-LABEL: func.func @reductions
// CHECK: %[[V:.*]] = ktc.load {{.*}} : tensor<64x!ktc.ptr<f32>, #[[A:.*]]>
// CHECK: ktc.reduce sum %[[V]] axis = 0 : tensor<64xf32, #[[A]]> -> f32
// CHECK: %[[T:.*]] = ktc.load {{.*}} : tensor<32x32x!ktc.ptr<f32>, #[[ROW:.*]]>
// CHECK: %[[R:.*]] = ktc.reduce max %[[T]] axis = 1 : tensor<32x32xf32, #[[ROW]]> -> tensor<32xf32, #ktc.slice<{dim = 1, parent = #[[ROW]]}>>
// CHECK: ktc.convert_layout %[[R]] : tensor<32xf32, #ktc.slice<{dim = 1, parent = #[[ROW]]}>> -> tensor<32xf32, #ktc.slice<{dim = 1, parent = #[[COL:.*]]}>>
func.func @reductions(%pv: tensor<64x!ktc.ptr<f32>, #a>, %pt: tensor<32x32x!ktc.ptr<f32>, #row>,
                      %out: !ktc.ptr<f32>, %outs: tensor<32x!ktc.ptr<f32>, #ktc.slice<{dim = 1, parent = #col}>>) {
  %v = ktc.load %pv : tensor<64x!ktc.ptr<f32>, #a>
  %vc = ktc.convert_layout %v : tensor<64xf32, #a> -> tensor<64xf32, #b>
  %s = ktc.reduce sum %vc axis = 0 : tensor<64xf32, #b> -> f32
  ktc.store %out, %s : !ktc.ptr<f32>
  %t = ktc.load %pt : tensor<32x32x!ktc.ptr<f32>, #row>
  %tc = ktc.convert_layout %t : tensor<32x32xf32, #row> -> tensor<32x32xf32, #col>
  %m = ktc.reduce max %tc axis = 1 : tensor<32x32xf32, #col> -> tensor<32xf32, #ktc.slice<{dim = 1, parent = #col}>>
  ktc.store %outs, %m : tensor<32x!ktc.ptr<f32>, #ktc.slice<{dim = 1, parent = #col}>>
  return
}

// -----

// A transpose's conversion stays: its source is a load read along rows,
// which must not be read along columns instead.
#row = #ktc.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#col = #ktc.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [0, 1]}>
// CHECK-LABEL: func.func @transpose_stays
// CHECK: ktc.load
// CHECK: ktc.convert_layout
// CHECK: ktc.store
func.func @transpose_stays(%pin: tensor<32x32x!ktc.ptr<f32>, #row>, %pout: tensor<32x32x!ktc.ptr<f32>, #col>) {
  %x = ktc.load %pin : tensor<32x32x!ktc.ptr<f32>, #row>
  %y = ktc.convert_layout %x : tensor<32x32xf32, #row> -> tensor<32x32xf32, #col>
  ktc.store %pout, %y : tensor<32x32x!ktc.ptr<f32>, #col>
  return
}
