// A 256x256 f32 tile stored transposed (256 KiB, past sm_90's 227 KiB a
// block) goes through shared memory in 2 pieces of 128 KiB (dynamic shared
// memory), a barrier pair each; no local memory.
// RUN: ktc-compile %S/../Inputs/transpose_256x256.mlir --target=sm_90 --num-warps=16 --emit=asm | FileCheck %s

// CHECK: // ktc.dynamic_shared_bytes 131072
// CHECK: .extern .shared .align 16 .b8 ktc_smem[];
// CHECK-LABEL: .entry transpose_tile(
// CHECK-NOT: .local
// CHECK-COUNT-4: bar.sync
// CHECK-NOT: bar.sync
