// The whole host pipeline takes every shipped kernel to the LLVM dialect
// only: no ktc, tensor, linalg, memref or scf op is left.
// RUN: ktc-opt --ktc-host-pipeline %ktc_src/examples/vector_add/vector_add.mlir | FileCheck %s --check-prefix=ADD
// RUN: ktc-opt --ktc-host-pipeline %ktc_src/examples/softmax/softmax_naive.mlir | FileCheck %s
// RUN: ktc-opt --ktc-host-pipeline %ktc_src/examples/softmax/softmax_online.mlir | FileCheck %s
// RUN: ktc-opt --ktc-host-pipeline %ktc_src/examples/softmax/softmax_fused.mlir | FileCheck %s

// ADD: llvm.func @add_kernel(%{{.*}}: i64 {{.*}}, %{{.*}}: i64 {{.*}}, %{{.*}}: i64 {{.*}}, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32)
// ADD-NOT: {{^ *(%[^ ]+ = )?(ktc|tensor|linalg|memref|scf|arith|cf|math)\.}}
// ADD: llvm.load
// ADD: llvm.fadd
// ADD: llvm.store

// CHECK: llvm.func @softmax_
// CHECK-NOT: {{^ *(%[^ ]+ = )?(ktc|tensor|linalg|memref|scf|arith|cf|math)\.}}
// CHECK: llvm.intr.exp
