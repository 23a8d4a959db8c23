// A kernel with device_print and device_assert (see Target/*/debug.mlir).
module {
  func.func @debug(%x: !ktc.ptr<f32>, %n: i32) attributes {ktc.kernel, ktc.num_warps = 4 : i32} {
    %offs = ktc.arange 0, 256 : tensor<256xi32>
    %ns = ktc.splat %n : i32 -> tensor<256xi32>
    %mask = arith.cmpi slt, %offs, %ns : tensor<256xi32>
    %p = ktc.splat %x : !ktc.ptr<f32> -> tensor<256x!ktc.ptr<f32>>
    %ptrs = ktc.addptr %p, %offs : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
    %cst = arith.constant dense<0.0> : tensor<256xf32>
    %v = ktc.load %ptrs, mask %mask, other %cst : tensor<256x!ktc.ptr<f32>> loc("kernel.cpp":10:5)
    ktc.print "x", %v : tensor<256xf32> loc("kernel.cpp":11:5)
    ktc.print "n", %n : i32 loc("kernel.cpp":12:5)
    %ok = arith.cmpf oge, %v, %cst : tensor<256xf32>
    ktc.assert %ok, "x must be non-negative" : tensor<256xi1> loc("kernel.cpp":13:5)
    return
  }
}
