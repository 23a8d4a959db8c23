// While loops whose variable steps away from their exit (they run once, or
// until the variable wraps around), as While.FalseAtOnceRunsNothing traces
// one: ptxas unrolls such a loop with a wrong trip count (for k = 41 it ran
// `r -= 1` 42 times and stored 0 instead of 41 on the H200), so the loop is
// marked `.pragma "nounroll"`, which ptxas keeps as written
// (lib/Target/NVPTX/PtxasLoops.cpp). The unsigned loop means its
// wrap-around (from u = 5 it runs 6 times, to 0xffffffff). A loop stepping
// towards its exit (the third) is left to ptxas to unroll.
// RUN: ktc-compile %s --target=sm_90 --emit=asm | FileCheck %s
// RUN: ktc-compile %s --target=sm_90 --emit=asm -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK-LABEL: .entry loops(
// CHECK: ld.param.b32 %[[K:r[0-9]+]], [loops_param_1];
// CHECK: add.s32 %[[R:r[0-9]+]], %[[K]], 1;
// CHECK: $[[LOOP:L__BB0_[0-9]+]]:
// CHECK-NEXT: .pragma "nounroll";
// CHECK-NEXT: add.s32 %[[R]], %[[R]], -1;
// CHECK-NEXT: setp.lt.s32 %[[P:p[0-9]+]], %[[R]], 0;
// CHECK-NEXT: @%[[P]] bra $[[LOOP]];
// CHECK-NEXT: st.global.b32 [%rd{{[0-9]+}}], %[[R]];
// CHECK: .pragma "nounroll";
// CHECK-NEXT: add.s32 %[[U:r[0-9]+]], %[[U]], -1;
// CHECK-NEXT: setp.lt.u32 %{{p[0-9]+}}, %[[U]], 10;
// The third loop, unrolled by 8 by LLVM, carries no pragma (LLVM's own
// remainder loop after it does).
// CHECK-NOT: nounroll
// CHECK: mad.lo.s32
// CHECK-NOT: nounroll
// CHECK: @%p{{[0-9]+}} bra $L__BB0_{{[0-9]+}};
module {
  func.func @loops(%arg0: !ktc.ptr<i32> {ktc.divisibility = 16 : i32}, %arg1: i32) attributes {ktc.kernel, ktc.num_warps = 4 : i32} {
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %c0_i32 = arith.constant 0 : i32
    %c10_i32 = arith.constant 10 : i32
    %0 = scf.while (%arg2 = %arg1) : (i32) -> i32 {
      %1 = arith.cmpi slt, %arg2, %c0_i32 : i32
      scf.condition(%1) %arg2 : i32
    } do {
    ^bb0(%arg2: i32):
      %1 = arith.subi %arg2, %c1_i32 : i32
      scf.yield %1 : i32
    }
    ktc.store %arg0, %0 : !ktc.ptr<i32>
    %a = scf.while (%arg2 = %arg1) : (i32) -> i32 {
      %1 = arith.subi %arg2, %c1_i32 : i32
      %2 = arith.cmpi ult, %1, %c10_i32 : i32
      scf.condition(%2) %1 : i32
    } do {
    ^bb0(%arg2: i32):
      scf.yield %arg2 : i32
    }
    %p1 = ktc.addptr %arg0, %c1_i32 : !ktc.ptr<i32>, i32
    ktc.store %p1, %a : !ktc.ptr<i32>
    %b:2 = scf.while (%arg2 = %arg1, %arg3 = %c0_i32) : (i32, i32) -> (i32, i32) {
      %1 = arith.cmpi sgt, %arg2, %c0_i32 : i32
      scf.condition(%1) %arg2, %arg3 : i32, i32
    } do {
    ^bb0(%arg2: i32, %arg3: i32):
      %1 = arith.subi %arg2, %c1_i32 : i32
      %2 = arith.muli %arg3, %arg2 : i32
      %3 = arith.addi %2, %arg2 : i32
      scf.yield %1, %3 : i32, i32
    }
    %p2 = ktc.addptr %arg0, %c2_i32 : !ktc.ptr<i32>, i32
    ktc.store %p2, %b#1 : !ktc.ptr<i32>
    return
  }
}
