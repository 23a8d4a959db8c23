// The row and column sums of a 128x128 f32 tile (2^14 elements): each
// reduction combines registers, lanes and, along the axis the waves split,
// a few partials per wave through shared memory -- never the tile itself.
func.func @sums(%x: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}, %rows: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}, %cols: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %c = ktc.arange 0, 128 : tensor<128xi32>
  %r2 = ktc.expand_dims %r axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %c2 = ktc.expand_dims %c axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %k = arith.constant dense<128> : tensor<128x1xi32>
  %rs = arith.muli %r2, %k : tensor<128x1xi32>
  %a = ktc.broadcast %rs : tensor<128x1xi32> -> tensor<128x128xi32>
  %b = ktc.broadcast %c2 : tensor<1x128xi32> -> tensor<128x128xi32>
  %off = arith.addi %a, %b : tensor<128x128xi32>
  %px = ktc.splat %x : !ktc.ptr<f32> -> tensor<128x128x!ktc.ptr<f32>>
  %qx = ktc.addptr %px, %off : tensor<128x128x!ktc.ptr<f32>>, tensor<128x128xi32>
  %v = ktc.load %qx : tensor<128x128x!ktc.ptr<f32>>
  %s1 = ktc.reduce sum %v axis = 1 : tensor<128x128xf32> -> tensor<128xf32>
  %s0 = ktc.reduce sum %v axis = 0 : tensor<128x128xf32> -> tensor<128xf32>
  %pr = ktc.splat %rows : !ktc.ptr<f32> -> tensor<128x!ktc.ptr<f32>>
  %qr = ktc.addptr %pr, %r : tensor<128x!ktc.ptr<f32>>, tensor<128xi32>
  ktc.store %qr, %s1 : tensor<128x!ktc.ptr<f32>>
  %pc = ktc.splat %cols : !ktc.ptr<f32> -> tensor<128x!ktc.ptr<f32>>
  %qc = ktc.addptr %pc, %c : tensor<128x!ktc.ptr<f32>>, tensor<128xi32>
  ktc.store %qc, %s0 : tensor<128x!ktc.ptr<f32>>
  return
}
