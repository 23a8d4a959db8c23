// A matmul's K loop (64x64 tile, K step 32, 4 warps, num_stages = 3) on
// sm_90a: the dot is one warpgroup's wgmma.m64n64k16, twice a K step,
// reading both operands straight from the cp.async slots through matrix
// descriptors -- no ldmatrix, no mma.sync, no shared-memory stores, and no
// fence.proxy.async between the copies' wait and the wgmma (it would cost a
// MEMBAR.ALL.CTA that waits for every copy in flight).
// A's slot (64x32 halves, 64-byte rows) uses the 64-byte swizzle (mode 2),
// B's (32x64, 128-byte rows) the 128-byte one (mode 1), N-major (the
// instruction's transpose bit for B). The dot's result only feeds the next
// iteration's dot: it returns with its group in flight (wait_group 1), its
// buffers get a 4th slot (the slot it reads stays busy one iteration
// longer), and a wait_group 0 after the loop completes it.
// RUN: ktc-compile %S/../Inputs/matmul-loop.mlir --target=sm_90a --emit=asm | FileCheck %s
// RUN: ktc-opt %S/../Inputs/matmul-loop.mlir --ktc-assign-layouts="num-warps=4 wave-size=32 arch=sm_90a" --ktc-pipeline-async="target=sm_90a" --cse --canonicalize | FileCheck %s --check-prefix=IR
// sm_90 (not 90a) keeps mma.sync.
// RUN: ktc-opt %S/../Inputs/matmul-loop.mlir --ktc-assign-layouts="num-warps=4 wave-size=32 arch=sm_90" | FileCheck %s --check-prefix=SM90
// With 8 warps, two warpgroups split N: each one's descriptors come from
// its warpgroup index, which goes through shfl.sync.idx from lane 0 so
// that ptxas knows it is uniform (it then builds the descriptors in
// uniform registers, with no R2UR in the loop, and drops the shuffle).
// RUN: ktc-compile %S/../Inputs/matmul-loop.mlir --target=sm_90a --num-warps=8 --emit=asm | FileCheck %s --check-prefix=W8
// W8-LABEL: .entry matmul
// W8: $L__BB0_2:
// W8: shfl.sync.idx.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 0, 31, -1;
// W8: wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16
// CHECK-LABEL: .entry matmul
// CHECK: .shared .align 1024 .b8 ktc_smem[32768];
// CHECK: cp.async.wait_group 1;
// CHECK-NOT: fence.proxy.async
// CHECK: bar.sync 0;
// CHECK-NOT: ldmatrix
// CHECK-NOT: st.shared
// CHECK: wgmma.fence.sync.aligned;
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 1;
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 1;
// CHECK-NOT: wgmma.mma_async
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK: wgmma.wait_group.sync.aligned 1;
// CHECK-NOT: mma.sync
// The dots finish, then the copies, then a barrier: past it the epilogue
// may reuse the slots (BufferLifetimes).
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK: cp.async.wait_group 0;
// CHECK-NEXT: bar.sync 0;
// The epilogue: the accumulator regrouped through shared memory that
// reuses the slots (the kernel's 32768 bytes above are the slots alone),
// then stored 16 bytes at a time.
// CHECK: st.shared.v2.b32
// CHECK: bar.sync 0;
// CHECK: ld.shared.v4.b32
// CHECK: st.global.v4.b32
// CHECK: ret;

// IR-DAG: #ktc.mma<{instr = "wgmma64x64x16_f16", warpsPerCTA = [4, 1]}>
// IR-DAG: ktc.dot {{.*}} {ktc.dot_pending = 1 : i32}
// IR-DAG: ktc.dot_wait %{{.*}} {pending = 0 : i32}
// IR-DAG: ktc.local_alloc {max_phase = 4 : i64, per_phase = 2 : i64, split = 32 : i64, vec = 8 : i64} : <4x64x32xf16>
// IR-DAG: ktc.local_alloc {max_phase = 8 : i64, split = 64 : i64, vec = 8 : i64} : <4x32x64xf16>
// SM90: #ktc.mma<{instr = "mma16816_f16"
