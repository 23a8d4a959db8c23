// A 1x2x32768 f32 block read along its last dimension and stored with the
// last two dimensions swapped: a change of layout whose single rows (128
// KiB) are more than most targets give a workgroup, so it goes through
// shared memory in pieces along its last dimension.
func.func @transpose_slab(%x: !ktc.ptr<f32>, %o: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %j = ktc.arange 0, 2 : tensor<2xi32>
  %k = ktc.arange 0, 32768 : tensor<32768xi32>
  %j1 = ktc.expand_dims %j axis = 0 : tensor<2xi32> -> tensor<1x2xi32>
  %j2 = ktc.expand_dims %j1 axis = 2 : tensor<1x2xi32> -> tensor<1x2x1xi32>
  %k1 = ktc.expand_dims %k axis = 0 : tensor<32768xi32> -> tensor<1x32768xi32>
  %k2 = ktc.expand_dims %k1 axis = 0 : tensor<1x32768xi32> -> tensor<1x1x32768xi32>
  %c1024 = arith.constant dense<32768> : tensor<1x2x1xi32>
  %cJ = arith.constant dense<2> : tensor<1x1x32768xi32>
  %js = arith.muli %j2, %c1024 : tensor<1x2x1xi32>
  %ks = arith.muli %k2, %cJ : tensor<1x1x32768xi32>
  %a = ktc.broadcast %js : tensor<1x2x1xi32> -> tensor<1x2x32768xi32>
  %b = ktc.broadcast %k2 : tensor<1x1x32768xi32> -> tensor<1x2x32768xi32>
  %in = arith.addi %a, %b : tensor<1x2x32768xi32>
  %a2 = ktc.broadcast %j2 : tensor<1x2x1xi32> -> tensor<1x2x32768xi32>
  %b2 = ktc.broadcast %ks : tensor<1x1x32768xi32> -> tensor<1x2x32768xi32>
  %out = arith.addi %a2, %b2 : tensor<1x2x32768xi32>
  %px = ktc.splat %x : !ktc.ptr<f32> -> tensor<1x2x32768x!ktc.ptr<f32>>
  %qx = ktc.addptr %px, %in : tensor<1x2x32768x!ktc.ptr<f32>>, tensor<1x2x32768xi32>
  %v = ktc.load %qx : tensor<1x2x32768x!ktc.ptr<f32>>
  %po = ktc.splat %o : !ktc.ptr<f32> -> tensor<1x2x32768x!ktc.ptr<f32>>
  %qo = ktc.addptr %po, %out : tensor<1x2x32768x!ktc.ptr<f32>>, tensor<1x2x32768xi32>
  ktc.store %qo, %v : tensor<1x2x32768x!ktc.ptr<f32>>
  return
}
