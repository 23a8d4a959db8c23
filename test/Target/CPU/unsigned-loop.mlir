// RUN: ktc-opt --ktc-host-pipeline %s | FileCheck %s
// RUN: ktc-opt --ktc-gpu-pipeline=target=sm_90 %s | FileCheck %s
// RUN: ktc-opt --ktc-gpu-pipeline=target=gfx942 %s | FileCheck %s

// for_range's loops count k from 0 to the trip count, which can reach
// 2^32 - 1 for i32 bounds: every pipeline must keep the comparison unsigned
// (docs/builder.md#loops), or such a loop would run no iteration.

// CHECK-LABEL: @k
// CHECK: llvm.icmp "ult"
func.func @k(%p: !ktc.ptr<i32>, %n: i32) attributes {ktc.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for unsigned %i = %c0 to %n step %c1 iter_args(%a = %c0) -> (i32) : i32 {
    %s = arith.addi %a, %i : i32
    scf.yield %s : i32
  }
  ktc.store %p, %r : !ktc.ptr<i32>
  return
}
