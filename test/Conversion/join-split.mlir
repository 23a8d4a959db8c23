// join then split (what JoinSplit.cpp writes for join(a, b) and split) in a
// layout that keeps each pair in one thread (sizePerThread [1, 2]): the
// expand_dims and broadcasts are register copies, the index compare is a
// constant per register, the pick folds: split(join(a, b))'s second half is
// b's own register, nothing moves between threads, on each target.
// RUN: ktc-opt %s --convert-ktc-to-llvm="target=sm_90 num-warps=4" --canonicalize | FileCheck %s
// RUN: ktc-opt %s --convert-ktc-to-llvm="target=gfx1100 num-warps=4" --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @join_split(
// CHECK-SAME: %{{.*}}: f32, %[[B:.*]]: f32) -> f32
// CHECK-NEXT: return %[[B]] : f32

#pair = #ktc.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#row = #ktc.slice<{dim = 1, parent = #pair}>
#col = #ktc.slice<{dim = 0, parent = #pair}>
func.func @join_split(%a: tensor<128xf32, #row>, %b: tensor<128xf32, #row>) -> tensor<128xf32, #row> {
  %ea = ktc.expand_dims %a axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #pair>
  %eb = ktc.expand_dims %b axis = 1 : tensor<128xf32, #row> -> tensor<128x1xf32, #pair>
  %x = ktc.broadcast %ea : tensor<128x1xf32, #pair> -> tensor<128x2xf32, #pair>
  %y = ktc.broadcast %eb : tensor<128x1xf32, #pair> -> tensor<128x2xf32, #pair>
  %i = ktc.arange 0, 2 : tensor<2xi32, #col>
  %i1 = ktc.expand_dims %i axis = 0 : tensor<2xi32, #col> -> tensor<1x2xi32, #pair>
  %idx = ktc.broadcast %i1 : tensor<1x2xi32, #pair> -> tensor<128x2xi32, #pair>
  %zero = arith.constant dense<0> : tensor<128x2xi32, #pair>
  %first = arith.cmpi eq, %idx, %zero : tensor<128x2xi32, #pair>
  %j = arith.select %first, %x, %y : tensor<128x2xi1, #pair>, tensor<128x2xf32, #pair>
  %r:2 = ktc.reduce_with %j, %idx axis = 1 : tensor<128x2xf32, #pair>, tensor<128x2xi32, #pair> -> tensor<128xf32, #row>, tensor<128xi32, #row> {
  ^bb0(%p: f32, %pi: i32, %q: f32, %qi: i32):
    %lt = arith.cmpi sgt, %pi, %qi : i32
    %v = arith.select %lt, %p, %q : f32
    %w = arith.select %lt, %pi, %qi : i32
    ktc.reduce_return %v, %w : f32, i32
  }
  return %r#0 : tensor<128xf32, #row>
}
