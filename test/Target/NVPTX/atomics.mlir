// Atomics on sm_90 as inline PTX with their ordering and scope spelt out
// (LLVM 22's NVPTX backend drops both from an atomicrmw): atom when the old
// value is used or the ordering needs acquire, red otherwise; compare and
// swap is LLVM's (atom.<sem>.<scope>.global.cas). A block smaller than the
// program's threads (32 elements, 128 threads) is replicated: only the
// threads with zero in the replicating bits (tid & 96 == 0) do the atomic,
// and the old values reach the copies through shared memory; a scalar
// atomic that releases waits at a barrier first. Float max is
// Triton's: signed max of the bits for a clear sign bit, unsigned min
// otherwise.
// RUN: ktc-compile %s --target=sm_90 --emit=asm | FileCheck %s
// RUN: ktc-compile %s --target=sm_90 --emit=asm -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK-LABEL: .entry atomics(
// CHECK: mov.u32 %[[TID:r[0-9]+]], %tid.x;
// CHECK: setp.gt.u32 %[[COPY:p[0-9]+]], %[[TID]], 31;
// CHECK: @%[[COPY]] bra
// CHECK: atom.acq_rel.gpu.global.add.f32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// CHECK: st.shared.b32
// CHECK: bar.sync 0;
// CHECK: ld.shared.b32
// CHECK: bar.sync 0;
// CHECK: @%[[COPY]] bra
// CHECK: red.relaxed.cta.global.add.u32 [%rd{{[0-9]+}}], %r{{[0-9]+}};
// CHECK: setp.gt.s32 %p{{[0-9]+}}, %r{{[0-9]+}}, -1;
// CHECK-DAG: atom.relaxed.gpu.global.max.s32
// CHECK-DAG: atom.relaxed.gpu.global.min.u32
// CHECK: setp.ne.b32 %[[NOT0:p[0-9]+]], %[[TID]], 0;
// CHECK: @%[[NOT0]] bra
// CHECK: atom.acquire.sys.global.cas.b32
// A scalar release waits for the whole program's writes first.
// CHECK: ld.shared.s32
// CHECK-NEXT: bar.sync 0;
// CHECK-NEXT: bar.sync 0;
// CHECK-NEXT: @%[[NOT0]] bra
// CHECK-NEXT: // begin inline asm
// CHECK-NEXT: atom.release.gpu.global.exch.b64
// CHECK: ld.shared.b64
// CHECK-NEXT: bar.sync 0;
// CHECK-NEXT: bar.sync 0;
// CHECK-NEXT: @%[[NOT0]] bra
// CHECK-NEXT: // begin inline asm
// CHECK-NEXT: atom.acq_rel.gpu.global.xor.b64
// An exchange whose old value is unused (a lock's release) is still an
// atom: PTX's red has no exchange (ptxas refuses red.exch).
// CHECK-NOT: red.{{.*}}exch
// CHECK: atom.release.gpu.global.exch.b32
// CHECK-NOT: red.{{.*}}exch
func.func @atomics(%pf: !ktc.ptr<f32>, %pi: !ktc.ptr<i32>, %pl: !ktc.ptr<i64>, %out: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %offs = ktc.arange 0, 32 : tensor<32xi32>
  %pfb = ktc.splat %pf : !ktc.ptr<f32> -> tensor<32x!ktc.ptr<f32>>
  %pfs = ktc.addptr %pfb, %offs : tensor<32x!ktc.ptr<f32>>, tensor<32xi32>
  %x = ktc.load %pfs : tensor<32x!ktc.ptr<f32>>
  %old = ktc.atomic_rmw add %pfs, %x : tensor<32x!ktc.ptr<f32>>
  %ob = ktc.splat %out : !ktc.ptr<f32> -> tensor<32x!ktc.ptr<f32>>
  %os = ktc.addptr %ob, %offs : tensor<32x!ktc.ptr<f32>>, tensor<32xi32>
  ktc.store %os, %old : tensor<32x!ktc.ptr<f32>>
  %pib = ktc.splat %pi : !ktc.ptr<i32> -> tensor<32x!ktc.ptr<i32>>
  %pis = ktc.addptr %pib, %offs : tensor<32x!ktc.ptr<i32>>, tensor<32xi32>
  %0 = ktc.atomic_rmw add %pis, %offs sem = relaxed scope = cta : tensor<32x!ktc.ptr<i32>>
  %mx = ktc.atomic_rmw max %pfs, %x sem = relaxed : tensor<32x!ktc.ptr<f32>>
  ktc.store %os, %mx : tensor<32x!ktc.ptr<f32>>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %l = ktc.atomic_cas %pi, %c0, %c1 sem = acquire scope = sys : !ktc.ptr<i32>
  %l64 = arith.extsi %l : i32 to i64
  %e = ktc.atomic_rmw xchg %pl, %l64 sem = release : !ktc.ptr<i64>
  %1 = ktc.atomic_rmw xor %pl, %e : !ktc.ptr<i64>
  %2 = ktc.atomic_rmw xchg %pi, %c0 sem = release : !ktc.ptr<i32>
  return
}
