// Blackwell, sm_100 (B200) and sm_120 (RTX 50): the PTX version is the
// SM's own minimum in LLVM 22 (8.6 and 8.7; 8.0, ktc's version up to sm_90a,
// is a fatal error inside LLVM there). Aligned vector-add loads and stores
// 16 bytes at a time as pairs of b64 (sm_90: v4.b32) and adds two floats
// an instruction (add.rn.f32x2, new in PTX 8.6 for sm_100 and later); online
// softmax is sm_90's: shfl.sync butterflies, bar.sync and 64 bytes of
// shared memory. Shared memory past 48 KiB is
// dynamic; a block may have 227 KiB on sm_100 and 99 KiB on sm_120
// (lib/Target/Occupancy.cpp). blackwell-ptxas.mlir assembles the PTX.
// RUN: ktc-compile %S/../Inputs/add_spec16.mlir --target=sm_100 --emit=asm | FileCheck %s --check-prefixes=ADD,SM100
// RUN: ktc-compile %S/../Inputs/add_spec16.mlir --target=sm_120 --emit=asm | FileCheck %s --check-prefixes=ADD,SM120
// RUN: ktc-compile %S/../Inputs/add_spec16.mlir --target=sm_100a --emit=asm | FileCheck %s --check-prefixes=ADD,SM100A
// RUN: ktc-compile %S/../Inputs/add_spec16.mlir --target=sm_120a --emit=asm | FileCheck %s --check-prefixes=ADD,SM120A
// RUN: ktc-compile %ktc_src/examples/softmax/softmax_online.mlir --target=sm_100 --emit=asm | FileCheck %s --check-prefixes=SOFTMAX,SM100
// RUN: ktc-compile %ktc_src/examples/softmax/softmax_online.mlir --target=sm_120 --emit=asm | FileCheck %s --check-prefixes=SOFTMAX,SM120
// RUN: ktc-compile %S/../Inputs/transpose_128x256.mlir --target=sm_100 --emit=asm | FileCheck %s --check-prefix=DYNAMIC
// RUN: ktc-compile %S/../Inputs/transpose_1x2x32768.mlir --target=sm_120 --num-warps=16 --emit=asm | FileCheck %s --check-prefix=SM120-PIECES

// SM100: .version 8.6
// SM100-NEXT: .target sm_100
// SM100A: .version 8.6
// SM100A-NEXT: .target sm_100a
// SM120: .version 8.7
// SM120-NEXT: .target sm_120
// SM120A: .version 8.7
// SM120A-NEXT: .target sm_120a

// ADD: .visible .entry add_kernel(
// ADD: .reqntid 128, 1, 1
// ADD-COUNT-4: ld.global.v2.b64
// ADD: add.rn.f32x2
// ADD: st.global.v2.b64
// ADD: add.rn.f32x2
// ADD: st.global.v2.b64
// ADD-NOT: ld.global.b32
// ADD-NOT: .local

// SOFTMAX: .visible .entry softmax_online(
// SOFTMAX: .reqntid 128, 1, 1
// SOFTMAX: .shared .align 16 .b8 ktc_smem[64];
// SOFTMAX: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// SOFTMAX: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// SOFTMAX: bar.sync 0;
// SOFTMAX: ex2.approx.ftz.f32
// SOFTMAX-NOT: .local

// DYNAMIC: .version 8.6
// DYNAMIC: .target sm_100
// DYNAMIC: // ktc.dynamic_shared_bytes 131072
// DYNAMIC: .extern .shared .align 16 .b8 ktc_smem[];

// A 1x2x32768 slab (128 KiB) past sm_120's 99 KiB: 4 pieces along its
// last dimension.
// SM120-PIECES: // ktc.dynamic_shared_bytes 65664
