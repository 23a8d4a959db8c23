// Every op through the generic form and through bytecode, back to the
// custom form: properties (axis, start/end, kind, operand segments) survive.
// RUN: ktc-opt %s --mlir-print-op-generic | ktc-opt | FileCheck %s
// RUN: ktc-opt %s --emit-bytecode | ktc-opt | FileCheck %s

// CHECK-LABEL: func.func @all_ops
// CHECK: ktc.program_id 1 : i32
// CHECK: ktc.num_programs 2 : i32
// CHECK: ktc.arange 32, 64 : tensor<32xi32>
// CHECK: ktc.splat %{{.*}} : !ktc.ptr<f32> -> tensor<32x!ktc.ptr<f32>>
// CHECK: ktc.addptr %{{.*}}, %{{.*}} : tensor<32x!ktc.ptr<f32>>, tensor<32xi32>
// CHECK: ktc.load %{{.*}}, mask %{{.*}}, other %{{.*}} : tensor<32x!ktc.ptr<f32>>
// CHECK: ktc.load %{{.*}}, mask %{{.*}} : tensor<32x!ktc.ptr<f32>>
// CHECK: ktc.expand_dims %{{.*}} axis = 0 : tensor<32xf32> -> tensor<1x32xf32>
// CHECK: ktc.broadcast %{{.*}} : tensor<1x32xf32> -> tensor<4x32xf32>
// CHECK: ktc.reduce min %{{.*}} axis = 1 : tensor<4x32xf32> -> tensor<4xf32>
// CHECK: ktc.reduce sum %{{.*}} axis = 0 : tensor<32xf32> -> f32
// CHECK: ktc.store %{{.*}}, %{{.*}}, mask %{{.*}} : tensor<32x!ktc.ptr<f32>>
// CHECK: ktc.store %{{.*}}, %{{.*}} : !ktc.ptr<f32>
func.func @all_ops(%p: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}, %n: i32)
    attributes {ktc.kernel, ktc.constexpr = {BLOCK = 32 : i64}} {
  %pid = ktc.program_id 1 : i32
  %np = ktc.num_programs 2 : i32
  %r = ktc.arange 32, 64 : tensor<32xi32>
  %ps = ktc.splat %p : !ktc.ptr<f32> -> tensor<32x!ktc.ptr<f32>>
  %q = ktc.addptr %ps, %r : tensor<32x!ktc.ptr<f32>>, tensor<32xi32>
  %nb = ktc.splat %n : i32 -> tensor<32xi32>
  %m = arith.cmpi slt, %r, %nb : tensor<32xi32>
  %z = arith.constant dense<0.0> : tensor<32xf32>
  %x = ktc.load %q, mask %m, other %z : tensor<32x!ktc.ptr<f32>>
  %y = ktc.load %q, mask %m : tensor<32x!ktc.ptr<f32>>
  %e = ktc.expand_dims %x axis = 0 : tensor<32xf32> -> tensor<1x32xf32>
  %b = ktc.broadcast %e : tensor<1x32xf32> -> tensor<4x32xf32>
  %mn = ktc.reduce min %b axis = 1 : tensor<4x32xf32> -> tensor<4xf32>
  %s = ktc.reduce sum %y axis = 0 : tensor<32xf32> -> f32
  ktc.store %q, %x, mask %m : tensor<32x!ktc.ptr<f32>>
  ktc.store %p, %s : !ktc.ptr<f32>
  return
}
