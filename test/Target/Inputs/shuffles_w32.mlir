// Layout conversions within one warp of 32 (test/Conversion/convert-shuffles.mlir):
// @lanes moves only lane bits (one shuffle a register), @rows also moves a
// register bit into the lanes (two shuffles a register, a select keeping
// the one the thread needs); @wide moves i64 and pointers (two words).
#a = #ktc.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#b = #ktc.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [0, 1]}>
#c = #ktc.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#d = #ktc.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
func.func @lanes(%p: !ktc.ptr<f32>, %q: !ktc.ptr<f32>) attributes {ktc.kernel, ktc.num_warps = 1 : i32} {
  %r = ktc.arange 0, 4 : tensor<4xi32, #ktc.slice<{dim = 1, parent = #a}>>
  %c = ktc.arange 0, 8 : tensor<8xi32, #ktc.slice<{dim = 0, parent = #a}>>
  %r2 = ktc.expand_dims %r axis = 1 : tensor<4xi32, #ktc.slice<{dim = 1, parent = #a}>> -> tensor<4x1xi32, #a>
  %c2 = ktc.expand_dims %c axis = 0 : tensor<8xi32, #ktc.slice<{dim = 0, parent = #a}>> -> tensor<1x8xi32, #a>
  %k8 = arith.constant dense<8> : tensor<4x1xi32, #a>
  %rs = arith.muli %r2, %k8 : tensor<4x1xi32, #a>
  %rb = ktc.broadcast %rs : tensor<4x1xi32, #a> -> tensor<4x8xi32, #a>
  %cb = ktc.broadcast %c2 : tensor<1x8xi32, #a> -> tensor<4x8xi32, #a>
  %offs = arith.addi %rb, %cb : tensor<4x8xi32, #a>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<4x8x!ktc.ptr<f32>, #a>
  %ptrs = ktc.addptr %pb, %offs : tensor<4x8x!ktc.ptr<f32>, #a>, tensor<4x8xi32, #a>
  %x = ktc.load %ptrs : tensor<4x8x!ktc.ptr<f32>, #a>
  %y = ktc.convert_layout %x : tensor<4x8xf32, #a> -> tensor<4x8xf32, #b>
  %offs_b = ktc.convert_layout %offs : tensor<4x8xi32, #a> -> tensor<4x8xi32, #b>
  %qb = ktc.splat %q : !ktc.ptr<f32> -> tensor<4x8x!ktc.ptr<f32>, #b>
  %qs = ktc.addptr %qb, %offs_b : tensor<4x8x!ktc.ptr<f32>, #b>, tensor<4x8xi32, #b>
  ktc.store %qs, %y : tensor<4x8x!ktc.ptr<f32>, #b>
  return
}
func.func @rows(%p: !ktc.ptr<f32>, %q: !ktc.ptr<f32>) attributes {ktc.kernel, ktc.num_warps = 1 : i32} {
  %r = ktc.arange 0, 16 : tensor<16xi32, #ktc.slice<{dim = 1, parent = #c}>>
  %c = ktc.arange 0, 32 : tensor<32xi32, #ktc.slice<{dim = 0, parent = #c}>>
  %r2 = ktc.expand_dims %r axis = 1 : tensor<16xi32, #ktc.slice<{dim = 1, parent = #c}>> -> tensor<16x1xi32, #c>
  %c2 = ktc.expand_dims %c axis = 0 : tensor<32xi32, #ktc.slice<{dim = 0, parent = #c}>> -> tensor<1x32xi32, #c>
  %k32 = arith.constant dense<32> : tensor<16x1xi32, #c>
  %rs = arith.muli %r2, %k32 : tensor<16x1xi32, #c>
  %rb = ktc.broadcast %rs : tensor<16x1xi32, #c> -> tensor<16x32xi32, #c>
  %cb = ktc.broadcast %c2 : tensor<1x32xi32, #c> -> tensor<16x32xi32, #c>
  %offs = arith.addi %rb, %cb : tensor<16x32xi32, #c>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<16x32x!ktc.ptr<f32>, #c>
  %ptrs = ktc.addptr %pb, %offs : tensor<16x32x!ktc.ptr<f32>, #c>, tensor<16x32xi32, #c>
  %x = ktc.load %ptrs : tensor<16x32x!ktc.ptr<f32>, #c>
  %y = ktc.convert_layout %x : tensor<16x32xf32, #c> -> tensor<16x32xf32, #d>
  %offs_d = ktc.convert_layout %offs : tensor<16x32xi32, #c> -> tensor<16x32xi32, #d>
  %qb = ktc.splat %q : !ktc.ptr<f32> -> tensor<16x32x!ktc.ptr<f32>, #d>
  %qs = ktc.addptr %qb, %offs_d : tensor<16x32x!ktc.ptr<f32>, #d>, tensor<16x32xi32, #d>
  ktc.store %qs, %y : tensor<16x32x!ktc.ptr<f32>, #d>
  return
}
func.func @wide(%p: !ktc.ptr<i64>) attributes {ktc.kernel, ktc.num_warps = 1 : i32} {
  %i = ktc.arange 0, 32 : tensor<32xi32, #ktc.slice<{dim = 0, parent = #a}>>
  %pb = ktc.splat %p : !ktc.ptr<i64> -> tensor<32x!ktc.ptr<i64>, #ktc.slice<{dim = 0, parent = #a}>>
  %ps = ktc.addptr %pb, %i : tensor<32x!ktc.ptr<i64>, #ktc.slice<{dim = 0, parent = #a}>>, tensor<32xi32, #ktc.slice<{dim = 0, parent = #a}>>
  %x = ktc.load %ps : tensor<32x!ktc.ptr<i64>, #ktc.slice<{dim = 0, parent = #a}>>
  %y = ktc.convert_layout %x : tensor<32xi64, #ktc.slice<{dim = 0, parent = #a}>> -> tensor<32xi64, #ktc.slice<{dim = 0, parent = #b}>>
  %ps2 = ktc.convert_layout %ps : tensor<32x!ktc.ptr<i64>, #ktc.slice<{dim = 0, parent = #a}>> -> tensor<32x!ktc.ptr<i64>, #ktc.slice<{dim = 0, parent = #b}>>
  ktc.store %ps2, %y : tensor<32x!ktc.ptr<i64>, #ktc.slice<{dim = 0, parent = #b}>>
  return
}
