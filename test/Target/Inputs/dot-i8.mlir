// i8 x i8 -> i32 dots: 64x64x64, 16x16x64 and 8x8x8 blocks of A and B
// loaded row-major, multiplied, stored (dot-i8.mlir in test/Target/AMDGPU
// and NVPTX).
func.func @dot_i8(%a: !ktc.ptr<i8>, %b: !ktc.ptr<i8>, %c: !ktc.ptr<i32>) attributes {ktc.kernel} {
  %rm = ktc.arange 0, 64 : tensor<64xi32>
  %rn = ktc.arange 0, 64 : tensor<64xi32>
  %rk = ktc.arange 0, 64 : tensor<64xi32>
  %m2 = ktc.expand_dims %rm axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ka = ktc.expand_dims %rk axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %kb = ktc.expand_dims %rk axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %n2 = ktc.expand_dims %rn axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %cK = arith.constant dense<64> : tensor<64x1xi32>
  %cN = arith.constant dense<64> : tensor<64x1xi32>
  %cN2 = arith.constant dense<64> : tensor<64x1xi32>
  %am = arith.muli %m2, %cK : tensor<64x1xi32>
  %amb = ktc.broadcast %am : tensor<64x1xi32> -> tensor<64x64xi32>
  %kab = ktc.broadcast %ka : tensor<1x64xi32> -> tensor<64x64xi32>
  %ao = arith.addi %amb, %kab : tensor<64x64xi32>
  %bk = arith.muli %kb, %cN : tensor<64x1xi32>
  %bkb = ktc.broadcast %bk : tensor<64x1xi32> -> tensor<64x64xi32>
  %nb = ktc.broadcast %n2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %bo = arith.addi %bkb, %nb : tensor<64x64xi32>
  %cm = arith.muli %m2, %cN2 : tensor<64x1xi32>
  %cmb = ktc.broadcast %cm : tensor<64x1xi32> -> tensor<64x64xi32>
  %nc = ktc.broadcast %n2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %co = arith.addi %cmb, %nc : tensor<64x64xi32>
  %pa = ktc.splat %a : !ktc.ptr<i8> -> tensor<64x64x!ktc.ptr<i8>>
  %qa = ktc.addptr %pa, %ao : tensor<64x64x!ktc.ptr<i8>>, tensor<64x64xi32>
  %x = ktc.load %qa : tensor<64x64x!ktc.ptr<i8>>
  %pb = ktc.splat %b : !ktc.ptr<i8> -> tensor<64x64x!ktc.ptr<i8>>
  %qb = ktc.addptr %pb, %bo : tensor<64x64x!ktc.ptr<i8>>, tensor<64x64xi32>
  %y = ktc.load %qb : tensor<64x64x!ktc.ptr<i8>>
  %z = arith.constant dense<0> : tensor<64x64xi32>
  %d = ktc.dot %x, %y, %z : tensor<64x64xi8>, tensor<64x64xi8> -> tensor<64x64xi32>
  %pc = ktc.splat %c : !ktc.ptr<i32> -> tensor<64x64x!ktc.ptr<i32>>
  %qc = ktc.addptr %pc, %co : tensor<64x64x!ktc.ptr<i32>>, tensor<64x64xi32>
  ktc.store %qc, %d : tensor<64x64x!ktc.ptr<i32>>
  return
}
func.func @dot_i8_16(%a: !ktc.ptr<i8>, %b: !ktc.ptr<i8>, %c: !ktc.ptr<i32>) attributes {ktc.kernel} {
  %rm = ktc.arange 0, 16 : tensor<16xi32>
  %rn = ktc.arange 0, 16 : tensor<16xi32>
  %rk = ktc.arange 0, 64 : tensor<64xi32>
  %m2 = ktc.expand_dims %rm axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %ka = ktc.expand_dims %rk axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %kb = ktc.expand_dims %rk axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %n2 = ktc.expand_dims %rn axis = 0 : tensor<16xi32> -> tensor<1x16xi32>
  %cK = arith.constant dense<64> : tensor<16x1xi32>
  %cN = arith.constant dense<16> : tensor<64x1xi32>
  %cN2 = arith.constant dense<16> : tensor<16x1xi32>
  %am = arith.muli %m2, %cK : tensor<16x1xi32>
  %amb = ktc.broadcast %am : tensor<16x1xi32> -> tensor<16x64xi32>
  %kab = ktc.broadcast %ka : tensor<1x64xi32> -> tensor<16x64xi32>
  %ao = arith.addi %amb, %kab : tensor<16x64xi32>
  %bk = arith.muli %kb, %cN : tensor<64x1xi32>
  %bkb = ktc.broadcast %bk : tensor<64x1xi32> -> tensor<64x16xi32>
  %nb = ktc.broadcast %n2 : tensor<1x16xi32> -> tensor<64x16xi32>
  %bo = arith.addi %bkb, %nb : tensor<64x16xi32>
  %cm = arith.muli %m2, %cN2 : tensor<16x1xi32>
  %cmb = ktc.broadcast %cm : tensor<16x1xi32> -> tensor<16x16xi32>
  %nc = ktc.broadcast %n2 : tensor<1x16xi32> -> tensor<16x16xi32>
  %co = arith.addi %cmb, %nc : tensor<16x16xi32>
  %pa = ktc.splat %a : !ktc.ptr<i8> -> tensor<16x64x!ktc.ptr<i8>>
  %qa = ktc.addptr %pa, %ao : tensor<16x64x!ktc.ptr<i8>>, tensor<16x64xi32>
  %x = ktc.load %qa : tensor<16x64x!ktc.ptr<i8>>
  %pb = ktc.splat %b : !ktc.ptr<i8> -> tensor<64x16x!ktc.ptr<i8>>
  %qb = ktc.addptr %pb, %bo : tensor<64x16x!ktc.ptr<i8>>, tensor<64x16xi32>
  %y = ktc.load %qb : tensor<64x16x!ktc.ptr<i8>>
  %z = arith.constant dense<0> : tensor<16x16xi32>
  %d = ktc.dot %x, %y, %z : tensor<16x64xi8>, tensor<64x16xi8> -> tensor<16x16xi32>
  %pc = ktc.splat %c : !ktc.ptr<i32> -> tensor<16x16x!ktc.ptr<i32>>
  %qc = ktc.addptr %pc, %co : tensor<16x16x!ktc.ptr<i32>>, tensor<16x16xi32>
  ktc.store %qc, %d : tensor<16x16x!ktc.ptr<i32>>
  return
}
func.func @dot_i8_fma(%a: !ktc.ptr<i8>, %b: !ktc.ptr<i8>, %c: !ktc.ptr<i32>) attributes {ktc.kernel} {
  %rm = ktc.arange 0, 8 : tensor<8xi32>
  %rn = ktc.arange 0, 8 : tensor<8xi32>
  %rk = ktc.arange 0, 8 : tensor<8xi32>
  %m2 = ktc.expand_dims %rm axis = 1 : tensor<8xi32> -> tensor<8x1xi32>
  %ka = ktc.expand_dims %rk axis = 0 : tensor<8xi32> -> tensor<1x8xi32>
  %kb = ktc.expand_dims %rk axis = 1 : tensor<8xi32> -> tensor<8x1xi32>
  %n2 = ktc.expand_dims %rn axis = 0 : tensor<8xi32> -> tensor<1x8xi32>
  %cK = arith.constant dense<8> : tensor<8x1xi32>
  %cN = arith.constant dense<8> : tensor<8x1xi32>
  %cN2 = arith.constant dense<8> : tensor<8x1xi32>
  %am = arith.muli %m2, %cK : tensor<8x1xi32>
  %amb = ktc.broadcast %am : tensor<8x1xi32> -> tensor<8x8xi32>
  %kab = ktc.broadcast %ka : tensor<1x8xi32> -> tensor<8x8xi32>
  %ao = arith.addi %amb, %kab : tensor<8x8xi32>
  %bk = arith.muli %kb, %cN : tensor<8x1xi32>
  %bkb = ktc.broadcast %bk : tensor<8x1xi32> -> tensor<8x8xi32>
  %nb = ktc.broadcast %n2 : tensor<1x8xi32> -> tensor<8x8xi32>
  %bo = arith.addi %bkb, %nb : tensor<8x8xi32>
  %cm = arith.muli %m2, %cN2 : tensor<8x1xi32>
  %cmb = ktc.broadcast %cm : tensor<8x1xi32> -> tensor<8x8xi32>
  %nc = ktc.broadcast %n2 : tensor<1x8xi32> -> tensor<8x8xi32>
  %co = arith.addi %cmb, %nc : tensor<8x8xi32>
  %pa = ktc.splat %a : !ktc.ptr<i8> -> tensor<8x8x!ktc.ptr<i8>>
  %qa = ktc.addptr %pa, %ao : tensor<8x8x!ktc.ptr<i8>>, tensor<8x8xi32>
  %x = ktc.load %qa : tensor<8x8x!ktc.ptr<i8>>
  %pb = ktc.splat %b : !ktc.ptr<i8> -> tensor<8x8x!ktc.ptr<i8>>
  %qb = ktc.addptr %pb, %bo : tensor<8x8x!ktc.ptr<i8>>, tensor<8x8xi32>
  %y = ktc.load %qb : tensor<8x8x!ktc.ptr<i8>>
  %z = arith.constant dense<0> : tensor<8x8xi32>
  %d = ktc.dot %x, %y, %z : tensor<8x8xi8>, tensor<8x8xi8> -> tensor<8x8xi32>
  %pc = ktc.splat %c : !ktc.ptr<i32> -> tensor<8x8x!ktc.ptr<i32>>
  %qc = ktc.addptr %pc, %co : tensor<8x8x!ktc.ptr<i32>>, tensor<8x8xi32>
  ktc.store %qc, %d : tensor<8x8x!ktc.ptr<i32>>
  return
}
