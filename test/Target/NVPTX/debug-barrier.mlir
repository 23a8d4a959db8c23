// debug_barrier: gpu.barrier becomes bar.sync 0 between the load and the
// store (Inputs/debug-barrier.mlir); the host drops it.
// RUN: ktc-compile %S/../Inputs/debug-barrier.mlir --target=sm_90 --emit=asm | FileCheck %s
// RUN: ktc-compile %S/../Inputs/debug-barrier.mlir --target=host --emit=llvm | FileCheck %s --check-prefix=HOST

// CHECK-LABEL: .entry barrier(
// CHECK: ld.global.v4.b32
// CHECK: bar.sync 0;
// CHECK-NOT: bar.sync
// CHECK: st.global.v4.b32

// HOST-LABEL: define {{.*}}@barrier(
// HOST-NOT: barrier
// HOST: ret void
