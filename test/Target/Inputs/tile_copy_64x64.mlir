// Copies a 64x64 f32 tile of a row-major matrix (row stride `stride`
// elements, m x n, both pointers 16-byte aligned): tile (pid, 0), masked
// where rows pass m or columns pass n. With the stride and n multiples of 4
// elements, every run of 4 columns of the tile is 16 bytes in one row, under
// one mask bit.
func.func @tile_copy(%x: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                     %out: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                     %m: i32, %n: i32 {ktc.divisibility = 16 : i32},
                     %stride: i32 {ktc.divisibility = 16 : i32})
    attributes {ktc.kernel} {
  %c64 = arith.constant 64 : i32
  %pid = ktc.program_id 0 : i32
  %row0 = arith.muli %pid, %c64 : i32
  %r = ktc.arange 0, 64 : tensor<64xi32>
  %c = ktc.arange 0, 64 : tensor<64xi32>
  %row0b = ktc.splat %row0 : i32 -> tensor<64xi32>
  %rows = arith.addi %row0b, %r : tensor<64xi32>
  %r2 = ktc.expand_dims %rows axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %c2 = ktc.expand_dims %c axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %sb = ktc.splat %stride : i32 -> tensor<64x1xi32>
  %rs = arith.muli %r2, %sb : tensor<64x1xi32>
  %rb = ktc.broadcast %rs : tensor<64x1xi32> -> tensor<64x64xi32>
  %cb = ktc.broadcast %c2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %offs = arith.addi %rb, %cb : tensor<64x64xi32>
  %mb = ktc.splat %m : i32 -> tensor<64x1xi32>
  %rmask = arith.cmpi slt, %r2, %mb : tensor<64x1xi32>
  %nb = ktc.splat %n : i32 -> tensor<1x64xi32>
  %cmask = arith.cmpi slt, %c2, %nb : tensor<1x64xi32>
  %rmb = ktc.broadcast %rmask : tensor<64x1xi1> -> tensor<64x64xi1>
  %cmb = ktc.broadcast %cmask : tensor<1x64xi1> -> tensor<64x64xi1>
  %mask = arith.andi %rmb, %cmb : tensor<64x64xi1>
  %xb = ktc.splat %x : !ktc.ptr<f32> -> tensor<64x64x!ktc.ptr<f32>>
  %xp = ktc.addptr %xb, %offs : tensor<64x64x!ktc.ptr<f32>>, tensor<64x64xi32>
  %tile = ktc.load %xp, mask %mask : tensor<64x64x!ktc.ptr<f32>>
  %ob = ktc.splat %out : !ktc.ptr<f32> -> tensor<64x64x!ktc.ptr<f32>>
  %op = ktc.addptr %ob, %offs : tensor<64x64x!ktc.ptr<f32>>, tensor<64x64xi32>
  ktc.store %op, %tile, mask %mask : tensor<64x64x!ktc.ptr<f32>>
  return
}
