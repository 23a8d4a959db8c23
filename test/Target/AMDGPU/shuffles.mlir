// A small tile transposed by one wave on gfx1100 (8x4, wave 32) and gfx942
// (8x8, wave 64): ds_bpermute_b32, no LDS (group segment 0), no s_barrier.
// RUN: ktc-compile %S/../Inputs/small_trans_8x4.mlir --target=gfx1100 --num-warps=1 --emit=asm | FileCheck %s
// RUN: ktc-compile %S/../Inputs/small_trans_8x8.mlir --target=gfx942 --num-warps=1 --emit=asm | FileCheck %s

// CHECK-LABEL: small_trans:
// CHECK-NOT: s_barrier
// CHECK: ds_bpermute_b32
// CHECK-NOT: s_barrier
// CHECK-NOT: ds_write
// CHECK-NOT: ds_store
// CHECK: .amdhsa_group_segment_fixed_size 0
