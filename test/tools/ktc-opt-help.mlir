// ktc-opt knows the ktc dialect, the upstream dialects kernels use (and those
// the host pipeline lowers through), the ktc passes and pipelines, and
// upstream's generic passes.
// RUN: ktc-opt --help | FileCheck %s
// RUN: not ktc-opt %s --no-such-pass 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: ktc-opt --show-dialects | FileCheck %s --check-prefix=DIALECTS

// CHECK: Available Dialects: {{.*}}arith{{.*}}builtin{{.*}}func{{.*}}ktc{{.*}}math{{.*}}scf
// CHECK-DAG: --canonicalize
// CHECK-DAG: --cse
// CHECK-DAG: --ktc-combine
// CHECK-DAG: --convert-ktc-to-host
// CHECK-DAG: --ktc-host-pipeline

// BAD: Unknown command line argument '--no-such-pass'

// DIALECTS: Available Dialects:
// DIALECTS-DAG: arith
// DIALECTS-DAG: func
// DIALECTS-DAG: ktc
// DIALECTS-DAG: math
// DIALECTS-DAG: scf
