// The argmax of each row of a 64x128 f32 tile (first index on ties, NaN
// the largest) and the xor of a 1-D block of 1024 i32, as the builder
// traces them: ktc.reduce_with of (value, index) pairs and of one block.
func.func @argmax_rows(%x: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}, %y: !ktc.ptr<i32> {ktc.divisibility = 16 : i32}, %out: !ktc.ptr<i32> {ktc.divisibility = 16 : i32}) attributes {ktc.kernel} {
  %r = ktc.arange 0, 64 : tensor<64xi32>
  %c = ktc.arange 0, 128 : tensor<128xi32>
  %r2 = ktc.expand_dims %r axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %c2 = ktc.expand_dims %c axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %k = arith.constant dense<128> : tensor<64x1xi32>
  %rs = arith.muli %r2, %k : tensor<64x1xi32>
  %a = ktc.broadcast %rs : tensor<64x1xi32> -> tensor<64x128xi32>
  %b = ktc.broadcast %c2 : tensor<1x128xi32> -> tensor<64x128xi32>
  %off = arith.addi %a, %b : tensor<64x128xi32>
  %px = ktc.splat %x : !ktc.ptr<f32> -> tensor<64x128x!ktc.ptr<f32>>
  %qx = ktc.addptr %px, %off : tensor<64x128x!ktc.ptr<f32>>, tensor<64x128xi32>
  %v = ktc.load %qx : tensor<64x128x!ktc.ptr<f32>>
  %m, %i = ktc.reduce_with %v, %b axis = 1 : tensor<64x128xf32>, tensor<64x128xi32> -> tensor<64xf32>, tensor<64xi32> {
  ^bb0(%va: f32, %ia: i32, %vb: f32, %ib: i32):
    %gt = arith.cmpf ogt, %va, %vb : f32
    %eq = arith.cmpf oeq, %va, %vb : f32
    %na = arith.cmpf une, %va, %va : f32
    %nb = arith.cmpf une, %vb, %vb : f32
    %true = arith.constant true
    %nnb = arith.xori %nb, %true : i1
    %nanwins = arith.andi %na, %nnb : i1
    %wins = arith.ori %gt, %nanwins : i1
    %bothnan = arith.andi %na, %nb : i1
    %ties = arith.ori %eq, %bothnan : i1
    %lt = arith.cmpi slt, %ia, %ib : i32
    %tie = arith.andi %ties, %lt : i1
    %take = arith.ori %wins, %tie : i1
    %vr = arith.select %take, %va, %vb : f32
    %ir = arith.select %take, %ia, %ib : i32
    ktc.reduce_return %vr, %ir : f32, i32
  }
  %po = ktc.splat %out : !ktc.ptr<i32> -> tensor<64x!ktc.ptr<i32>>
  %qo = ktc.addptr %po, %r : tensor<64x!ktc.ptr<i32>>, tensor<64xi32>
  ktc.store %qo, %i : tensor<64x!ktc.ptr<i32>>
  %n = ktc.arange 0, 1024 : tensor<1024xi32>
  %py = ktc.splat %y : !ktc.ptr<i32> -> tensor<1024x!ktc.ptr<i32>>
  %qy = ktc.addptr %py, %n : tensor<1024x!ktc.ptr<i32>>, tensor<1024xi32>
  %w = ktc.load %qy : tensor<1024x!ktc.ptr<i32>>
  %xs = ktc.reduce_with %w axis = 0 : tensor<1024xi32> -> i32 {
  ^bb0(%p: i32, %q: i32):
    %s = arith.xori %p, %q : i32
    ktc.reduce_return %s : i32
  }
  %c64 = arith.constant 64 : i32
  %oo = ktc.addptr %out, %c64 : !ktc.ptr<i32>, i32
  ktc.store %oo, %xs : !ktc.ptr<i32>
  return
}
