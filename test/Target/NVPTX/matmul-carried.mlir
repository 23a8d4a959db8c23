// The K loop Triton's way (the tiles' pointers carried and advanced by
// BLOCK_K; Inputs/matmul-carried.mlir) on sm_90 with num_stages = 3: the
// copies are 16 bytes wide and pipelined as in matmul-async.mlir, and the
// loop advances each carried pointer once (iteration k + 2's copies read
// them; LLVM folds the "advanced twice" into the pointers it carries).
// Shared memory is addressed with 32 bits (LLVM's nvptx-short-ptr, as
// Triton and clang -fcuda-short-ptr): a slot's address is one 32-bit add
// and immediate offsets, never a widening multiply and a 64-bit add.
// RUN: ktc-compile %S/../Inputs/matmul-carried.mlir --target=sm_90 --emit=asm | FileCheck %s
// RUN: ktc-compile %S/../Inputs/matmul-carried.mlir --target=sm_90 --emit=llvm | FileCheck %s --check-prefix=LAYOUT
// RUN: ktc-compile %S/../Inputs/matmul-loop.mlir --target=sm_80 --emit=llvm | FileCheck %s --check-prefix=LAYOUT
// RUN: ktc-compile %S/../Inputs/matmul-carried.mlir --target=gfx942 --emit=llvm | FileCheck %s --check-prefix=AMD
// CHECK-LABEL: .entry matmul
// CHECK-COUNT-2: cp.async.cg.shared.global [%r{{[0-9]+}}{{(\+[0-9]+)?}}], [%rd{{[0-9]+}}], 16, %p{{[0-9]+}};
// CHECK: cp.async.commit_group;
// CHECK: cp.async.wait_group 1;
// CHECK-NEXT: bar.sync 0;
// CHECK-NOT: mul.wide
// CHECK-COUNT-2: cp.async.cg.shared.global [%r{{[0-9]+}}{{(\+[0-9]+)?}}], [%rd{{[0-9]+}}], 16, %p{{[0-9]+}};
// CHECK-NOT: mul.wide
// CHECK-COUNT-2: cp.async.cg.shared.global [%r{{[0-9]+}}{{(\+[0-9]+)?}}], [%rd{{[0-9]+}}], 16, %p{{[0-9]+}};
// CHECK-NEXT: // end inline asm
// CHECK-NEXT: cp.async.commit_group;
// CHECK-NOT: mul.wide
// CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{{.*}}}, [%r{{[0-9]+}}];
// CHECK-NOT: mul.wide
// CHECK: @%p{{[0-9]+}} bra
// CHECK: cp.async.wait_group 0;

// LAYOUT: target datalayout = "e-p3:32:32-

// AMD's LDS pointers were always 32-bit (its own data layout).
// AMD: target datalayout = "{{.*}}-p3:32:32-
