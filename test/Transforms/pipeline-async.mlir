// RUN: ktc-opt %S/../Target/Inputs/matmul-loop.mlir --ktc-assign-layouts="num-warps=4 wave-size=32 arch=sm_90" --ktc-pipeline-async="target=sm_90" --cse --canonicalize | FileCheck %s
// RUN: ktc-opt %S/../Target/Inputs/matmul-loop.mlir --ktc-assign-layouts="num-warps=4 wave-size=32 arch=sm_80" --ktc-pipeline-async="target=sm_80 num-stages=2" --cse --canonicalize | FileCheck %s --check-prefix=TWO
// RUN: ktc-opt %S/../Target/Inputs/matmul-loop.mlir --ktc-assign-layouts="num-warps=4 wave-size=64 arch=gfx942" --ktc-pipeline-async="target=gfx942" | FileCheck %s --check-prefix=NONE
// RUN: ktc-opt %S/../Target/Inputs/matmul-loop.mlir --ktc-assign-layouts="num-warps=4 wave-size=32 arch=sm_75" --ktc-pipeline-async="target=sm_75" | FileCheck %s --check-prefix=NONE
// RUN: ktc-opt %S/../Target/Inputs/matmul-loop.mlir --ktc-assign-layouts="num-warps=4 wave-size=32 arch=sm_90" --ktc-pipeline-async="target=sm_90 num-stages=1" | FileCheck %s --check-prefix=NONE

// num_stages = 3 on sm_90: a and b get buffers of 3 slots each (laid out
// for 16-byte copies and ldmatrix reads: chunks of 8 halves, swizzled);
// the prologue copies iterations 0 and 1 into slots 0 and 1, a group each;
// every iteration waits until 1 group is in flight (its own has landed),
// refills the slot before its own with iteration k + 2 (masked off past K),
// and the dot reads its slot.
// CHECK-LABEL: func.func @matmul
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i32
// CHECK: %[[A:.*]] = ktc.local_alloc {{{.*}}vec = 8 : i64} : <3x64x32xf16>
// CHECK: %[[B:.*]] = ktc.local_alloc {{{.*}}vec = 8 : i64} : <3x32x64xf16>
// CHECK: ktc.async_copy %{{.*}}, %[[A]][%[[C0]]], mask %{{.*}} : tensor<64x32x!ktc.ptr<f16>, #blocked{{[0-9]*}}>, tensor<64x32xi1, #blocked{{[0-9]*}}> -> <3x64x32xf16>
// CHECK: ktc.async_copy %{{.*}}, %[[B]][%[[C0]]], mask
// CHECK-NEXT: ktc.async_commit
// CHECK: ktc.async_copy %{{.*}}, %[[A]][%[[C1]]], mask
// CHECK: ktc.async_copy %{{.*}}, %[[B]][%[[C1]]], mask
// CHECK-NEXT: ktc.async_commit
// CHECK: scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[SLOT:.*]] = %[[C0]]) -> (tensor<64x64xf32, #ktc.mma<{{.*}}>>, i32)
// CHECK-NEXT: ktc.async_wait {pending = 1 : i32}
// CHECK: %[[PREV:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
// CHECK: ktc.async_copy %{{.*}}, %[[A]][%[[PREV]]], mask
// CHECK: ktc.async_copy %{{.*}}, %[[B]][%[[PREV]]], mask
// CHECK-NEXT: ktc.async_commit
// CHECK-NOT: ktc.load
// CHECK: %[[X:.*]] = ktc.local_load %[[A]][%[[SLOT]]] : <3x64x32xf16> -> tensor<64x32xf16, #blocked{{[0-9]*}}>
// CHECK: %[[Y:.*]] = ktc.local_load %[[B]][%[[SLOT]]] : <3x32x64xf16> -> tensor<32x64xf16, #blocked{{[0-9]*}}>
// CHECK: ktc.dot %[[X]], %[[Y]], %[[ACC]]
// CHECK: scf.yield {{.*}}, i32{{$}}
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: ktc.async_wait {pending = 0 : i32}
// CHECK: ktc.store

// num_stages = 2: one slot in flight while the other is read.
// TWO-LABEL: func.func @matmul
// TWO: ktc.local_alloc {{.*}} : <2x64x32xf16>
// TWO: ktc.local_alloc {{.*}} : <2x32x64xf16>
// TWO-COUNT-1: ktc.async_commit
// TWO: scf.for
// TWO-NEXT: ktc.async_wait {pending = 0 : i32}

// No asynchronous copies on AMD and before sm_80, nor with num_stages = 1:
// the loads stay (for ktc-pipeline-loads).
// NONE-LABEL: func.func @matmul
// NONE-NOT: ktc.local_alloc
// NONE: ktc.load
// NONE: ktc.load
// NONE: ktc.dot
