// Reductions of 2-D and 3-D blocks along every axis on sm_90: xor
// butterflies across lanes (shfl.sync.bfly), a few partials a warp in
// shared memory (2 KiB for the 128x128 f32 row and column sums, 8 KiB for
// the 8x16x32 block's three axes and for a 256x256 tile), no local memory.
// RUN: ktc-compile %S/../Inputs/sums_128x128.mlir --target=sm_90 --emit=asm | FileCheck %s --check-prefix=SUMS
// RUN: ktc-compile %S/../Inputs/cube_sums.mlir --target=sm_90 --emit=asm | FileCheck %s --check-prefix=CUBE
// RUN: sed 's/128/256/g' %S/../Inputs/sums_128x128.mlir | ktc-compile - --target=sm_90 --num-warps=8 --emit=asm | FileCheck %s --check-prefix=BIG

// SUMS-LABEL: .visible .entry sums(
// SUMS: .shared .align 16 .b8 ktc_smem[2048];
// SUMS: ld.global.v4.b32
// SUMS: shfl.sync.bfly.b32
// SUMS: bar.sync 0;
// SUMS-NOT: .local

// CUBE-LABEL: .visible .entry cube_sums(
// CUBE: .shared .align 16 .b8 ktc_smem[8288];
// CUBE: shfl.sync.bfly.b32
// CUBE-NOT: .local

// BIG-LABEL: .visible .entry sums(
// BIG: .shared .align 16 .b8 ktc_smem[8192];
// BIG-NOT: .local
