// RUN: ktc-opt %s --ktc-canonicalize-lowered --split-input-file | FileCheck %s
// RUN: ktc-opt %s --canonicalize --split-input-file | FileCheck %s

// The same result as the canonicalizer (both RUN lines), the loops' patterns
// run apart: carried values that are duplicated, only forwarded or unused
// leave the loop, and what fed them folds or dies; the body still folds.

// CHECK-LABEL: func.func @carried
// CHECK-SAME:    (%{{.*}}: index, %[[X:.*]]: f32)
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : i32
// CHECK:         %[[R:.*]] = scf.for {{.*}} iter_args(%[[A:.*]] = %[[X]]) -> (f32) {
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[A]], %[[A]] : f32
// CHECK-NEXT:      scf.yield %[[S]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]], %[[R]], %[[C3]] : f32, f32, i32
func.func @carried(%n: index, %x: f32) -> (f32, f32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %three = arith.addi %one, %two : i32
  // %a and %b start and continue the same (duplicates); %k is forwarded
  // unchanged; %dead is used by nothing but its own update.
  %r:4 = scf.for %i = %c0 to %n step %c1
      iter_args(%a = %x, %b = %x, %k = %three, %dead = %x)
      -> (f32, f32, i32, f32) {
    %s = arith.addf %a, %a : f32
    %u = arith.mulf %s, %s : f32
    scf.yield %s, %s, %k, %u : f32, f32, i32, f32
  }
  return %r#0, %r#1, %r#2 : f32, f32, i32
}

// -----

// A loop of one iteration is inlined (scf.for's own pattern).

// CHECK-LABEL: func.func @once
// CHECK-NOT:     scf.for
// CHECK:         %[[S:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:    return %[[S]] : f32
func.func @once(%x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%a = %x) -> (f32) {
    %s = arith.addf %a, %a : f32
    scf.yield %s : f32
  }
  return %r : f32
}
