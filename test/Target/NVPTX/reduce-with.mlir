// ktc.reduce_with on sm_90: the argmax of each row of a 64x128 f32 tile
// (value-and-index pairs: both moved by shfl.sync.bfly, the region's
// compares and selects after each) and the xor of a 1-D block of 1024 i32
// (the waves' partials through shared memory, bar.sync). No local memory.
// RUN: ktc-compile %S/../Inputs/argmax_rows.mlir --target=sm_90 --emit=asm | FileCheck %s

// CHECK-LABEL: .visible .entry argmax_rows(
// CHECK: .shared .align 16 .b8 ktc_smem[
// CHECK: shfl.sync.bfly.b32
// CHECK: setp.{{.*}}.f32
// CHECK: selp.b32
// CHECK: xor.b32
// CHECK: bar.sync 0;
// CHECK-NOT: .local
