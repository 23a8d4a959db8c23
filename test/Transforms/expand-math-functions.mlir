// ktc-expand-math on issue 19's functions: tanh, erf, sin, cos and powf
// become exactly rounded f32 operations (f16/bf16 through f32, rounded
// once); floor and friends are left for the targets' exact instructions;
// afn forms stay.
// RUN: ktc-opt --ktc-expand-math --split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @expanded
// CHECK-NOT: math.tanh
// CHECK-NOT: math.erf
// CHECK-NOT: math.sin
// CHECK-NOT: math.cos
// CHECK-NOT: math.powf
// CHECK: math.roundeven
// CHECK: math.fma
// CHECK: return
func.func @expanded(%x: tensor<64xf32>, %h: f16, %b: bf16) -> (tensor<64xf32>, tensor<64xf32>, f16, tensor<64xf32>, bf16) {
  %t = math.tanh %x : tensor<64xf32>
  %e = math.erf %x : tensor<64xf32>
  %s = math.sin %h : f16
  %c = math.cos %x : tensor<64xf32>
  %p = math.powf %b, %b : bf16
  return %t, %e, %s, %c, %p : tensor<64xf32>, tensor<64xf32>, f16, tensor<64xf32>, bf16
}

// -----

// CHECK-LABEL: func.func @half_rounded_once
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK-NOT: math.sin
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK-NEXT: return
func.func @half_rounded_once(%h: f16) -> f16 {
  %s = math.sin %h : f16
  return %s : f16
}

// -----

// CHECK-LABEL: func.func @kept
// CHECK: math.floor
// CHECK: math.sin {{.*}}fastmath<afn>
// CHECK: math.powf {{.*}}fastmath<afn>
func.func @kept(%x: f32) -> (f32, f32, f32) {
  %f = math.floor %x : f32
  %s = math.sin %x fastmath<afn> : f32
  %p = math.powf %x, %x fastmath<afn> : f32
  return %f, %s, %p : f32, f32, f32
}
