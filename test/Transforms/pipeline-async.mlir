// RUN: ktc-opt %S/../Target/Inputs/matmul-loop.mlir --ktc-assign-layouts="num-warps=4 wave-size=32 arch=sm_90" --ktc-pipeline-async="target=sm_90" --cse --canonicalize | FileCheck %s
// RUN: ktc-opt %S/../Target/Inputs/matmul-loop.mlir --ktc-assign-layouts="num-warps=4 wave-size=32 arch=sm_80" --ktc-pipeline-async="target=sm_80 num-stages=2" --cse --canonicalize | FileCheck %s --check-prefix=TWO
// RUN: ktc-opt %S/../Target/Inputs/matmul-loop.mlir --ktc-assign-layouts="num-warps=4 wave-size=32 arch=sm_90a" --ktc-pipeline-async="target=sm_90a" --cse --canonicalize | FileCheck %s --check-prefix=WGMMA
// RUN: ktc-opt %S/../Target/Inputs/matmul-loop.mlir --ktc-assign-layouts="num-warps=4 wave-size=32 arch=sm_90a" --ktc-pipeline-async="target=sm_90a copies-after-dots=true" --cse --canonicalize | FileCheck %s --check-prefix=AFTER
// RUN: ktc-opt %S/../Target/Inputs/matmul-loop.mlir --ktc-assign-layouts="num-warps=4 wave-size=64 arch=gfx942" --ktc-pipeline-async="target=gfx942" | FileCheck %s --check-prefix=NONE
// RUN: ktc-opt %S/../Target/Inputs/matmul-loop.mlir --ktc-assign-layouts="num-warps=4 wave-size=32 arch=sm_75" --ktc-pipeline-async="target=sm_75" | FileCheck %s --check-prefix=NONE
// RUN: ktc-opt %S/../Target/Inputs/matmul-loop.mlir --ktc-assign-layouts="num-warps=4 wave-size=32 arch=sm_90" --ktc-pipeline-async="target=sm_90 num-stages=1" | FileCheck %s --check-prefix=NONE
// RUN: ktc-opt %S/../Target/Inputs/matmul-carried.mlir --ktc-assign-layouts="num-warps=4 wave-size=32 arch=sm_90" --ktc-pipeline-async="target=sm_90" --cse --canonicalize | FileCheck %s --check-prefix=CARRIED
// RUN: ktc-opt %S/../Target/Inputs/matmul-carried.mlir --ktc-assign-layouts="num-warps=4 wave-size=64 arch=gfx942" --ktc-pipeline-async="target=gfx942" --ktc-pipeline-loads --cse --canonicalize | FileCheck %s --check-prefix=REGS

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
// The copies' pointers are affine in k (a + am * stride_am + k + j and
// b + (k + j) * stride_bk + bn): the loop carries them, starting at
// iteration 2's, and advances them by 32 and 32 * stride_bk.
// CHECK: %[[STRIDEB:.*]] = arith.muli %{{.*}}, %{{.*}} : i32
// CHECK: scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[SLOT:.*]] = %[[C0]], %[[PA:.*]] = %{{.*}}, %[[PB:.*]] = %{{.*}}) -> (tensor<64x64xf32, #ktc.mma<{{.*}}>>, i32, tensor<64x32x!ktc.ptr<f16>, #blocked{{[0-9]*}}>, tensor<32x64x!ktc.ptr<f16>, #blocked{{[0-9]*}}>)
// CHECK-NEXT: ktc.async_wait {pending = 1 : i32}
// CHECK: %[[PREV:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
// CHECK: ktc.async_copy %[[PA]], %[[A]][%[[PREV]]], mask
// CHECK: ktc.async_copy %[[PB]], %[[B]][%[[PREV]]], mask
// CHECK-NEXT: ktc.async_commit
// CHECK-NOT: ktc.load
// CHECK: %[[X:.*]] = ktc.local_load %[[A]][%[[SLOT]]] : <3x64x32xf16> -> tensor<64x32xf16, #blocked{{[0-9]*}}>
// CHECK: %[[Y:.*]] = ktc.local_load %[[B]][%[[SLOT]]] : <3x32x64xf16> -> tensor<32x64xf16, #blocked{{[0-9]*}}>
// CHECK: ktc.dot %[[X]], %[[Y]], %[[ACC]]
// CHECK: %[[NA:.*]] = ktc.addptr %[[PA]], %{{.*}} : tensor<64x32x!ktc.ptr<f16>
// CHECK: %[[BY:.*]] = ktc.splat %[[STRIDEB]] : i32 -> tensor<32x64xi32
// CHECK: %[[NB:.*]] = ktc.addptr %[[PB]], %[[BY]] : tensor<32x64x!ktc.ptr<f16>
// CHECK: scf.yield %{{.*}}, %{{.*}}, %[[NA]], %[[NB]] :
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: ktc.async_wait {pending = 0 : i32}
// CHECK: ktc.store

// wgmma on sm_90a, one group left in flight: a slot more (the slot
// refilled is the one read two iterations back); the pointers carried.
// (Copies after the dot, as Triton orders its Hopper loops, measured no
// better on an H100: docs/bench/h200/matmul.md, session 14.)
// WGMMA-LABEL: func.func @matmul
// WGMMA: %[[A:.*]] = ktc.local_alloc {{.*}} : <4x64x32xf16>
// WGMMA: %[[B:.*]] = ktc.local_alloc {{.*}} : <4x32x64xf16>
// WGMMA: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[SLOT:.*]] = %{{.*}}, %[[PA:.*]] = %{{.*}}, %[[PB:.*]] = %{{.*}})
// WGMMA-NEXT: ktc.async_wait {pending = 1 : i32}
// WGMMA: ktc.async_copy %[[PA]], %[[A]]
// WGMMA: ktc.async_copy %[[PB]], %[[B]]
// WGMMA-NEXT: ktc.async_commit
// WGMMA: ktc.dot {{.*}} {ktc.dot_pending = 1 : i32}
// WGMMA: scf.yield

// copies-after-dots: Triton's order on Hopper. The dot (which waits for
// its previous iteration's group), a second barrier, then the copies into
// the slot the previous iteration read: S slots, not S + 1.
// AFTER-LABEL: func.func @matmul
// AFTER: %[[A:.*]] = ktc.local_alloc {{.*}} : <3x64x32xf16>
// AFTER: %[[B:.*]] = ktc.local_alloc {{.*}} : <3x32x64xf16>
// AFTER: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[SLOT:.*]] = %{{.*}}, %[[PA:.*]] = %{{.*}}, %[[PB:.*]] = %{{.*}})
// AFTER-NEXT: ktc.async_wait {pending = 1 : i32}
// AFTER-NOT: ktc.async_copy
// AFTER: ktc.local_load %[[A]][%[[SLOT]]]
// AFTER: ktc.local_load %[[B]][%[[SLOT]]]
// AFTER: ktc.dot {{.*}} {ktc.dot_pending = 1 : i32}
// AFTER-NEXT: ktc.async_wait {pending = 1 : i32}
// AFTER: ktc.async_copy %[[PA]], %[[A]]
// AFTER: ktc.async_copy %[[PB]], %[[B]]
// AFTER-NEXT: ktc.async_commit
// AFTER: scf.yield

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

// Triton's spelling: the loop carries the tiles' pointers and advances them
// by a step defined before it. Iteration k + 2's copies read the carried
// pointers advanced twice (a 16-byte-wide pointer block still: the
// analysis follows the carried values), the prologue's read the starts
// advanced 0 and 1 times, and the loop still advances its own.
// CARRIED-LABEL: func.func @matmul
// CARRIED-DAG: %[[STEPA:.*]] = arith.constant dense<32> : tensor<64x32xi32, #blocked{{[0-9]*}}>
// CARRIED-DAG: %[[TWICEA:.*]] = arith.constant dense<64> : tensor<64x32xi32, #blocked{{[0-9]*}}>
// CARRIED: %[[PA0:.*]] = ktc.addptr %{{.*}} : tensor<64x32x!ktc.ptr<f16>, #blocked{{[0-9]*}}>, tensor<64x32xi32, #blocked{{[0-9]*}}>
// CARRIED: %[[PB0:.*]] = ktc.addptr %{{.*}} : tensor<32x64x!ktc.ptr<f16>, #blocked{{[0-9]*}}>, tensor<32x64xi32, #blocked{{[0-9]*}}>
// CARRIED: %[[STEPB:.*]] = ktc.splat %{{.*}} : i32 -> tensor<32x64xi32, #blocked{{[0-9]*}}>
// CARRIED: ktc.local_alloc {{{.*}}vec = 8 : i64} : <3x64x32xf16>
// CARRIED: ktc.local_alloc {{{.*}}vec = 8 : i64} : <3x32x64xf16>
// CARRIED: ktc.async_copy %[[PA0]], %{{.*}}[%{{.*}}], mask
// CARRIED: ktc.async_copy %[[PB0]], %{{.*}}[%{{.*}}], mask
// CARRIED: ktc.async_commit
// CARRIED: %[[PA1:.*]] = ktc.addptr %[[PA0]], %[[STEPA]]
// CARRIED: ktc.async_copy %[[PA1]], %{{.*}}[%{{.*}}], mask
// CARRIED: %[[PB1:.*]] = ktc.addptr %[[PB0]], %[[STEPB]]
// CARRIED: ktc.async_copy %[[PB1]], %{{.*}}[%{{.*}}], mask
// CARRIED: ktc.async_commit
// CARRIED: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[PA:.*]] = %[[PA0]], %[[PB:.*]] = %[[PB0]], %[[SLOT:.*]] = %{{.*}})
// CARRIED: %[[PA2:.*]] = ktc.addptr %[[PA]], %[[TWICEA]]
// CARRIED: ktc.async_copy %[[PA2]], %{{.*}}[%{{.*}}], mask
// CARRIED: %[[PB2:.*]] = ktc.addptr %[[PB]], %{{.*}}
// CARRIED: ktc.async_copy %[[PB2]], %{{.*}}[%{{.*}}], mask
// CARRIED: ktc.async_commit
// CARRIED-NOT: ktc.load
// CARRIED: ktc.dot
// CARRIED: %[[NA:.*]] = ktc.addptr %[[PA]], %[[STEPA]]
// CARRIED: %[[NB:.*]] = ktc.addptr %[[PB]], %[[STEPB]]
// CARRIED: scf.yield %{{.*}}, %[[NA]], %[[NB]], %{{.*}} :

// On gfx942 (no asynchronous copies) the same loop's loads are carried in
// registers one iteration ahead: the next iteration's from the carried
// pointers advanced once.
// REGS-LABEL: func.func @matmul
// REGS: ktc.load %[[PA0:[0-9]+]], mask
// REGS: %[[PA1:.*]] = ktc.addptr %[[PA0]], %{{.*}}
// REGS: ktc.load %[[PA1]], mask
// REGS: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[PA:.*]] = %[[PA0]], %[[PB:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}})
// REGS: %[[PA2:.*]] = ktc.addptr %[[PA]], %{{.*}}
// REGS: ktc.load %[[PA2]], mask
// REGS: ktc.addptr %[[PB]], %{{.*}}
// REGS: ktc.load
// REGS: ktc.dot
