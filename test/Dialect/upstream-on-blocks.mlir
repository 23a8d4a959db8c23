// RUN: ktc-opt %s | ktc-opt | FileCheck %s
// RUN: ktc-opt %s -canonicalize -cse | FileCheck %s --check-prefix=OPT

// Upstream arith, math and scf work on ktc blocks and pointers: a loop
// carrying a pointer block and a running max, and a branch yielding blocks.
// CHECK-LABEL: func.func @loop_and_branch
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<64x!ktc.ptr<f32>>, f32)  : i32
// CHECK: math.exp2 %{{.*}} : tensor<64xf32>
// CHECK: arith.maxnumf
// CHECK: scf.yield %{{.*}}, %{{.*}} : tensor<64x!ktc.ptr<f32>>, f32
// CHECK: scf.if %{{.*}} -> (tensor<64xf32>)
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<64xi1>, tensor<64xf32>
// CHECK: arith.sitofp %{{.*}} : tensor<64xi32> to tensor<64xf32>
// CHECK: arith.truncf %{{.*}} : tensor<64xf32> to tensor<64xf16>
// OPT-LABEL: func.func @loop_and_branch
// OPT: scf.for
// OPT: scf.if
func.func @loop_and_branch(%p: !ktc.ptr<f32>, %n: i32, %flag: i1) -> (f32, tensor<64xf16>) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %ninf = arith.constant 0xFF800000 : f32
  %r = ktc.arange 0, 64 : tensor<64xi32>
  %ps = ktc.splat %p : !ktc.ptr<f32> -> tensor<64x!ktc.ptr<f32>>
  %p0 = ktc.addptr %ps, %r : tensor<64x!ktc.ptr<f32>>, tensor<64xi32>
  %step = ktc.splat %c64 : i32 -> tensor<64xi32>
  %res:2 = scf.for %i = %c0 to %n step %c64 iter_args(%ptrs = %p0, %mx = %ninf)
      -> (tensor<64x!ktc.ptr<f32>>, f32) : i32 {
    %x = ktc.load %ptrs : tensor<64x!ktc.ptr<f32>>
    %e = math.exp2 %x : tensor<64xf32>
    %bm = ktc.reduce max %e axis = 0 : tensor<64xf32> -> f32
    %nm = arith.maxnumf %mx, %bm : f32
    %next = ktc.addptr %ptrs, %step : tensor<64x!ktc.ptr<f32>>, tensor<64xi32>
    scf.yield %next, %nm : tensor<64x!ktc.ptr<f32>>, f32
  }
  %v = scf.if %flag -> (tensor<64xf32>) {
    %x = ktc.load %p0 : tensor<64x!ktc.ptr<f32>>
    %nb = ktc.splat %n : i32 -> tensor<64xi32>
    %m = arith.cmpi slt, %r, %nb : tensor<64xi32>
    %z = arith.constant dense<0.0> : tensor<64xf32>
    %s = arith.select %m, %x, %z : tensor<64xi1>, tensor<64xf32>
    scf.yield %s : tensor<64xf32>
  } else {
    %f = arith.sitofp %r : tensor<64xi32> to tensor<64xf32>
    scf.yield %f : tensor<64xf32>
  }
  %h = arith.truncf %v : tensor<64xf32> to tensor<64xf16>
  return %res#1, %h : f32, tensor<64xf16>
}
