// A matmul's K loop written as Triton's tutorial writes it: the pointer
// blocks of a and b are carried by the loop and advanced by BLOCK_K
// elements along K each iteration (a_ptrs += BLOCK_K * stride_ak), the
// mask compares the K offsets with what is left of K (one 64x64 tile of
// c = a x b, f16 in, f32 out; a and b row-major with strides of
// 16-divisible K and N), num_stages = 3.
func.func @matmul(%a: !ktc.ptr<f16> {ktc.divisibility = 16 : i32},
                  %b: !ktc.ptr<f16> {ktc.divisibility = 16 : i32},
                  %c: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                  %M: i32, %N: i32 {ktc.divisibility = 16 : i32},
                  %K: i32 {ktc.divisibility = 16 : i32})
    attributes {ktc.kernel, ktc.num_warps = 4 : i32, ktc.num_stages = 3 : i32} {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %ha = arith.constant dense<0.0> : tensor<64x32xf16>
  %hb = arith.constant dense<0.0> : tensor<32x64xf16>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %rows = ktc.arange 0, 64 : tensor<64xi32>
  %r2 = ktc.expand_dims %rows axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %cols = ktc.arange 0, 64 : tensor<64xi32>
  %c2 = ktc.expand_dims %cols axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %ks = ktc.arange 0, 32 : tensor<32xi32>
  %ka = ktc.expand_dims %ks axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %kr = ktc.expand_dims %ks axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  // a_ptrs = a + rows * K + ks; b_ptrs = b + ks * N + cols
  %Ka = ktc.splat %K : i32 -> tensor<64x1xi32>
  %arow = arith.muli %r2, %Ka : tensor<64x1xi32>
  %ao1 = ktc.broadcast %arow : tensor<64x1xi32> -> tensor<64x32xi32>
  %ao2 = ktc.broadcast %ka : tensor<1x32xi32> -> tensor<64x32xi32>
  %ao = arith.addi %ao1, %ao2 : tensor<64x32xi32>
  %pa = ktc.splat %a : !ktc.ptr<f16> -> tensor<64x32x!ktc.ptr<f16>>
  %qa0 = ktc.addptr %pa, %ao : tensor<64x32x!ktc.ptr<f16>>, tensor<64x32xi32>
  %Nrow = ktc.splat %N : i32 -> tensor<32x1xi32>
  %brow = arith.muli %kr, %Nrow : tensor<32x1xi32>
  %bo1 = ktc.broadcast %brow : tensor<32x1xi32> -> tensor<32x64xi32>
  %bo2 = ktc.broadcast %c2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %bo = arith.addi %bo1, %bo2 : tensor<32x64xi32>
  %pb = ktc.splat %b : !ktc.ptr<f16> -> tensor<32x64x!ktc.ptr<f16>>
  %qb0 = ktc.addptr %pb, %bo : tensor<32x64x!ktc.ptr<f16>>, tensor<32x64xi32>
  // The steps: BLOCK_K along a's rows, BLOCK_K rows of b.
  %stepa = arith.constant dense<32> : tensor<64x32xi32>
  %N32 = arith.muli %N, %c32 : i32
  %stepb = ktc.splat %N32 : i32 -> tensor<32x64xi32>
  %nk = arith.ceildivsi %K, %c32 : i32
  %acc, %qa, %qb = scf.for %k = %c0 to %nk step %c1
      iter_args(%s = %zero, %pa_k = %qa0, %pb_k = %qb0)
      -> (tensor<64x64xf32>, tensor<64x32x!ktc.ptr<f16>>, tensor<32x64x!ktc.ptr<f16>>) : i32 {
    // K - k * BLOCK_K: what is left of K.
    %done = arith.muli %k, %c32 : i32
    %left = arith.subi %K, %done : i32
    %lefta = ktc.splat %left : i32 -> tensor<1x32xi32>
    %kok = arith.cmpi slt, %ka, %lefta : tensor<1x32xi32>
    %ma = ktc.broadcast %kok : tensor<1x32xi1> -> tensor<64x32xi1>
    %x = ktc.load %pa_k, mask %ma, other %ha : tensor<64x32x!ktc.ptr<f16>>
    %leftb = ktc.splat %left : i32 -> tensor<32x1xi32>
    %krok = arith.cmpi slt, %kr, %leftb : tensor<32x1xi32>
    %mb = ktc.broadcast %krok : tensor<32x1xi1> -> tensor<32x64xi1>
    %y = ktc.load %pb_k, mask %mb, other %hb : tensor<32x64x!ktc.ptr<f16>>
    %d = ktc.dot %x, %y, %s : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    %na = ktc.addptr %pa_k, %stepa : tensor<64x32x!ktc.ptr<f16>>, tensor<64x32xi32>
    %nb = ktc.addptr %pb_k, %stepb : tensor<32x64x!ktc.ptr<f16>>, tensor<32x64xi32>
    scf.yield %d, %na, %nb : tensor<64x64xf32>, tensor<64x32x!ktc.ptr<f16>>, tensor<32x64x!ktc.ptr<f16>>
  }
  %Mb = ktc.splat %M : i32 -> tensor<64x1xi32>
  %rowok = arith.cmpi slt, %r2, %Mb : tensor<64x1xi32>
  %Nb = ktc.splat %N : i32 -> tensor<1x64xi32>
  %colok = arith.cmpi slt, %c2, %Nb : tensor<1x64xi32>
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
