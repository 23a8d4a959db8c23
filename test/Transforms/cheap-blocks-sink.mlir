// RUN: ktc-opt %s --ktc-assign-layouts="num-warps=4 wave-size=64" | FileCheck %s

// A cheap block (here a mask) used inside a loop and again after it: the
// use after the loop gets its own copy just before it, so nothing is held
// across the loop for it (a matmul's `cols < N`, whose copy in the dot
// result's layout has many registers).
// CHECK-LABEL: func.func @sink
// CHECK: arith.cmpi slt
// CHECK: scf.for
// CHECK: ktc.load
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK: arith.cmpi slt
// CHECK: ktc.store
func.func @sink(%x: !ktc.ptr<f32>, %n: i32) attributes {ktc.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<256xf32>
  %r = ktc.arange 0, 256 : tensor<256xi32>
  %nb = ktc.splat %n : i32 -> tensor<256xi32>
  %m = arith.cmpi slt, %r, %nb : tensor<256xi32>
  %xb = ktc.splat %x : !ktc.ptr<f32> -> tensor<256x!ktc.ptr<f32>>
  %xp = ktc.addptr %xb, %r : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (tensor<256xf32>) : i32 {
    %v = ktc.load %xp, mask %m, other %zero : tensor<256x!ktc.ptr<f32>>
    %s = arith.addf %a, %v : tensor<256xf32>
    scf.yield %s : tensor<256xf32>
  }
  ktc.store %xp, %acc, mask %m : tensor<256x!ktc.ptr<f32>>
  return
}
