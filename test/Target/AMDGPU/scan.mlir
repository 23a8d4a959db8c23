// A 1024-element f32 cumsum on gfx942 (4 waves of 64): each lane bit one
// exact xor move of each of the 4 registers' totals -- DPP quad_perm for
// xor 1 and 2, row_ror:8 for xor 8, ds_swizzle SWAP for 4 and 16,
// ds_bpermute for 32 --, the two wave bits through 128 bytes of LDS (a
// slot per wave and register) with two s_barrier, no scratch.
// RUN: ktc-compile %s --target=gfx942 --emit=asm | FileCheck %s
// CHECK-LABEL: cumsum:
// CHECK: _dpp {{.*}} quad_perm:[1,0,3,2]
// CHECK: _dpp {{.*}} quad_perm:[2,3,0,1]
// CHECK: ds_swizzle_b32 {{.*}} offset:swizzle(SWAP,4)
// CHECK: _dpp {{.*}} row_ror:8
// CHECK: ds_swizzle_b32 {{.*}} offset:swizzle(SWAP,16)
// CHECK: ds_bpermute_b32
// CHECK: s_barrier
// CHECK: s_barrier
// CHECK-NOT: s_barrier
// CHECK-NOT: scratch_
// CHECK: s_endpgm
// CHECK: .amdhsa_group_segment_fixed_size 128
// CHECK: .amdhsa_private_segment_fixed_size 0
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
