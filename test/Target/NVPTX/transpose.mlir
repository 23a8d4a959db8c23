// A tile stored transposed on sm_90: 16-byte loads along rows, one trip
// through shared memory (16384 bytes, swizzled, static), 16-byte
// stores along columns; ptxas accepts it without spilling.
// RUN: ktc-compile %S/../Inputs/transpose_64x64_aligned.mlir --target=sm_90 --emit=asm | FileCheck %s

// CHECK-LABEL: .visible .entry transpose_tile(
// CHECK: .shared .align 16 .b8 ktc_smem[16384];
// CHECK-COUNT-8: ld.global.v4.b32
// CHECK-COUNT-8: st.shared.v4.b32
// CHECK: bar.sync 0;
// CHECK: ld.shared.b32
// CHECK: st.global.v4.b32
// CHECK-NOT: st.global.b32
// CHECK-NOT: .local
