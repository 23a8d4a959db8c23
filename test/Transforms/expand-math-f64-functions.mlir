// ktc-expand-math on f64 sin, cos, tanh, erf and powf (issue 19): each
// becomes exactly rounded f64 operations (ExpandMathF64{Trig,Special,Pow}
// .cpp), with no f32 detour; floor and friends are left for the targets'
// exact instructions.
// RUN: ktc-opt --ktc-expand-math --split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @expanded
// CHECK-NOT: math.tanh
// CHECK-NOT: math.erf
// CHECK-NOT: math.sin
// CHECK-NOT: math.cos
// CHECK-NOT: math.powf
// CHECK-NOT: f32
// CHECK: math.roundeven %{{.*}} : tensor<64xf64>
// CHECK: math.fma %{{.*}} : tensor<64xf64>
// CHECK: return
func.func @expanded(%x: tensor<64xf64>, %s: f64) -> (tensor<64xf64>, tensor<64xf64>, f64, tensor<64xf64>, f64) {
  %t = math.sin %x : tensor<64xf64>
  %c = math.cos %x : tensor<64xf64>
  %h = math.tanh %s : f64
  %e = math.erf %x : tensor<64xf64>
  %p = math.powf %s, %s : f64
  return %t, %c, %h, %e, %p : tensor<64xf64>, tensor<64xf64>, f64, tensor<64xf64>, f64
}

// -----

// pow's log2 is a double-double: the atanh series' s^3 and s^5 terms carry
// their constants in two parts (2/3's low part 2^-54 2/3, 2/5's).
// CHECK-LABEL: func.func @pow_wide
// CHECK-DAG: arith.constant 0.66666666666666663 : f64
// CHECK-DAG: arith.constant 3.7007434154171883E-17 : f64
// CHECK-DAG: arith.constant 4.000000e-01 : f64
// CHECK-DAG: arith.constant -2.2204460492503132E-17 : f64
// CHECK-NOT: math.powf
// CHECK: return
func.func @pow_wide(%x: f64, %y: f64) -> f64 {
  %p = math.powf %x, %y : f64
  return %p : f64
}

// -----

// The single IEEE operations stay for the targets.
// CHECK-LABEL: func.func @kept
// CHECK: math.floor %{{.*}} : f64
// CHECK: math.sqrt %{{.*}} : f64
// CHECK: math.fma %{{.*}} : f64
func.func @kept(%x: f64) -> f64 {
  %a = math.floor %x : f64
  %b = math.sqrt %a : f64
  %c = math.fma %a, %b, %x : f64
  return %c : f64
}
