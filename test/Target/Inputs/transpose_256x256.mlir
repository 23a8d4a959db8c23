// A 256x256 f32 tile read along its rows and stored transposed (written
// along its columns): it changes layout through shared memory, the whole
// tile, 262144 bytes, more than gfx942, gfx1100 or sm_90 give a workgroup.
func.func @transpose_tile(%x: !ktc.ptr<f32>, %o: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 256 : tensor<256xi32>
  %c = ktc.arange 0, 256 : tensor<256xi32>
  %r2 = ktc.expand_dims %r axis = 1 : tensor<256xi32> -> tensor<256x1xi32>
  %c2 = ktc.expand_dims %c axis = 0 : tensor<256xi32> -> tensor<1x256xi32>
  %kc = arith.constant dense<256> : tensor<256x1xi32>
  %kr = arith.constant dense<256> : tensor<1x256xi32>
  %rs = arith.muli %r2, %kc : tensor<256x1xi32>
  %cs = arith.muli %c2, %kr : tensor<1x256xi32>
  %a = ktc.broadcast %rs : tensor<256x1xi32> -> tensor<256x256xi32>
  %b = ktc.broadcast %c2 : tensor<1x256xi32> -> tensor<256x256xi32>
  %in = arith.addi %a, %b : tensor<256x256xi32>
  %a2 = ktc.broadcast %r2 : tensor<256x1xi32> -> tensor<256x256xi32>
  %b2 = ktc.broadcast %cs : tensor<1x256xi32> -> tensor<256x256xi32>
  %out = arith.addi %a2, %b2 : tensor<256x256xi32>
  %px = ktc.splat %x : !ktc.ptr<f32> -> tensor<256x256x!ktc.ptr<f32>>
  %qx = ktc.addptr %px, %in : tensor<256x256x!ktc.ptr<f32>>, tensor<256x256xi32>
  %v = ktc.load %qx : tensor<256x256x!ktc.ptr<f32>>
  %po = ktc.splat %o : !ktc.ptr<f32> -> tensor<256x256x!ktc.ptr<f32>>
  %qo = ktc.addptr %po, %out : tensor<256x256x!ktc.ptr<f32>>, tensor<256x256xi32>
  ktc.store %qo, %v : tensor<256x256x!ktc.ptr<f32>>
  return
}
