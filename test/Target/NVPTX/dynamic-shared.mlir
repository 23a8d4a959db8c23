// A kernel needing more shared memory than PTX declares statically (48 KiB)
// declares it dynamic (.extern .shared) and says how much in a comment line
// the CUDA runtime reads (lib/Conversion/SharedMemory.h); ptxas accepts it
// for sm_90 (dynamic-shared-ptxas.mlir). Under 48 KiB it stays static
// (softmax.mlir).
// RUN: ktc-compile %S/../Inputs/transpose_128x256.mlir --target=sm_90 --emit=asm | FileCheck %s
// sm_86 allows 99 KiB a block: the tile goes in 2 pieces of 64 rows, 65536
// bytes, still dynamic.
// RUN: ktc-compile %S/../Inputs/transpose_128x256.mlir --target=sm_86 --emit=asm | FileCheck %s --check-prefix=SM86
// A 1x2x32768 slab (128 KiB, one row of it alone more than 99 KiB) goes in
// pieces along its last dimension (formerly refused).
// RUN: ktc-compile %S/../Inputs/transpose_1x2x32768.mlir --target=sm_86 --num-warps=16 --emit=asm | FileCheck %s --check-prefix=SM86-SLAB

// CHECK: // ktc.dynamic_shared_bytes 131072
// CHECK: .extern .shared .align 16 .b8 ktc_smem[];
// CHECK: .visible .entry transpose_tile(
// CHECK-NOT: .shared .align 16 .b8 ktc_smem[
// CHECK: st.shared.b32
// CHECK: bar.sync 0;
// CHECK: ld.shared.b32

// SM86: // ktc.dynamic_shared_bytes 65536
// SM86: .extern .shared .align 16 .b8 ktc_smem[];
// SM86-SLAB: // ktc.dynamic_shared_bytes 65664
// SM86-SLAB-COUNT-8: bar.sync
// SM86-SLAB-NOT: bar.sync
// SM86-SLAB-NOT: .local
