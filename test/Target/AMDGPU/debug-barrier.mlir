// debug_barrier: gpu.barrier becomes s_barrier between the load and the
// store (Inputs/debug-barrier.mlir).
// RUN: ktc-compile %S/../Inputs/debug-barrier.mlir --target=gfx942 --emit=asm | FileCheck %s

// CHECK-LABEL: barrier:
// CHECK: global_load_dwordx2
// CHECK: s_barrier
// CHECK-NOT: s_barrier
// CHECK: global_store_dwordx2
