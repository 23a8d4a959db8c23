// RUN: ktc-opt %s --ktc-assign-layouts="num-warps=1 wave-size=32" --cse --convert-ktc-to-llvm="target=sm_90 num-warps=1" | FileCheck %s --check-prefixes=CHECK,W32
// RUN: ktc-opt %s --ktc-assign-layouts="num-warps=1 wave-size=64" --cse --convert-ktc-to-llvm="target=gfx942 num-warps=1" | FileCheck %s --check-prefixes=CHECK,W64

// A mask the axis analysis proves constant over runs of 16 elements
// (`offs < n`, n a multiple of 16) is computed once per run in a thread's
// registers: 512 elements over one wave are 16 (wave 32) or 8 (wave 64)
// registers a thread in runs of 4 (16-byte accesses), so 4 or 2 compares
// where there were 16 or 8, and the load, the select and the store of a
// run share its bit. `offs == n` is not constant over runs (the run
// starting at n holds both answers): one compare an element.

// CHECK-LABEL: func.func @runs
// W32-COUNT-4: arith.cmpi slt
// W64-COUNT-2: arith.cmpi slt
// CHECK-NOT: arith.cmpi slt
// CHECK: return
func.func @runs(%p: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                %n: i32 {ktc.divisibility = 16 : i32}) attributes {ktc.kernel} {
  %r = ktc.arange 0, 512 : tensor<512xi32>
  %nb = ktc.splat %n : i32 -> tensor<512xi32>
  %m = arith.cmpi slt, %r, %nb : tensor<512xi32>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<512x!ktc.ptr<f32>>
  %q = ktc.addptr %pb, %r : tensor<512x!ktc.ptr<f32>>, tensor<512xi32>
  %x = ktc.load %q, mask %m : tensor<512x!ktc.ptr<f32>>
  %zero = arith.constant dense<0.0> : tensor<512xf32>
  %y = arith.select %m, %x, %zero : tensor<512xi1>, tensor<512xf32>
  ktc.store %q, %y, mask %m : tensor<512x!ktc.ptr<f32>>
  return
}

// CHECK-LABEL: func.func @equal
// W32-COUNT-16: arith.cmpi eq
// W64-COUNT-8: arith.cmpi eq
// CHECK-NOT: arith.cmpi eq
// CHECK: return
func.func @equal(%p: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                 %n: i32 {ktc.divisibility = 16 : i32}) attributes {ktc.kernel} {
  %r = ktc.arange 0, 512 : tensor<512xi32>
  %nb = ktc.splat %n : i32 -> tensor<512xi32>
  %m = arith.cmpi eq, %r, %nb : tensor<512xi32>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<512x!ktc.ptr<f32>>
  %q = ktc.addptr %pb, %r : tensor<512x!ktc.ptr<f32>>, tensor<512xi32>
  %x = ktc.load %q : tensor<512x!ktc.ptr<f32>>
  %zero = arith.constant dense<0.0> : tensor<512xf32>
  %y = arith.select %m, %x, %zero : tensor<512xi1>, tensor<512xf32>
  ktc.store %q, %y : tensor<512x!ktc.ptr<f32>>
  return
}
