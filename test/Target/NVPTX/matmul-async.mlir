// A matmul's K loop with num_stages = 3 on sm_80 and sm_90: the operands
// go to shared memory by 16-byte cp.async copies (.cg: not kept in L1),
// 2 groups ahead, and the mma.sync fragments are read from the slots with
// ldmatrix (B, row-major k x n, transposed); one barrier an iteration (the
// wait's) and one after the loop, none in the dot.
// RUN: ktc-compile %S/../Inputs/matmul-loop.mlir --target=sm_90 --emit=asm | FileCheck %s
// RUN: ktc-compile %S/../Inputs/matmul-loop.mlir --target=sm_80 --emit=asm | FileCheck %s
// RUN: ktc-compile %S/../Inputs/matmul-loop.mlir --target=sm_75 --emit=asm | FileCheck %s --check-prefix=SM75
// CHECK-LABEL: .entry matmul
// CHECK-COUNT-4: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %p{{[0-9]+}};
// CHECK: cp.async.commit_group;
// CHECK-COUNT-4: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %p{{[0-9]+}};
// CHECK: cp.async.commit_group;
// CHECK: cp.async.wait_group 1;
// CHECK-NEXT: bar.sync 0;
// CHECK-COUNT-4: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %p{{[0-9]+}};
// CHECK: cp.async.commit_group;
// CHECK-NOT: bar.sync
// CHECK-NOT: st.shared
// CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK-COUNT-8: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT: bar.sync
// CHECK: ldmatrix.sync.aligned.m8n8.x4
// CHECK-COUNT-8: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT: bar.sync
// CHECK: cp.async.wait_group 0;
// CHECK-NEXT: bar.sync 0;
// CHECK-NOT: bar.sync
// CHECK: ret;

// sm_75 has no cp.async: the loads stay, carried in registers.
// SM75-LABEL: .entry matmul
// SM75-NOT: cp.async
// SM75: ret;
