// debug_barrier (tl.debug_barrier) between a load and a store, as ktc
// traces it: upstream's gpu.barrier. The kernel needs no barrier of its
// own, so the one in the code is debug_barrier's.
func.func @barrier(%x: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}, %y: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}) attributes {ktc.kernel, ktc.num_warps = 4 : i32} {
  %r = ktc.arange 0, 512 : tensor<512xi32>
  %xb = ktc.splat %x : !ktc.ptr<f32> -> tensor<512x!ktc.ptr<f32>>
  %xp = ktc.addptr %xb, %r : tensor<512x!ktc.ptr<f32>>, tensor<512xi32>
  %v = ktc.load %xp : tensor<512x!ktc.ptr<f32>>
  gpu.barrier
  %yb = ktc.splat %y : !ktc.ptr<f32> -> tensor<512x!ktc.ptr<f32>>
  %yp = ktc.addptr %yb, %r : tensor<512x!ktc.ptr<f32>>, tensor<512xi32>
  ktc.store %yp, %v : tensor<512x!ktc.ptr<f32>>
  return
}
