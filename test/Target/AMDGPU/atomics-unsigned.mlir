// Unsigned atomic max and min (atomic_max/atomic_min through Ptr<uint32_t>
// and Ptr<uint64_t>) on gfx942: the unsigned global atomics, the no-return
// form where the old value is unused.
// RUN: ktc-compile %s --target=gfx942 --emit=llvm | FileCheck %s --check-prefix=IR
// RUN: ktc-compile %s --target=gfx942 --emit=asm | FileCheck %s

// IR-LABEL: define amdgpu_kernel void @umax_umin(
// IR-DAG: atomicrmw umax ptr addrspace(1) %{{[0-9]+}}, i32 %{{[0-9]+}} syncscope("agent") acq_rel,
// IR-DAG: atomicrmw umin ptr addrspace(1) %{{[0-9]+}}, i64 %{{[0-9]+}} syncscope("workgroup") monotonic,
// IR-DAG: atomicrmw umax ptr addrspace(1) %{{[0-9]+}}, i32 %{{[0-9]+}} syncscope("agent") monotonic,

// CHECK-LABEL: umax_umin:
// CHECK-DAG: global_atomic_umax v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}, s[{{[0-9:]+}}] sc0
// CHECK-DAG: global_atomic_umin_x2 v[{{[0-9:]+}}], v{{[0-9]+}}, v[{{[0-9:]+}}], s[{{[0-9:]+}}] sc0
// CHECK-DAG: global_atomic_umax v{{[0-9]+}}, v{{[0-9]+}}, s[{{[0-9:]+}}]{{$}}

module {
  func.func @umax_umin(%arg0: !ktc.ptr<i32> {ktc.divisibility = 16 : i32}, %arg1: !ktc.ptr<i64> {ktc.divisibility = 16 : i32}, %arg2: i32, %arg3: i64) attributes {ktc.kernel, ktc.num_warps = 1 : i32} {
    %0 = ktc.program_id 0 : i32
    %1 = ktc.addptr %arg0, %0 : !ktc.ptr<i32>, i32
    %2 = ktc.atomic_rmw umax %1, %arg2 : !ktc.ptr<i32>
    %3 = ktc.addptr %arg1, %0 : !ktc.ptr<i64>, i32
    %4 = ktc.atomic_rmw umin %3, %arg3 sem = relaxed scope = cta : !ktc.ptr<i64>
    %5 = ktc.atomic_rmw umax %arg0, %2 sem = relaxed : !ktc.ptr<i32>
    %6 = ktc.addptr %arg1, %2 : !ktc.ptr<i64>, i32
    ktc.store %6, %4 : !ktc.ptr<i64>
    return
  }
}
