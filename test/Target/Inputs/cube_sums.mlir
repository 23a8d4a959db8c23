// An 8x16x32 f32 block summed along each of its axes.
func.func @cube_sums(%x: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}, %o: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}) attributes {ktc.kernel} {
  %i = ktc.arange 0, 8 : tensor<8xi32>
  %j = ktc.arange 0, 16 : tensor<16xi32>
  %k = ktc.arange 0, 32 : tensor<32xi32>
  %i2 = ktc.expand_dims %i axis = 1 : tensor<8xi32> -> tensor<8x1xi32>
  %i3 = ktc.expand_dims %i2 axis = 2 : tensor<8x1xi32> -> tensor<8x1x1xi32>
  %j2 = ktc.expand_dims %j axis = 0 : tensor<16xi32> -> tensor<1x16xi32>
  %j3 = ktc.expand_dims %j2 axis = 2 : tensor<1x16xi32> -> tensor<1x16x1xi32>
  %k2 = ktc.expand_dims %k axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %k3 = ktc.expand_dims %k2 axis = 0 : tensor<1x32xi32> -> tensor<1x1x32xi32>
  %c512 = arith.constant dense<512> : tensor<8x1x1xi32>
  %c32 = arith.constant dense<32> : tensor<1x16x1xi32>
  %is = arith.muli %i3, %c512 : tensor<8x1x1xi32>
  %js = arith.muli %j3, %c32 : tensor<1x16x1xi32>
  %ib = ktc.broadcast %is : tensor<8x1x1xi32> -> tensor<8x16x32xi32>
  %jb = ktc.broadcast %js : tensor<1x16x1xi32> -> tensor<8x16x32xi32>
  %kb = ktc.broadcast %k3 : tensor<1x1x32xi32> -> tensor<8x16x32xi32>
  %ij = arith.addi %ib, %jb : tensor<8x16x32xi32>
  %off = arith.addi %ij, %kb : tensor<8x16x32xi32>
  %px = ktc.splat %x : !ktc.ptr<f32> -> tensor<8x16x32x!ktc.ptr<f32>>
  %qx = ktc.addptr %px, %off : tensor<8x16x32x!ktc.ptr<f32>>, tensor<8x16x32xi32>
  %v = ktc.load %qx : tensor<8x16x32x!ktc.ptr<f32>>
  %s0 = ktc.reduce sum %v axis = 0 : tensor<8x16x32xf32> -> tensor<16x32xf32>
  %s1 = ktc.reduce sum %v axis = 1 : tensor<8x16x32xf32> -> tensor<8x32xf32>
  %s2 = ktc.reduce sum %v axis = 2 : tensor<8x16x32xf32> -> tensor<8x16xf32>
  %t0 = ktc.reduce sum %s0 axis = 1 : tensor<16x32xf32> -> tensor<16xf32>
  %t1 = ktc.reduce sum %s1 axis = 1 : tensor<8x32xf32> -> tensor<8xf32>
  %t2 = ktc.reduce sum %s2 axis = 0 : tensor<8x16xf32> -> tensor<16xf32>
  %u0 = ktc.reduce sum %t0 axis = 0 : tensor<16xf32> -> f32
  %u1 = ktc.reduce sum %t1 axis = 0 : tensor<8xf32> -> f32
  %u2 = ktc.reduce sum %t2 axis = 0 : tensor<16xf32> -> f32
  %a = arith.addf %u0, %u1 : f32
  %b = arith.addf %a, %u2 : f32
  ktc.store %o, %b : !ktc.ptr<f32>
  return
}
