// Masked loads and stores whose mask changes element by element (issue
// 18): @tail copies x[i] (f16, `other` 1.5 past n) for i < n, one mask bit
// per element; @rows copies the rows below m of a 16x64 f32 tile, a mask
// bit per row, so a run of 4 columns (16 bytes) moves under one bit (a
// branch per vector);
// @bytes copies i8 elements below n.
func.func @tail(%x: !ktc.ptr<f16> {ktc.divisibility = 16 : i32},
                %y: !ktc.ptr<f16> {ktc.divisibility = 16 : i32},
                %n: i32) attributes {ktc.kernel} {
  %r = ktc.arange 0, 1024 : tensor<1024xi32>
  %nb = ktc.splat %n : i32 -> tensor<1024xi32>
  %m = arith.cmpi slt, %r, %nb : tensor<1024xi32>
  %other = arith.constant dense<1.5> : tensor<1024xf16>
  %xb = ktc.splat %x : !ktc.ptr<f16> -> tensor<1024x!ktc.ptr<f16>>
  %xp = ktc.addptr %xb, %r : tensor<1024x!ktc.ptr<f16>>, tensor<1024xi32>
  %v = ktc.load %xp, mask %m, other %other : tensor<1024x!ktc.ptr<f16>>
  %yb = ktc.splat %y : !ktc.ptr<f16> -> tensor<1024x!ktc.ptr<f16>>
  %yp = ktc.addptr %yb, %r : tensor<1024x!ktc.ptr<f16>>, tensor<1024xi32>
  ktc.store %yp, %v, mask %m : tensor<1024x!ktc.ptr<f16>>
  return
}

func.func @rows(%x: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                %y: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                %m: i32) attributes {ktc.kernel} {
  %r = ktc.arange 0, 16 : tensor<16xi32>
  %c = ktc.arange 0, 64 : tensor<64xi32>
  %r2 = ktc.expand_dims %r axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %c2 = ktc.expand_dims %c axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %c64 = arith.constant dense<64> : tensor<16x1xi32>
  %rs = arith.muli %r2, %c64 : tensor<16x1xi32>
  %rb = ktc.broadcast %rs : tensor<16x1xi32> -> tensor<16x64xi32>
  %cb = ktc.broadcast %c2 : tensor<1x64xi32> -> tensor<16x64xi32>
  %offs = arith.addi %rb, %cb : tensor<16x64xi32>
  %mb = ktc.splat %m : i32 -> tensor<16x1xi32>
  %rmask = arith.cmpi slt, %r2, %mb : tensor<16x1xi32>
  %mask = ktc.broadcast %rmask : tensor<16x1xi1> -> tensor<16x64xi1>
  %xb = ktc.splat %x : !ktc.ptr<f32> -> tensor<16x64x!ktc.ptr<f32>>
  %xp = ktc.addptr %xb, %offs : tensor<16x64x!ktc.ptr<f32>>, tensor<16x64xi32>
  %tile = ktc.load %xp, mask %mask : tensor<16x64x!ktc.ptr<f32>>
  %yb = ktc.splat %y : !ktc.ptr<f32> -> tensor<16x64x!ktc.ptr<f32>>
  %yp = ktc.addptr %yb, %offs : tensor<16x64x!ktc.ptr<f32>>, tensor<16x64xi32>
  ktc.store %yp, %tile, mask %mask : tensor<16x64x!ktc.ptr<f32>>
  return
}

func.func @bytes(%x: !ktc.ptr<i8> {ktc.divisibility = 16 : i32},
                 %y: !ktc.ptr<i8> {ktc.divisibility = 16 : i32},
                 %n: i32) attributes {ktc.kernel} {
  %r = ktc.arange 0, 512 : tensor<512xi32>
  %nb = ktc.splat %n : i32 -> tensor<512xi32>
  %m = arith.cmpi slt, %r, %nb : tensor<512xi32>
  %xb = ktc.splat %x : !ktc.ptr<i8> -> tensor<512x!ktc.ptr<i8>>
  %xp = ktc.addptr %xb, %r : tensor<512x!ktc.ptr<i8>>, tensor<512xi32>
  %v = ktc.load %xp, mask %m : tensor<512x!ktc.ptr<i8>>
  %yb = ktc.splat %y : !ktc.ptr<i8> -> tensor<512x!ktc.ptr<i8>>
  %yp = ktc.addptr %yb, %r : tensor<512x!ktc.ptr<i8>>, tensor<512xi32>
  ktc.store %yp, %v, mask %m : tensor<512x!ktc.ptr<i8>>
  return
}
