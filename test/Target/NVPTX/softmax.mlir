// Softmax on sm_90: warp reductions by shfl.sync butterflies, the
// cross-warp step through shared memory after a bar.sync, exp as
// ex2.approx of x * log2(e). The two reductions of a loop body (online) or
// of a row (fused) each have slots of their own and one bar.sync: two a
// row or iteration, where one shared set of slots needed four.
// RUN: ktc-compile %ktc_src/examples/softmax/softmax_online.mlir --target=sm_90 --emit=asm | FileCheck %s
// RUN: ktc-compile %ktc_src/examples/softmax/softmax_fused.mlir --target=sm_90 --num-warps=8 --emit=asm | FileCheck %s --check-prefix=FUSED
// RUN: ktc-compile %ktc_src/examples/softmax/softmax_online.mlir --target=sm_90 --emit=asm | FileCheck %s --check-prefix=BARRIERS
// RUN: ktc-compile %ktc_src/examples/softmax/softmax_fused.mlir --target=sm_90 --num-warps=8 --emit=asm | FileCheck %s --check-prefix=BARRIERS

// CHECK: .visible .entry softmax_online(
// CHECK: .reqntid 128, 1, 1
// CHECK: .shared .align 16 .b8 ktc_smem[64];
// CHECK: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// CHECK: bar.sync 0;
// CHECK: ex2.approx.ftz.f32
// CHECK-NOT: .local

// FUSED: .visible .entry softmax_fused(
// FUSED: .reqntid 256, 1, 1
// FUSED: .shared .align 16 .b8 ktc_smem[128];
// FUSED: mov.u32 {{.*}}, %nctaid.x;
// The row loop's blocks are laid out with its tail (the division and the
// stores) first: the loads are predicated, not branched around (issue 18).
// FUSED-DAG: div.full.f32
// FUSED-COUNT-5: shfl.sync.bfly.b32
// FUSED: ex2.approx.ftz.f32
// FUSED-COUNT-5: shfl.sync.bfly.b32
// The examples divide with fdiv (arith.divf with afn, as seeds.h does):
// div.full.f32 (above), as Triton's `/` on f32; `/` is div.rn.f32
// (division.mlir).
// FUSED-NOT: div.rn.f32

// BARRIERS-COUNT-2: bar.sync 0;
// BARRIERS-NOT: bar.sync
