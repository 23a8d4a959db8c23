// LDS is static on AMD: the code object's group segment is what the
// lowering asked for (131072 bytes for a 128x256 f32 tile changing layout,
// 4 bytes an element, rows swizzled). gfx950 gives a workgroup 160 KiB
// of LDS;
// gfx942 64 KiB, where the tile goes through in 4 pieces of 32 rows
// (32768 bytes, a barrier pair each). A 1x2x32768 slab, whose single rows
// are 128 KiB, goes in 8 pieces along its last dimension (32896 bytes:
// 2 rows of 4096 floats, padded), formerly refused
// (LLVM itself would stop with "local memory (N) exceeds limit (65536)").
// The row maxima of the same tile need none: a 2-D reduction whose waves
// hold whole rows combines in registers and lanes (ds_bpermute across the
// halves of a wave of 64).
// RUN: ktc-compile %S/../Inputs/transpose_128x256.mlir --target=gfx950 --emit=bin -o %t.hsaco
// RUN: llvm-readelf --notes %t.hsaco | FileCheck %s
// RUN: ktc-compile %S/../Inputs/transpose_128x256.mlir --target=gfx942 --emit=asm | FileCheck %s --check-prefix=PIECES
// RUN: ktc-compile %S/../Inputs/transpose_1x2x32768.mlir --target=gfx942 --num-warps=16 --emit=asm | FileCheck %s --check-prefix=GFX942
// RUN: ktc-compile %S/../Inputs/rows_128x256.mlir --target=gfx942 --emit=asm | FileCheck %s --check-prefix=ROWS

// CHECK: .group_segment_fixed_size: 131072
// CHECK: .name: transpose_tile

// GFX942-LABEL: transpose_slab:
// GFX942-COUNT-16: s_barrier
// GFX942-NOT: s_barrier
// GFX942: .amdhsa_group_segment_fixed_size 32896
// GFX942: .amdhsa_private_segment_fixed_size 0

// ROWS-LABEL: rows_max:
// ROWS-NOT: ds_write
// ROWS: ds_bpermute_b32
// ROWS: .amdhsa_group_segment_fixed_size 0
// ROWS: .amdhsa_private_segment_fixed_size 0

// PIECES-LABEL: transpose_tile:
// PIECES-COUNT-8: s_barrier
// PIECES-NOT: s_barrier
// PIECES: .amdhsa_group_segment_fixed_size 32768
// PIECES: .amdhsa_private_segment_fixed_size 0
