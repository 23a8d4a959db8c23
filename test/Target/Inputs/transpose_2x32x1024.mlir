// A 2x32x1024 f32 block stored with its last two dimensions swapped (256
// KiB): past 64 KiB of LDS it goes in pieces along dimension 1 or 2.
func.func @transpose_slab(%x: !ktc.ptr<f32>, %o: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %i = ktc.arange 0, 2 : tensor<2xi32>
  %j = ktc.arange 0, 32 : tensor<32xi32>
  %k = ktc.arange 0, 1024 : tensor<1024xi32>
  %i1 = ktc.expand_dims %i axis = 1 : tensor<2xi32> -> tensor<2x1xi32>
  %i2 = ktc.expand_dims %i1 axis = 2 : tensor<2x1xi32> -> tensor<2x1x1xi32>
  %j1 = ktc.expand_dims %j axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %j2 = ktc.expand_dims %j1 axis = 2 : tensor<1x32xi32> -> tensor<1x32x1xi32>
  %k1 = ktc.expand_dims %k axis = 0 : tensor<1024xi32> -> tensor<1x1024xi32>
  %k2 = ktc.expand_dims %k1 axis = 0 : tensor<1x1024xi32> -> tensor<1x1x1024xi32>
  %cBC = arith.constant dense<32768> : tensor<2x1x1xi32>
  %cC = arith.constant dense<1024> : tensor<1x32x1xi32>
  %cB = arith.constant dense<32> : tensor<1x1x1024xi32>
  %is = arith.muli %i2, %cBC : tensor<2x1x1xi32>
  %js = arith.muli %j2, %cC : tensor<1x32x1xi32>
  %ks = arith.muli %k2, %cB : tensor<1x1x1024xi32>
  %ib = ktc.broadcast %is : tensor<2x1x1xi32> -> tensor<2x32x1024xi32>
  %jb = ktc.broadcast %js : tensor<1x32x1xi32> -> tensor<2x32x1024xi32>
  %kb = ktc.broadcast %k2 : tensor<1x1x1024xi32> -> tensor<2x32x1024xi32>
  %in0 = arith.addi %ib, %jb : tensor<2x32x1024xi32>
  %in = arith.addi %in0, %kb : tensor<2x32x1024xi32>
  %jb2 = ktc.broadcast %j2 : tensor<1x32x1xi32> -> tensor<2x32x1024xi32>
  %kb2 = ktc.broadcast %ks : tensor<1x1x1024xi32> -> tensor<2x32x1024xi32>
  %out0 = arith.addi %ib, %jb2 : tensor<2x32x1024xi32>
  %out = arith.addi %out0, %kb2 : tensor<2x32x1024xi32>
  %px = ktc.splat %x : !ktc.ptr<f32> -> tensor<2x32x1024x!ktc.ptr<f32>>
  %qx = ktc.addptr %px, %in : tensor<2x32x1024x!ktc.ptr<f32>>, tensor<2x32x1024xi32>
  %v = ktc.load %qx : tensor<2x32x1024x!ktc.ptr<f32>>
  %po = ktc.splat %o : !ktc.ptr<f32> -> tensor<2x32x1024x!ktc.ptr<f32>>
  %qo = ktc.addptr %po, %out : tensor<2x32x1024x!ktc.ptr<f32>>, tensor<2x32x1024xi32>
  ktc.store %qo, %v : tensor<2x32x1024x!ktc.ptr<f32>>
  return
}
