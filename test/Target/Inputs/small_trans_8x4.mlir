// A 8 x 4 tile transposed by one warp (test/Target/*/shuffles.mlir):
// loaded along rows, stored along the columns of the 4 x 8 result; every
// element stays within the warp, so the layout change is warp shuffles.
func.func @small_trans(%in: !ktc.ptr<i32>, %out: !ktc.ptr<i32>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 8 : tensor<8xi32>
  %c = ktc.arange 0, 4 : tensor<4xi32>
  %r2 = ktc.expand_dims %r axis = 1 : tensor<8xi32> -> tensor<8x1xi32>
  %c2 = ktc.expand_dims %c axis = 0 : tensor<4xi32> -> tensor<1x4xi32>
  %k = arith.constant dense<4> : tensor<8x1xi32>
  %rs = arith.muli %r2, %k : tensor<8x1xi32>
  %rb = ktc.broadcast %rs : tensor<8x1xi32> -> tensor<8x4xi32>
  %cb = ktc.broadcast %c2 : tensor<1x4xi32> -> tensor<8x4xi32>
  %offs = arith.addi %rb, %cb : tensor<8x4xi32>
  %ib = ktc.splat %in : !ktc.ptr<i32> -> tensor<8x4x!ktc.ptr<i32>>
  %ps = ktc.addptr %ib, %offs : tensor<8x4x!ktc.ptr<i32>>, tensor<8x4xi32>
  %x = ktc.load %ps : tensor<8x4x!ktc.ptr<i32>>
  %t = ktc.trans %x perm = [1, 0] : tensor<8x4xi32> -> tensor<4x8xi32>
  %a = ktc.arange 0, 4 : tensor<4xi32>
  %b = ktc.arange 0, 8 : tensor<8xi32>
  %a2 = ktc.expand_dims %a axis = 1 : tensor<4xi32> -> tensor<4x1xi32>
  %b2 = ktc.expand_dims %b axis = 0 : tensor<8xi32> -> tensor<1x8xi32>
  %kr = arith.constant dense<8> : tensor<4x1xi32>
  %as = arith.muli %a2, %kr : tensor<4x1xi32>
  %ab = ktc.broadcast %as : tensor<4x1xi32> -> tensor<4x8xi32>
  %bb = ktc.broadcast %b2 : tensor<1x8xi32> -> tensor<4x8xi32>
  %o = arith.addi %ab, %bb : tensor<4x8xi32>
  %ob = ktc.splat %out : !ktc.ptr<i32> -> tensor<4x8x!ktc.ptr<i32>>
  %q = ktc.addptr %ob, %o : tensor<4x8x!ktc.ptr<i32>>, tensor<4x8xi32>
  ktc.store %q, %t : tensor<4x8x!ktc.ptr<i32>>
  return
}
