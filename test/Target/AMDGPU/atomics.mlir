// Atomics on gfx942 (CDNA3, wave64) and gfx1100 (RDNA3, wave32): ktc marks
// each one as on coarse-grained device memory (!amdgpu.no.fine.grained.memory,
// !amdgpu.no.remote.memory), so an f32 add is global_atomic_add_f32, not a
// compare-and-swap loop, and without a use of the old value it is the
// no-return form (no sc0 / glc). Scopes are LLVM's agent / workgroup /
// system. A scalar atomic is done by thread 0 alone, its old value handed
// to the others through LDS between two barriers.
// RUN: ktc-compile %s --target=gfx942 --emit=llvm | FileCheck %s --check-prefix=IR
// RUN: ktc-compile %s --target=gfx942 --emit=asm | FileCheck %s --check-prefix=GFX942
// RUN: ktc-compile %s --target=gfx1100 --emit=asm | FileCheck %s --check-prefix=GFX1100

// IR: atomicrmw fadd ptr addrspace(1) {{.*}} syncscope("agent") acq_rel, align 4, !amdgpu.no.fine.grained.memory {{.*}}, !amdgpu.no.remote.memory
// IR: atomicrmw add ptr addrspace(1) {{.*}} syncscope("agent") acq_rel
// IR: cmpxchg ptr addrspace(1) {{.*}} syncscope("agent") acq_rel acquire
// IR: atomicrmw max ptr addrspace(1) {{.*}} syncscope("workgroup") monotonic
// IR: atomicrmw add ptr addrspace(1) {{.*}} release, align 4
// IR: call void @llvm.amdgcn.s.barrier()

// GFX942-LABEL: atomics:
// GFX942: global_atomic_add_f32 v[{{[0-9:]+}}], v{{[0-9]+}}, off{{$}}
// GFX942: global_atomic_add v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}, s[{{[0-9:]+}}] sc0{{$}}
// GFX942: global_atomic_cmpswap v{{[0-9]+}}, v{{[0-9]+}}, v[{{[0-9:]+}}], s[{{[0-9:]+}}] sc0{{$}}
// GFX942: global_atomic_smax v[{{[0-9:]+}}], v{{[0-9]+}}, off{{$}}
// GFX942: global_atomic_add v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}, s[{{[0-9:]+}}] sc0 sc1
// GFX942: ds_write_b32
// GFX942: s_barrier
// GFX942: ds_read_b32
// GFX942: s_barrier
// GFX942-NOT: global_atomic_cmpswap
// GFX942: .end_amdhsa_kernel

// wave32: two elements a thread.
// GFX1100-LABEL: atomics:
// GFX1100: global_atomic_add_f32 v[{{[0-9:]+}}], v{{[0-9]+}}, off{{$}}
// GFX1100: global_atomic_add_f32 v[{{[0-9:]+}}], v{{[0-9]+}}, off offset:512{{$}}
// GFX1100: global_atomic_add_u32 {{.*}} glc
// GFX1100: global_atomic_cmpswap_b32 {{.*}} glc
// GFX1100: global_atomic_max_i32 v[{{[0-9:]+}}], v{{[0-9]+}}, off{{$}}
// GFX1100: ds_store_b32
// GFX1100: s_barrier
// GFX1100: ds_load_b32
func.func @atomics(%pf: !ktc.ptr<f32>, %pi: !ktc.ptr<i32>, %out: !ktc.ptr<i32>, %n: i32) attributes {ktc.kernel} {
  %offs = ktc.arange 0, 256 : tensor<256xi32>
  %nb = ktc.splat %n : i32 -> tensor<256xi32>
  %m = arith.cmpi slt, %offs, %nb : tensor<256xi32>
  %pfb = ktc.splat %pf : !ktc.ptr<f32> -> tensor<256x!ktc.ptr<f32>>
  %pfs = ktc.addptr %pfb, %offs : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
  %one = arith.constant dense<1.5> : tensor<256xf32>
  // No use of the old values: the no-return add.
  %0 = ktc.atomic_rmw add %pfs, %one, mask %m : tensor<256x!ktc.ptr<f32>>
  %pib = ktc.splat %pi : !ktc.ptr<i32> -> tensor<256x!ktc.ptr<i32>>
  %pis = ktc.addptr %pib, %offs : tensor<256x!ktc.ptr<i32>>, tensor<256xi32>
  %old = ktc.atomic_rmw add %pis, %offs, mask %m : tensor<256x!ktc.ptr<i32>>
  %c = ktc.atomic_cas %pis, %offs, %old, mask %m : tensor<256x!ktc.ptr<i32>>
  %ob = ktc.splat %out : !ktc.ptr<i32> -> tensor<256x!ktc.ptr<i32>>
  %os = ktc.addptr %ob, %offs : tensor<256x!ktc.ptr<i32>>, tensor<256xi32>
  ktc.store %os, %c, mask %m : tensor<256x!ktc.ptr<i32>>
  // A positive constant: only the signed max of the bits remains.
  %mx = ktc.atomic_rmw max %pfs, %one sem = relaxed scope = cta : tensor<256x!ktc.ptr<f32>>
  %s = ktc.atomic_rmw add %pi, %n sem = release scope = sys : !ktc.ptr<i32>
  ktc.store %out, %s : !ktc.ptr<i32>
  return
}
