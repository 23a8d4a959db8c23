// 64x64x32 dots of f16 and of bf16 blocks, the f32 result rounded to the
// operands' type and stored: a block of A and one of B loaded row-major
// (dot-wmma.mlir in test/Target/AMDGPU).
func.func @dot_f16_out(%a: !ktc.ptr<f16>, %b: !ktc.ptr<f16>, %c: !ktc.ptr<f16>) attributes {ktc.kernel} {
  %rm = ktc.arange 0, 64 : tensor<64xi32>
  %rn = ktc.arange 0, 64 : tensor<64xi32>
  %rk = ktc.arange 0, 32 : tensor<32xi32>
  %m2 = ktc.expand_dims %rm axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ka = ktc.expand_dims %rk axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %kb = ktc.expand_dims %rk axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %n2 = ktc.expand_dims %rn axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %cK = arith.constant dense<32> : tensor<64x1xi32>
  %cN = arith.constant dense<64> : tensor<32x1xi32>
  %cN2 = arith.constant dense<64> : tensor<64x1xi32>
  %am = arith.muli %m2, %cK : tensor<64x1xi32>
  %amb = ktc.broadcast %am : tensor<64x1xi32> -> tensor<64x32xi32>
  %kab = ktc.broadcast %ka : tensor<1x32xi32> -> tensor<64x32xi32>
  %ao = arith.addi %amb, %kab : tensor<64x32xi32>
  %bk = arith.muli %kb, %cN : tensor<32x1xi32>
  %bkb = ktc.broadcast %bk : tensor<32x1xi32> -> tensor<32x64xi32>
  %nb = ktc.broadcast %n2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %bo = arith.addi %bkb, %nb : tensor<32x64xi32>
  %cm = arith.muli %m2, %cN2 : tensor<64x1xi32>
  %cmb = ktc.broadcast %cm : tensor<64x1xi32> -> tensor<64x64xi32>
  %nc = ktc.broadcast %n2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %co = arith.addi %cmb, %nc : tensor<64x64xi32>
  %pa = ktc.splat %a : !ktc.ptr<f16> -> tensor<64x32x!ktc.ptr<f16>>
  %qa = ktc.addptr %pa, %ao : tensor<64x32x!ktc.ptr<f16>>, tensor<64x32xi32>
  %x = ktc.load %qa : tensor<64x32x!ktc.ptr<f16>>
  %pb = ktc.splat %b : !ktc.ptr<f16> -> tensor<32x64x!ktc.ptr<f16>>
  %qb = ktc.addptr %pb, %bo : tensor<32x64x!ktc.ptr<f16>>, tensor<32x64xi32>
  %y = ktc.load %qb : tensor<32x64x!ktc.ptr<f16>>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = ktc.dot %x, %y, %z : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
  %h = arith.truncf %d : tensor<64x64xf32> to tensor<64x64xf16>
  %pc = ktc.splat %c : !ktc.ptr<f16> -> tensor<64x64x!ktc.ptr<f16>>
  %qc = ktc.addptr %pc, %co : tensor<64x64x!ktc.ptr<f16>>, tensor<64x64xi32>
  ktc.store %qc, %h : tensor<64x64x!ktc.ptr<f16>>
  return
}
func.func @dot_bf16_out(%a: !ktc.ptr<bf16>, %b: !ktc.ptr<bf16>, %c: !ktc.ptr<bf16>) attributes {ktc.kernel} {
  %rm = ktc.arange 0, 64 : tensor<64xi32>
  %rn = ktc.arange 0, 64 : tensor<64xi32>
  %rk = ktc.arange 0, 32 : tensor<32xi32>
  %m2 = ktc.expand_dims %rm axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ka = ktc.expand_dims %rk axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %kb = ktc.expand_dims %rk axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %n2 = ktc.expand_dims %rn axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %cK = arith.constant dense<32> : tensor<64x1xi32>
  %cN = arith.constant dense<64> : tensor<32x1xi32>
  %cN2 = arith.constant dense<64> : tensor<64x1xi32>
  %am = arith.muli %m2, %cK : tensor<64x1xi32>
  %amb = ktc.broadcast %am : tensor<64x1xi32> -> tensor<64x32xi32>
  %kab = ktc.broadcast %ka : tensor<1x32xi32> -> tensor<64x32xi32>
  %ao = arith.addi %amb, %kab : tensor<64x32xi32>
  %bk = arith.muli %kb, %cN : tensor<32x1xi32>
  %bkb = ktc.broadcast %bk : tensor<32x1xi32> -> tensor<32x64xi32>
  %nb = ktc.broadcast %n2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %bo = arith.addi %bkb, %nb : tensor<32x64xi32>
  %cm = arith.muli %m2, %cN2 : tensor<64x1xi32>
  %cmb = ktc.broadcast %cm : tensor<64x1xi32> -> tensor<64x64xi32>
  %nc = ktc.broadcast %n2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %co = arith.addi %cmb, %nc : tensor<64x64xi32>
  %pa = ktc.splat %a : !ktc.ptr<bf16> -> tensor<64x32x!ktc.ptr<bf16>>
  %qa = ktc.addptr %pa, %ao : tensor<64x32x!ktc.ptr<bf16>>, tensor<64x32xi32>
  %x = ktc.load %qa : tensor<64x32x!ktc.ptr<bf16>>
  %pb = ktc.splat %b : !ktc.ptr<bf16> -> tensor<32x64x!ktc.ptr<bf16>>
  %qb = ktc.addptr %pb, %bo : tensor<32x64x!ktc.ptr<bf16>>, tensor<32x64xi32>
  %y = ktc.load %qb : tensor<32x64x!ktc.ptr<bf16>>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = ktc.dot %x, %y, %z : tensor<64x32xbf16>, tensor<32x64xbf16> -> tensor<64x64xf32>
  %h = arith.truncf %d : tensor<64x64xf32> to tensor<64x64xbf16>
  %pc = ktc.splat %c : !ktc.ptr<bf16> -> tensor<64x64x!ktc.ptr<bf16>>
  %qc = ktc.addptr %pc, %co : tensor<64x64x!ktc.ptr<bf16>>, tensor<64x64xi32>
  ktc.store %qc, %h : tensor<64x64x!ktc.ptr<bf16>>
  return
}
