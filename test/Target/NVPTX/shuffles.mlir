// Conversions within a warp on sm_90: shfl.sync.idx, no shared memory, no
// bar.sync (test/Target/Inputs/shuffles_w32.mlir says which moves what).
// RUN: ktc-compile %S/../Inputs/shuffles_w32.mlir --target=sm_90 --num-warps=1 --emit=asm | FileCheck %s

// CHECK-NOT: .shared
// CHECK-LABEL: .visible .entry lanes(
// CHECK-NOT: bar.sync
// CHECK: shfl.sync.idx.b32
// CHECK-NOT: bar.sync
// CHECK: ret;
// CHECK-LABEL: .visible .entry rows(
// CHECK-NOT: bar.sync
// CHECK: shfl.sync.idx.b32
// CHECK-NOT: bar.sync
// CHECK: ret;
// CHECK-LABEL: .visible .entry wide(
// CHECK-NOT: bar.sync
// CHECK: shfl.sync.idx.b32
// CHECK-NOT: bar.sync
// CHECK: ret;
