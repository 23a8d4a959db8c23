// Conversions within a wave on gfx1100 (wave 32) and gfx942 (wave 64):
// ds_bpermute_b32, no LDS (group segment 0), no s_barrier.
// RUN: ktc-compile %S/../Inputs/shuffles_w32.mlir --target=gfx1100 --num-warps=1 --emit=asm | FileCheck %s
// RUN: ktc-compile %S/../Inputs/shuffles_w64.mlir --target=gfx942 --num-warps=1 --emit=asm | FileCheck %s

// CHECK-NOT: s_barrier
// CHECK: ds_bpermute_b32
// CHECK-NOT: s_barrier
// CHECK-NOT: ds_write
// CHECK-NOT: ds_store
// CHECK: .amdhsa_group_segment_fixed_size 0
