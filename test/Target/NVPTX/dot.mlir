// ktc.dot on NVIDIA's tensor cores: mma.sync m16n8k16 (sm_80 and later),
// f16 and bf16 operands, f32 accumulators, and m16n8k8 for tf32; exact f32
// operands and sm_75 take the FMA path (fma.rn, k in order).
// RUN: ktc-compile %S/../Inputs/dot.mlir --target=sm_90 --emit=asm | FileCheck %s
// RUN: ktc-compile %S/../Inputs/dot.mlir --target=sm_80 --emit=asm | FileCheck %s
// RUN: ktc-compile %S/../Inputs/dot.mlir --target=sm_75 --emit=asm | FileCheck %s --check-prefix=SM75

// 64x64x32 over 4 warps: 32 16x8 tiles, 2 K steps: 16 a thread. The dot
// stages its operands: both written to shared memory, one barrier, then
// each K step's fragments read as 8x8 matrices, 4 a call (A with ldmatrix,
// B, stored row-major k x n, with ldmatrix.trans) just before its mma; a
// last barrier frees the memory.
// CHECK-LABEL: .entry dot_f16
// CHECK: st.shared
// CHECK: bar.sync
// CHECK-NOT: bar.sync
// CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK-COUNT-8: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK: ldmatrix.sync.aligned.m8n8.x4
// CHECK-COUNT-8: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK: bar.sync
// CHECK-NOT: mma.sync
// CHECK: ret;
// CHECK-LABEL: .entry dot_bf16
// CHECK-COUNT-4: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK-NOT: mma.sync
// CHECK: ret;
// CHECK-LABEL: .entry dot_f32
// CHECK-NOT: mma.sync
// CHECK: fma.rn.f32
// tf32: the operands rounded to tf32 (ties away: add 0x1000, clear 13
// bits), then mma.sync m16n8k8: 16x32x8 is 4 tiles, one a warp.
// CHECK-LABEL: .entry dot_tf32
// CHECK: and.b32 {{.*}}-8192
// CHECK: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// CHECK-NOT: mma.sync

// SM75-NOT: mma.sync
// SM75: fma.rn.f32
