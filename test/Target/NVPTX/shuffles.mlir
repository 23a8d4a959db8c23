// An 8x4 tile transposed by one warp on sm_90: the layout change is a warp
// shuffle (shfl.sync.idx), no shared memory, no bar.sync.
// RUN: ktc-compile %S/../Inputs/small_trans_8x4.mlir --target=sm_90 --num-warps=1 --emit=asm | FileCheck %s

// CHECK-NOT: .shared
// CHECK-LABEL: .visible .entry small_trans(
// CHECK-NOT: bar.sync
// CHECK: shfl.sync.idx.b32
// CHECK-NOT: bar.sync
// CHECK-NOT: .shared
// CHECK: ret;
