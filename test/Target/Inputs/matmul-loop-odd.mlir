// A matmul's K loop as the builder traces Triton's tutorial kernel (one
// 64x64 tile of c = a x b, f16 in, f32 out; a and b row-major with strides
// of any K and N, so that its loads go element by element; masked along K
// and at the edges), num_stages = 3.
func.func @matmul(%a: !ktc.ptr<f16> {ktc.divisibility = 16 : i32},
                  %b: !ktc.ptr<f16> {ktc.divisibility = 16 : i32},
                  %c: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                  %M: i32, %N: i32,
                  %K: i32)
    attributes {ktc.kernel, ktc.num_warps = 4 : i32, ktc.num_stages = 3 : i32} {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %ha = arith.constant dense<0.0> : tensor<64x32xf16>
  %hb = arith.constant dense<0.0> : tensor<32x64xf16>
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %rows = ktc.arange 0, 64 : tensor<64xi32>
  %r2 = ktc.expand_dims %rows axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %cols = ktc.arange 0, 64 : tensor<64xi32>
  %c2 = ktc.expand_dims %cols axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %ks = ktc.arange 0, 32 : tensor<32xi32>
  %Mb = ktc.splat %M : i32 -> tensor<64x1xi32>
  %rowok = arith.cmpi slt, %r2, %Mb : tensor<64x1xi32>
  %Nb = ktc.splat %N : i32 -> tensor<1x64xi32>
  %colok = arith.cmpi slt, %c2, %Nb : tensor<1x64xi32>
  %Ka = ktc.splat %K : i32 -> tensor<64x1xi32>
  %arow = arith.muli %r2, %Ka : tensor<64x1xi32>
  %Nrow = ktc.splat %N : i32 -> tensor<32x1xi32>
  %acc = scf.for %k = %c0 to %K step %c32 iter_args(%s = %zero) -> (tensor<64x64xf32>) : i32 {
    %kb = ktc.splat %k : i32 -> tensor<32xi32>
    %offk = arith.addi %kb, %ks : tensor<32xi32>
    // a[rows, k:k+32]
    %ka = ktc.expand_dims %offk axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
    %ao1 = ktc.broadcast %arow : tensor<64x1xi32> -> tensor<64x32xi32>
    %ao2 = ktc.broadcast %ka : tensor<1x32xi32> -> tensor<64x32xi32>
    %ao = arith.addi %ao1, %ao2 : tensor<64x32xi32>
    %pa = ktc.splat %a : !ktc.ptr<f16> -> tensor<64x32x!ktc.ptr<f16>>
    %qa = ktc.addptr %pa, %ao : tensor<64x32x!ktc.ptr<f16>>, tensor<64x32xi32>
    %Kk = ktc.splat %K : i32 -> tensor<1x32xi32>
    %kok = arith.cmpi slt, %ka, %Kk : tensor<1x32xi32>
    %ma1 = ktc.broadcast %rowok : tensor<64x1xi1> -> tensor<64x32xi1>
    %ma2 = ktc.broadcast %kok : tensor<1x32xi1> -> tensor<64x32xi1>
    %ma = arith.andi %ma1, %ma2 : tensor<64x32xi1>
    %x = ktc.load %qa, mask %ma, other %ha : tensor<64x32x!ktc.ptr<f16>>
    // b[k:k+32, cols]
    %kr = ktc.expand_dims %offk axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
    %brow = arith.muli %kr, %Nrow : tensor<32x1xi32>
    %bo1 = ktc.broadcast %brow : tensor<32x1xi32> -> tensor<32x64xi32>
    %bo2 = ktc.broadcast %c2 : tensor<1x64xi32> -> tensor<32x64xi32>
    %bo = arith.addi %bo1, %bo2 : tensor<32x64xi32>
    %pb = ktc.splat %b : !ktc.ptr<f16> -> tensor<32x64x!ktc.ptr<f16>>
    %qb = ktc.addptr %pb, %bo : tensor<32x64x!ktc.ptr<f16>>, tensor<32x64xi32>
    %Kr = ktc.splat %K : i32 -> tensor<32x1xi32>
    %krok = arith.cmpi slt, %kr, %Kr : tensor<32x1xi32>
    %mb1 = ktc.broadcast %krok : tensor<32x1xi1> -> tensor<32x64xi1>
    %mb2 = ktc.broadcast %colok : tensor<1x64xi1> -> tensor<32x64xi1>
    %mb = arith.andi %mb1, %mb2 : tensor<32x64xi1>
    %y = ktc.load %qb, mask %mb, other %hb : tensor<32x64x!ktc.ptr<f16>>
    %d = ktc.dot %x, %y, %s : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %Nc = ktc.splat %N : i32 -> tensor<64x1xi32>
  %crow = arith.muli %r2, %Nc : tensor<64x1xi32>
  %co1 = ktc.broadcast %crow : tensor<64x1xi32> -> tensor<64x64xi32>
  %co2 = ktc.broadcast %c2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %co = arith.addi %co1, %co2 : tensor<64x64xi32>
  %pc = ktc.splat %c : !ktc.ptr<f32> -> tensor<64x64x!ktc.ptr<f32>>
  %qc = ktc.addptr %pc, %co : tensor<64x64x!ktc.ptr<f32>>, tensor<64x64xi32>
  %mc1 = ktc.broadcast %rowok : tensor<64x1xi1> -> tensor<64x64xi1>
  %mc2 = ktc.broadcast %colok : tensor<1x64xi1> -> tensor<64x64xi1>
  %mc = arith.andi %mc1, %mc2 : tensor<64x64xi1>
  ktc.store %qc, %acc, mask %mc : tensor<64x64x!ktc.ptr<f32>>
  return
}
