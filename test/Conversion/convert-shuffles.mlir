// Layout conversions within a warp: warp shuffles, no shared memory and no
// barrier (lib/Conversion/WarpShuffles.cpp).
// RUN: ktc-opt %S/../Target/Inputs/shuffles_w32.mlir --convert-ktc-to-llvm="target=sm_90 num-warps=1" | FileCheck %s
// RUN: ktc-opt %S/../Target/Inputs/shuffles_w32.mlir --convert-ktc-to-llvm="target=gfx1100 num-warps=1" | FileCheck %s --check-prefix=AMD

// CHECK-NOT: ktc_smem
// @lanes: lanes trade places, one shuffle an element (two blocks).
// CHECK-LABEL: func.func @lanes
// CHECK-NOT: nvvm.barrier
// CHECK-COUNT-2: nvvm.shfl.sync  idx
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier
// CHECK: return
// @rows: 16 registers, two shuffles each (a register bit moves into the
// lanes), a select keeping the thread's: 32 a block, 64 for the two.
// CHECK-LABEL: func.func @rows
// CHECK-NOT: nvvm.barrier
// CHECK-COUNT-64: nvvm.shfl.sync  idx
// CHECK-NOT: nvvm.shfl.sync
// CHECK: arith.select
// CHECK-NOT: nvvm.barrier
// CHECK: return
// @wide: i64 values and pointers as two 32-bit words each.
// CHECK-LABEL: func.func @wide
// CHECK: llvm.ptrtoint
// CHECK-NOT: nvvm.barrier
// CHECK: nvvm.shfl.sync  idx
// CHECK: return

// AMD-NOT: ktc_smem
// AMD-LABEL: func.func @lanes
// AMD-NOT: rocdl.barrier
// AMD-COUNT-2: rocdl.ds_bpermute
// AMD-NOT: rocdl.barrier
// AMD: return
