// A 64x64 f32 tile of an aligned row-major matrix (both pointers 16-byte
// aligned), stored transposed into another: read along its rows, written
// along its columns.
func.func @transpose_tile(%x: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}, %o: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}) attributes {ktc.kernel} {
  %r = ktc.arange 0, 64 : tensor<64xi32>
  %c = ktc.arange 0, 64 : tensor<64xi32>
  %r2 = ktc.expand_dims %r axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %c2 = ktc.expand_dims %c axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %kc = arith.constant dense<64> : tensor<64x1xi32>
  %kr = arith.constant dense<64> : tensor<1x64xi32>
  %rs = arith.muli %r2, %kc : tensor<64x1xi32>
  %cs = arith.muli %c2, %kr : tensor<1x64xi32>
  %a = ktc.broadcast %rs : tensor<64x1xi32> -> tensor<64x64xi32>
  %b = ktc.broadcast %c2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %in = arith.addi %a, %b : tensor<64x64xi32>
  %a2 = ktc.broadcast %r2 : tensor<64x1xi32> -> tensor<64x64xi32>
  %b2 = ktc.broadcast %cs : tensor<1x64xi32> -> tensor<64x64xi32>
  %out = arith.addi %a2, %b2 : tensor<64x64xi32>
  %px = ktc.splat %x : !ktc.ptr<f32> -> tensor<64x64x!ktc.ptr<f32>>
  %qx = ktc.addptr %px, %in : tensor<64x64x!ktc.ptr<f32>>, tensor<64x64xi32>
  %v = ktc.load %qx : tensor<64x64x!ktc.ptr<f32>>
  %po = ktc.splat %o : !ktc.ptr<f32> -> tensor<64x64x!ktc.ptr<f32>>
  %qo = ktc.addptr %po, %out : tensor<64x64x!ktc.ptr<f32>>, tensor<64x64xi32>
  ktc.store %qo, %v : tensor<64x64x!ktc.ptr<f32>>
  return
}
