// A 128x1024 f32 tile read along its rows and stored transposed (written
// along its columns): it changes layout through shared memory, the whole
// tile, 524288 bytes (rows swizzled, not padded).
func.func @transpose_tile(%x: !ktc.ptr<f32>, %o: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %c = ktc.arange 0, 1024 : tensor<1024xi32>
  %r2 = ktc.expand_dims %r axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %c2 = ktc.expand_dims %c axis = 0 : tensor<1024xi32> -> tensor<1x1024xi32>
  %kc = arith.constant dense<1024> : tensor<128x1xi32>
  %kr = arith.constant dense<128> : tensor<1x1024xi32>
  %rs = arith.muli %r2, %kc : tensor<128x1xi32>
  %cs = arith.muli %c2, %kr : tensor<1x1024xi32>
  %a = ktc.broadcast %rs : tensor<128x1xi32> -> tensor<128x1024xi32>
  %b = ktc.broadcast %c2 : tensor<1x1024xi32> -> tensor<128x1024xi32>
  %in = arith.addi %a, %b : tensor<128x1024xi32>
  %a2 = ktc.broadcast %r2 : tensor<128x1xi32> -> tensor<128x1024xi32>
  %b2 = ktc.broadcast %cs : tensor<1x1024xi32> -> tensor<128x1024xi32>
  %out = arith.addi %a2, %b2 : tensor<128x1024xi32>
  %px = ktc.splat %x : !ktc.ptr<f32> -> tensor<128x1024x!ktc.ptr<f32>>
  %qx = ktc.addptr %px, %in : tensor<128x1024x!ktc.ptr<f32>>, tensor<128x1024xi32>
  %v = ktc.load %qx : tensor<128x1024x!ktc.ptr<f32>>
  %po = ktc.splat %o : !ktc.ptr<f32> -> tensor<128x1024x!ktc.ptr<f32>>
  %qo = ktc.addptr %po, %out : tensor<128x1024x!ktc.ptr<f32>>, tensor<128x1024xi32>
  ktc.store %qo, %v : tensor<128x1024x!ktc.ptr<f32>>
  return
}
