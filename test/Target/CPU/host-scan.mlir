// RUN: ktc-opt %s --convert-ktc-to-host --canonicalize | FileCheck %s

// A reverse scan of two 4x8 blocks along axis 1 on the host: a loop over
// the 4 rows, then per level (s = 1, 2, 4) a loop over the pairs of groups
// (4, 2, 1 of them) and, for s > 1, one over the later group's elements;
// positions k in scan order are elements 7 - k. The combine region is
// copied in twice a level (the later group's prefixes, the pair's total),
// and once at the last level, where no total is needed. (ScanTest runs
// scans through the whole host pipeline.)
// CHECK-LABEL: func.func @scan
// CHECK: scf.for %[[ROW:.*]] = %c0 to %c4 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK: arith.subi %c7
// CHECK: arith.addf
// CHECK: arith.maxsi
// CHECK: arith.addf
// CHECK: arith.maxsi
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK: arith.addf
// CHECK: arith.maxsi
// CHECK: arith.addf
// CHECK: arith.maxsi
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK: arith.addf
// CHECK: arith.maxsi
// CHECK-NOT: arith.addf
// CHECK: return
func.func @scan(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>) {
  %0:2 = ktc.scan %x, %i axis = 1 reverse : tensor<4x8xf32>, tensor<4x8xi32> -> tensor<4x8xf32>, tensor<4x8xi32> {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %s = arith.addf %a, %b : f32
    %m = arith.maxsi %ai, %bi : i32
    ktc.scan_return %s, %m : f32, i32
  }
  return %0#0, %0#1 : tensor<4x8xf32>, tensor<4x8xi32>
}
