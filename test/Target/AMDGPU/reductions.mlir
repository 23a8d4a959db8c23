// Reductions of 2-D and 3-D blocks along every axis stay out of LDS but for
// a few partials a wave (one copy of each): the 128x128 f32 row and column
// sums take 2 KiB, the 8x16x32 block's sums along each of its three axes
// 8 KiB (each of 4 waves writes the 512 partial sums of its slab), a
// 256x256 tile (2^16 elements, 8 waves) 8 KiB. No
// scratch, no spill. Until the tiles issue a 64x128 f32 sum needed 64 KiB
// and did not compile.
// RUN: ktc-compile %S/../Inputs/sums_128x128.mlir --target=gfx942 --emit=asm | FileCheck %s --check-prefix=SUMS942
// RUN: ktc-compile %S/../Inputs/sums_128x128.mlir --target=gfx1100 --emit=asm | FileCheck %s --check-prefix=SUMS1100
// RUN: ktc-compile %S/../Inputs/cube_sums.mlir --target=gfx942 --emit=asm | FileCheck %s --check-prefix=CUBE
// RUN: ktc-compile %S/../Inputs/cube_sums.mlir --target=gfx1100 --emit=asm | FileCheck %s --check-prefix=CUBE
// RUN: sed 's/128/256/g' %S/../Inputs/sums_128x128.mlir | ktc-compile - --target=gfx942 --num-warps=8 --emit=asm | FileCheck %s --check-prefix=BIG

// SUMS942-LABEL: sums:
// SUMS942: global_load_dwordx4
// SUMS942: v_add_f32_dpp {{.*}} quad_perm:[1,0,3,2]
// SUMS942: ds_bpermute_b32
// SUMS942: s_barrier
// SUMS942-NOT: scratch_
// SUMS942: .amdhsa_group_segment_fixed_size 2048
// SUMS942: .amdhsa_private_segment_fixed_size 0

// SUMS1100-LABEL: sums:
// SUMS1100: global_load_b128
// SUMS1100-NOT: scratch_
// SUMS1100: .amdhsa_group_segment_fixed_size 2048
// SUMS1100: .amdhsa_private_segment_fixed_size 0

// CUBE-LABEL: cube_sums:
// CUBE: ds_swizzle_b32 {{.*}} offset:swizzle(SWAP,{{[0-9]+}})
// CUBE-NOT: scratch_
// CUBE: .amdhsa_group_segment_fixed_size 8288
// CUBE: .amdhsa_private_segment_fixed_size 0

// BIG-LABEL: sums:
// BIG-NOT: scratch_
// BIG: .amdhsa_group_segment_fixed_size 8192
// BIG: .amdhsa_private_segment_fixed_size 0
// BIG: .vgpr_spill_count: 0
