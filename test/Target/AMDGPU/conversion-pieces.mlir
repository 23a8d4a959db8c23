// A 256x256 f32 tile stored transposed (256 KiB, past gfx942's and
// gfx1100's 64 KiB of LDS) goes through LDS in 8 pieces of 32 KiB, one
// after the other (a barrier pair each), each read once where the
// register alone tells its piece (64 reads a thread on gfx942's 16 waves of
// 64, 128 on gfx1100's 16 of 32), no scratch. The 2x32x1024 slab cut
// along its middle dimension lays each piece out as a block of its own
// shape (32 KiB; its addresses once ran past the piece: the gfx942
// emulator stopped on an LDS access out of range).
// RUN: ktc-compile %S/../Inputs/transpose_256x256.mlir --target=gfx942 --num-warps=16 --emit=asm | FileCheck %s --check-prefix=GFX942
// RUN: ktc-compile %S/../Inputs/transpose_256x256.mlir --target=gfx1100 --num-warps=16 --emit=asm | FileCheck %s --check-prefix=GFX1100

// GFX942-LABEL: transpose_tile:
// GFX942-COUNT-16: s_barrier
// GFX942-NOT: s_barrier
// GFX942-NOT: scratch_
// GFX942: .amdhsa_group_segment_fixed_size 32768
// GFX942: .amdhsa_private_segment_fixed_size 0

// GFX1100-LABEL: transpose_tile:
// GFX1100-COUNT-16: s_barrier
// GFX1100-NOT: s_barrier
// GFX1100-NOT: scratch_
// GFX1100: .amdhsa_group_segment_fixed_size 32768
// GFX1100: .amdhsa_private_segment_fixed_size 0

// RUN: ktc-compile %S/../Inputs/transpose_256x256.mlir --target=gfx942 --num-warps=16 --emit=asm | grep -c ds_read2st64_b32 | FileCheck %s --check-prefix=READS
// READS: 32
// RUN: ktc-compile %S/../Inputs/transpose_2x32x1024.mlir --target=gfx942 --num-warps=16 --emit=asm | FileCheck %s --check-prefix=SLAB
// RUN: ktc-compile %S/../Inputs/transpose_2x32x1024.mlir --target=gfx942 --num-warps=16 --emit=asm | grep -c ds_read_b32 | FileCheck %s --check-prefix=SLAB-READS
// SLAB-LABEL: transpose_slab:
// SLAB-COUNT-16: s_barrier
// SLAB-NOT: s_barrier
// SLAB: .amdhsa_group_segment_fixed_size 32768
// SLAB-READS: 64
