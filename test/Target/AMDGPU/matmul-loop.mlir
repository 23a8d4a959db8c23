// A matmul's K loop on AMD's matrix cores (Inputs/matmul-loop.mlir: B
// loaded row-major, n fastest): the dot stages B in LDS transposed (k
// fastest), so that each lane reads its run of consecutive k of a column
// as one vector (gfx942: 4 k, ds_read_b64; gfx1100: 16 k, two
// ds_load_b128), not 2 bytes at a time. MFMA computes C^T (B given as
// its A), so a lane holds runs of 4 consecutive n of C: f32 C is stored
// 16 bytes at a time. No scratch.
// RUN: ktc-compile %S/../Inputs/matmul-loop.mlir --target=gfx942 --emit=asm | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: ktc-compile %S/../Inputs/matmul-loop.mlir --target=gfx1100 --emit=asm | FileCheck %s --check-prefixes=CHECK,GFX1100
// RUN: ktc-compile %S/../Inputs/matmul-loop.mlir --target=gfx1200 --emit=asm | FileCheck %s --check-prefixes=CHECK,GFX1200

// CHECK-LABEL: matmul:
// GFX942-NOT: ds_read_u16
// GFX942-COUNT-8: ds_read_b64
// GFX942-NOT: ds_read_u16
// GFX942: v_mfma_f32_32x32x8_f16
// GFX942-NOT: global_store_dword{{$| }}
// GFX942-COUNT-4: global_store_dwordx4
// GFX942-NOT: global_store_dword{{$| }}
// GFX1100-NOT: ds_load_u16
// GFX1100-COUNT-16: ds_load_b128
// GFX1100-NOT: ds_load_u16
// GFX1100: v_wmma_f32_16x16x16_f16
// gfx1200 (8 k a lane): one ds_load_b128 a fragment of B too
// (examples/matmul-amd.test has the 128x128x32 tile, where the 2-byte
// reads used to win).
// GFX1200-NOT: ds_load_u16
// GFX1200-COUNT-8: ds_load_b128
// GFX1200-NOT: ds_load_u16
// GFX1200: v_wmma_f32_16x16x16_f16
// CHECK-NOT: scratch_
// CHECK: s_endpgm
// CHECK: .amdhsa_private_segment_fixed_size 0
// CHECK: .private_segment_fixed_size: 0
