// A 64x64x32 f16, a 32x64x16 bf16 and 16x32x8 f32 and tf32 dots: a
// block of A and one of B loaded row-major, multiplied, stored (dot.mlir in
// test/Target/AMDGPU and NVPTX).
func.func @dot_f16(%a: !ktc.ptr<f16>, %b: !ktc.ptr<f16>, %c: !ktc.ptr<f32>) attributes {ktc.kernel} {
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
  %pc = ktc.splat %c : !ktc.ptr<f32> -> tensor<64x64x!ktc.ptr<f32>>
  %qc = ktc.addptr %pc, %co : tensor<64x64x!ktc.ptr<f32>>, tensor<64x64xi32>
  ktc.store %qc, %d : tensor<64x64x!ktc.ptr<f32>>
  return
}
func.func @dot_bf16(%a: !ktc.ptr<bf16>, %b: !ktc.ptr<bf16>, %c: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %rm = ktc.arange 0, 32 : tensor<32xi32>
  %rn = ktc.arange 0, 64 : tensor<64xi32>
  %rk = ktc.arange 0, 16 : tensor<16xi32>
  %m2 = ktc.expand_dims %rm axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %ka = ktc.expand_dims %rk axis = 0 : tensor<16xi32> -> tensor<1x16xi32>
  %kb = ktc.expand_dims %rk axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %n2 = ktc.expand_dims %rn axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %cK = arith.constant dense<16> : tensor<32x1xi32>
  %cN = arith.constant dense<64> : tensor<16x1xi32>
  %cN2 = arith.constant dense<64> : tensor<32x1xi32>
  %am = arith.muli %m2, %cK : tensor<32x1xi32>
  %amb = ktc.broadcast %am : tensor<32x1xi32> -> tensor<32x16xi32>
  %kab = ktc.broadcast %ka : tensor<1x16xi32> -> tensor<32x16xi32>
  %ao = arith.addi %amb, %kab : tensor<32x16xi32>
  %bk = arith.muli %kb, %cN : tensor<16x1xi32>
  %bkb = ktc.broadcast %bk : tensor<16x1xi32> -> tensor<16x64xi32>
  %nb = ktc.broadcast %n2 : tensor<1x64xi32> -> tensor<16x64xi32>
  %bo = arith.addi %bkb, %nb : tensor<16x64xi32>
  %cm = arith.muli %m2, %cN2 : tensor<32x1xi32>
  %cmb = ktc.broadcast %cm : tensor<32x1xi32> -> tensor<32x64xi32>
  %nc = ktc.broadcast %n2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %co = arith.addi %cmb, %nc : tensor<32x64xi32>
  %pa = ktc.splat %a : !ktc.ptr<bf16> -> tensor<32x16x!ktc.ptr<bf16>>
  %qa = ktc.addptr %pa, %ao : tensor<32x16x!ktc.ptr<bf16>>, tensor<32x16xi32>
  %x = ktc.load %qa : tensor<32x16x!ktc.ptr<bf16>>
  %pb = ktc.splat %b : !ktc.ptr<bf16> -> tensor<16x64x!ktc.ptr<bf16>>
  %qb = ktc.addptr %pb, %bo : tensor<16x64x!ktc.ptr<bf16>>, tensor<16x64xi32>
  %y = ktc.load %qb : tensor<16x64x!ktc.ptr<bf16>>
  %z = arith.constant dense<0.0> : tensor<32x64xf32>
  %d = ktc.dot %x, %y, %z : tensor<32x16xbf16>, tensor<16x64xbf16> -> tensor<32x64xf32>
  %pc = ktc.splat %c : !ktc.ptr<f32> -> tensor<32x64x!ktc.ptr<f32>>
  %qc = ktc.addptr %pc, %co : tensor<32x64x!ktc.ptr<f32>>, tensor<32x64xi32>
  ktc.store %qc, %d : tensor<32x64x!ktc.ptr<f32>>
  return
}
func.func @dot_f32(%a: !ktc.ptr<f32>, %b: !ktc.ptr<f32>, %c: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %rm = ktc.arange 0, 16 : tensor<16xi32>
  %rn = ktc.arange 0, 32 : tensor<32xi32>
  %rk = ktc.arange 0, 8 : tensor<8xi32>
  %m2 = ktc.expand_dims %rm axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %ka = ktc.expand_dims %rk axis = 0 : tensor<8xi32> -> tensor<1x8xi32>
  %kb = ktc.expand_dims %rk axis = 1 : tensor<8xi32> -> tensor<8x1xi32>
  %n2 = ktc.expand_dims %rn axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %cK = arith.constant dense<8> : tensor<16x1xi32>
  %cN = arith.constant dense<32> : tensor<8x1xi32>
  %cN2 = arith.constant dense<32> : tensor<16x1xi32>
  %am = arith.muli %m2, %cK : tensor<16x1xi32>
  %amb = ktc.broadcast %am : tensor<16x1xi32> -> tensor<16x8xi32>
  %kab = ktc.broadcast %ka : tensor<1x8xi32> -> tensor<16x8xi32>
  %ao = arith.addi %amb, %kab : tensor<16x8xi32>
  %bk = arith.muli %kb, %cN : tensor<8x1xi32>
  %bkb = ktc.broadcast %bk : tensor<8x1xi32> -> tensor<8x32xi32>
  %nb = ktc.broadcast %n2 : tensor<1x32xi32> -> tensor<8x32xi32>
  %bo = arith.addi %bkb, %nb : tensor<8x32xi32>
  %cm = arith.muli %m2, %cN2 : tensor<16x1xi32>
  %cmb = ktc.broadcast %cm : tensor<16x1xi32> -> tensor<16x32xi32>
  %nc = ktc.broadcast %n2 : tensor<1x32xi32> -> tensor<16x32xi32>
  %co = arith.addi %cmb, %nc : tensor<16x32xi32>
  %pa = ktc.splat %a : !ktc.ptr<f32> -> tensor<16x8x!ktc.ptr<f32>>
  %qa = ktc.addptr %pa, %ao : tensor<16x8x!ktc.ptr<f32>>, tensor<16x8xi32>
  %x = ktc.load %qa : tensor<16x8x!ktc.ptr<f32>>
  %pb = ktc.splat %b : !ktc.ptr<f32> -> tensor<8x32x!ktc.ptr<f32>>
  %qb = ktc.addptr %pb, %bo : tensor<8x32x!ktc.ptr<f32>>, tensor<8x32xi32>
  %y = ktc.load %qb : tensor<8x32x!ktc.ptr<f32>>
  %z = arith.constant dense<0.0> : tensor<16x32xf32>
  %d = ktc.dot %x, %y, %z : tensor<16x8xf32>, tensor<8x32xf32> -> tensor<16x32xf32>
  %pc = ktc.splat %c : !ktc.ptr<f32> -> tensor<16x32x!ktc.ptr<f32>>
  %qc = ktc.addptr %pc, %co : tensor<16x32x!ktc.ptr<f32>>, tensor<16x32xi32>
  ktc.store %qc, %d : tensor<16x32x!ktc.ptr<f32>>
  return
}
func.func @dot_tf32(%a: !ktc.ptr<f32>, %b: !ktc.ptr<f32>, %c: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %rm = ktc.arange 0, 16 : tensor<16xi32>
  %rn = ktc.arange 0, 32 : tensor<32xi32>
  %rk = ktc.arange 0, 8 : tensor<8xi32>
  %m2 = ktc.expand_dims %rm axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %ka = ktc.expand_dims %rk axis = 0 : tensor<8xi32> -> tensor<1x8xi32>
  %kb = ktc.expand_dims %rk axis = 1 : tensor<8xi32> -> tensor<8x1xi32>
  %n2 = ktc.expand_dims %rn axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %cK = arith.constant dense<8> : tensor<16x1xi32>
  %cN = arith.constant dense<32> : tensor<8x1xi32>
  %cN2 = arith.constant dense<32> : tensor<16x1xi32>
  %am = arith.muli %m2, %cK : tensor<16x1xi32>
  %amb = ktc.broadcast %am : tensor<16x1xi32> -> tensor<16x8xi32>
  %kab = ktc.broadcast %ka : tensor<1x8xi32> -> tensor<16x8xi32>
  %ao = arith.addi %amb, %kab : tensor<16x8xi32>
  %bk = arith.muli %kb, %cN : tensor<8x1xi32>
  %bkb = ktc.broadcast %bk : tensor<8x1xi32> -> tensor<8x32xi32>
  %nb = ktc.broadcast %n2 : tensor<1x32xi32> -> tensor<8x32xi32>
  %bo = arith.addi %bkb, %nb : tensor<8x32xi32>
  %cm = arith.muli %m2, %cN2 : tensor<16x1xi32>
  %cmb = ktc.broadcast %cm : tensor<16x1xi32> -> tensor<16x32xi32>
  %nc = ktc.broadcast %n2 : tensor<1x32xi32> -> tensor<16x32xi32>
  %co = arith.addi %cmb, %nc : tensor<16x32xi32>
  %pa = ktc.splat %a : !ktc.ptr<f32> -> tensor<16x8x!ktc.ptr<f32>>
  %qa = ktc.addptr %pa, %ao : tensor<16x8x!ktc.ptr<f32>>, tensor<16x8xi32>
  %x = ktc.load %qa : tensor<16x8x!ktc.ptr<f32>>
  %pb = ktc.splat %b : !ktc.ptr<f32> -> tensor<8x32x!ktc.ptr<f32>>
  %qb = ktc.addptr %pb, %bo : tensor<8x32x!ktc.ptr<f32>>, tensor<8x32xi32>
  %y = ktc.load %qb : tensor<8x32x!ktc.ptr<f32>>
  %z = arith.constant dense<0.0> : tensor<16x32xf32>
  %d = ktc.dot %x, %y, %z input_precision = tf32 : tensor<16x8xf32>, tensor<8x32xf32> -> tensor<16x32xf32>
  %pc = ktc.splat %c : !ktc.ptr<f32> -> tensor<16x32x!ktc.ptr<f32>>
  %qc = ktc.addptr %pc, %co : tensor<16x32x!ktc.ptr<f32>>, tensor<16x32xi32>
  ktc.store %qc, %d : tensor<16x32x!ktc.ptr<f32>>
  return
}
