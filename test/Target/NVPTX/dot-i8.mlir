// i8 x i8 -> i32 dots on NVIDIA's tensor cores: mma.sync m16n8k32 s8
// (sm_80 and later; sm_90a too: ktc has no wgmma s8), four i8 a 32-bit
// register; sm_75 and blocks smaller than the instruction multiply in
// integer mads. ptxas accepts the PTX (dot-i8-ptxas.mlir).
// RUN: ktc-compile %S/../Inputs/dot-i8.mlir --target=sm_80 --emit=asm | FileCheck %s
// RUN: ktc-compile %S/../Inputs/dot-i8.mlir --target=sm_90a --emit=asm | FileCheck %s
// RUN: ktc-compile %S/../Inputs/dot-i8.mlir --target=sm_75 --emit=asm | FileCheck %s --check-prefix=SM75

// 64x64x64 over 4 warps: 32 16x8 tiles (8 a warp), 2 K steps of 32.
// CHECK-LABEL: .entry dot_i8(
// CHECK-NOT: wgmma
// CHECK-COUNT-16: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// CHECK-NOT: mma.sync
// CHECK: ret;
// 16x16x64: 2 tiles, 2 K steps.
// CHECK-LABEL: .entry dot_i8_16(
// CHECK-COUNT-2: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// CHECK-NOT: mma.sync
// CHECK: ret;
// CHECK-LABEL: .entry dot_i8_fma(
// CHECK-NOT: mma.sync
// CHECK: ret;

// SM75-NOT: mma.sync
