// The shipped vector-add kernel: round trip, and what --canonicalize and
// --ktc-combine make of it (the README's main command runs the first).
// RUN: ktc-opt %ktc_src/examples/vector_add/vector_add.mlir | ktc-opt | FileCheck %s
// RUN: ktc-opt --canonicalize --ktc-combine --cse %ktc_src/examples/vector_add/vector_add.mlir | FileCheck %s --check-prefix=OPT

// CHECK-LABEL: func.func @add_kernel
// CHECK-SAME: attributes {ktc.constexpr = {BLOCK_SIZE = 1024 : i64}, ktc.kernel}
// CHECK: %[[PID:.*]] = ktc.program_id 0 : i32
// CHECK: %[[START:.*]] = arith.muli %[[PID]], %{{.*}} : i32
// CHECK: %[[R:.*]] = ktc.arange 0, 1024 : tensor<1024xi32>
// CHECK: %[[SB:.*]] = ktc.splat %[[START]] : i32 -> tensor<1024xi32>
// CHECK: %[[OFFS:.*]] = arith.addi %[[SB]], %[[R]] : tensor<1024xi32>
// CHECK: %[[MASK:.*]] = arith.cmpi slt, %[[OFFS]], %{{.*}} : tensor<1024xi32>
// CHECK: %[[XP:.*]] = ktc.addptr %{{.*}}, %[[OFFS]]
// CHECK: %[[X:.*]] = ktc.load %[[XP]], mask %[[MASK]] : tensor<1024x!ktc.ptr<f32>>
// CHECK: %[[YP:.*]] = ktc.addptr %{{.*}}, %[[OFFS]]
// CHECK: %[[Y:.*]] = ktc.load %[[YP]], mask %[[MASK]] : tensor<1024x!ktc.ptr<f32>>
// CHECK: %[[SUM:.*]] = arith.addf %[[X]], %[[Y]] : tensor<1024xf32>
// CHECK: %[[OP:.*]] = ktc.addptr %{{.*}}, %[[OFFS]]
// CHECK: ktc.store %[[OP]], %[[SUM]], mask %[[MASK]] : tensor<1024x!ktc.ptr<f32>>

// The optimised kernel keeps one offset computation and three accesses.
// OPT-LABEL: func.func @add_kernel
// OPT-COUNT-1: ktc.arange
// OPT-COUNT-2: ktc.load
// OPT: ktc.store
// OPT-NOT: ktc.load
