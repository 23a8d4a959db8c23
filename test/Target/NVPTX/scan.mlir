// A 1024-element f32 cumsum on sm_90 (4 warps of 32): 5 lane bits, each an
// exact shfl.sync.bfly of each of the 8 registers' totals, then the two
// warp bits through 256 bytes of shared memory (a slot per warp and
// register) with two bar.sync; no local
// memory.
// RUN: ktc-compile %s --target=sm_90 --emit=asm | FileCheck %s
// CHECK-LABEL: .visible .entry cumsum(
// CHECK: .shared .align 16 .b8 ktc_smem[256];
// CHECK-COUNT-40: shfl.sync.bfly.b32
// CHECK-NOT: shfl.sync
// CHECK: bar.sync
// CHECK: bar.sync
// CHECK-NOT: bar.sync
// CHECK-NOT: .local
// CHECK: ret;
func.func @cumsum(%p: !ktc.ptr<f32>, %out: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 1024 : tensor<1024xi32>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
  %pp = ktc.addptr %pb, %r : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
  %x = ktc.load %pp : tensor<1024x!ktc.ptr<f32>>
  %c = ktc.scan %x axis = 0 : tensor<1024xf32> -> tensor<1024xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    ktc.scan_return %s : f32
  }
  %ob = ktc.splat %out : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
  %o = ktc.addptr %ob, %r : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
  ktc.store %o, %c : tensor<1024x!ktc.ptr<f32>>
  return
}
