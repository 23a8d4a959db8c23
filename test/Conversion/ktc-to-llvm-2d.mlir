// RUN: ktc-opt %s --ktc-assign-layouts="num-warps=4 wave-size=32" --cse --convert-ktc-to-llvm="target=sm_90 num-warps=4" | FileCheck %s
// RUN: ktc-opt %s --ktc-gpu-pipeline="target=gfx942 num-warps=4" | FileCheck %s --check-prefix=AMD

// 2-D blocks whose layouts agree move no data: the row and column indices
// are aranges in the tile layout's slices, so expand_dims and broadcast are
// free (register copies), and the row sums combine each thread's elements,
// then lanes in butterflies (DPP within rows of 16 lanes on AMD). No
// shared memory, no barrier, on either target.
// CHECK-NOT: ktc_smem
// CHECK-LABEL: func.func @rows
// CHECK-NOT: nvvm.barrier
// CHECK: nvvm.shfl.sync  bfly
// CHECK-NOT: nvvm.barrier
// CHECK: return
// AMD-NOT: ktc_smem
// AMD: llvm.func @rows(
// AMD-NOT: rocdl.barrier
// AMD: rocdl.update.dpp
// AMD-NOT: rocdl.barrier
// AMD-NOT: ktc.
func.func @rows(%p: !ktc.ptr<f32>, %out: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 16 : tensor<16xi32>
  %c = ktc.arange 0, 32 : tensor<32xi32>
  %r2 = ktc.expand_dims %r axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %c2 = ktc.expand_dims %c axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %c32 = arith.constant dense<32> : tensor<16x1xi32>
  %rs = arith.muli %r2, %c32 : tensor<16x1xi32>
  %rb = ktc.broadcast %rs : tensor<16x1xi32> -> tensor<16x32xi32>
  %cb = ktc.broadcast %c2 : tensor<1x32xi32> -> tensor<16x32xi32>
  %offs = arith.addi %rb, %cb : tensor<16x32xi32>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<16x32x!ktc.ptr<f32>>
  %q = ktc.addptr %pb, %offs : tensor<16x32x!ktc.ptr<f32>>, tensor<16x32xi32>
  %x = ktc.load %q : tensor<16x32x!ktc.ptr<f32>>
  %s = ktc.reduce sum %x axis = 1 : tensor<16x32xf32> -> tensor<16xf32>
  %ob = ktc.splat %out : !ktc.ptr<f32> -> tensor<16x!ktc.ptr<f32>>
  %o = ktc.addptr %ob, %r : tensor<16x!ktc.ptr<f32>>, tensor<16xi32>
  ktc.store %o, %s : tensor<16x!ktc.ptr<f32>>
  return
}
