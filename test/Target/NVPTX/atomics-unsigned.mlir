// Unsigned atomic max and min (atomic_max/atomic_min through Ptr<uint32_t>
// and Ptr<uint64_t>): atom.max.u32/atom.min.u64 with the old value used,
// red.max.u32 when it is not.
// RUN: ktc-compile %s --target=sm_90 --emit=asm | FileCheck %s
// RUN: ktc-compile %s --target=sm_90 --emit=asm -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK-LABEL: .entry umax_umin(
// CHECK-DAG: atom.acq_rel.gpu.global.max.u32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// CHECK-DAG: atom.relaxed.cta.global.min.u64 %rd{{[0-9]+}}, [%rd{{[0-9]+}}], %rd{{[0-9]+}};
// CHECK-DAG: red.relaxed.gpu.global.max.u32 [%rd{{[0-9]+}}], %r{{[0-9]+}};
// CHECK: ret;
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
