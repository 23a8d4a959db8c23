// The row maxima of a 128x256 f32 tile: each wave holds whole rows, so the
// 2-D reduction combines within threads and across lanes only (no shared
// memory; until issue 17 it took the whole tile there, 128 KiB).
func.func @rows_max(%x: !ktc.ptr<f32>, %out: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %c = ktc.arange 0, 256 : tensor<256xi32>
  %r2 = ktc.expand_dims %r axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %c2 = ktc.expand_dims %c axis = 0 : tensor<256xi32> -> tensor<1x256xi32>
  %stride = arith.constant dense<256> : tensor<128x1xi32>
  %rs = arith.muli %r2, %stride : tensor<128x1xi32>
  %rb = ktc.broadcast %rs : tensor<128x1xi32> -> tensor<128x256xi32>
  %cb = ktc.broadcast %c2 : tensor<1x256xi32> -> tensor<128x256xi32>
  %offs = arith.addi %rb, %cb : tensor<128x256xi32>
  %xb = ktc.splat %x : !ktc.ptr<f32> -> tensor<128x256x!ktc.ptr<f32>>
  %p = ktc.addptr %xb, %offs : tensor<128x256x!ktc.ptr<f32>>, tensor<128x256xi32>
  %tile = ktc.load %p : tensor<128x256x!ktc.ptr<f32>>
  %m = ktc.reduce max %tile axis = 1 : tensor<128x256xf32> -> tensor<128xf32>
  %ob = ktc.splat %out : !ktc.ptr<f32> -> tensor<128x!ktc.ptr<f32>>
  %o = ktc.addptr %ob, %r : tensor<128x!ktc.ptr<f32>>, tensor<128xi32>
  ktc.store %o, %m : tensor<128x!ktc.ptr<f32>>
  return
}
