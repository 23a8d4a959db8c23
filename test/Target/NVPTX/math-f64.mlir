// f64 math on sm_90 (issue 19): sin, cos, tanh, erf and pow are
// ktc-expand-math's exactly rounded f64 arithmetic (ExpandMathF64*.cpp: the
// host's bits): no call (PTX has no f64 sin or exp; libdevice is not
// linked), no f32 detour, no local memory; floor, ceil, rint, round, sqrt
// and fma are single f64 instructions.
// RUN: ktc-compile %s --target=sm_90 --emit=asm | FileCheck %s
// RUN: ktc-compile %s --target=sm_90 --emit=asm | FileCheck %s --check-prefix=NONE
// NONE-NOT: call
// NONE-NOT: .local
// NONE-NOT: f32

// CHECK-LABEL: .entry ksin(
// CHECK-DAG: cvt.rni.f64.f64
// CHECK-DAG: fma.rn.f64
// CHECK: ret;
func.func @ksin(%p: !ktc.ptr<f64>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %pb = ktc.splat %p : !ktc.ptr<f64> -> tensor<128x!ktc.ptr<f64>>
  %ps = ktc.addptr %pb, %r : tensor<128x!ktc.ptr<f64>>, tensor<128xi32>
  %x = ktc.load %ps : tensor<128x!ktc.ptr<f64>>
  %y = math.sin %x : tensor<128xf64>
  ktc.store %ps, %y : tensor<128x!ktc.ptr<f64>>
  return
}

// CHECK-LABEL: .entry kcos(
// CHECK-DAG: cvt.rmi.f64.f64
// CHECK-DAG: fma.rn.f64
// CHECK: ret;
func.func @kcos(%p: !ktc.ptr<f64>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %pb = ktc.splat %p : !ktc.ptr<f64> -> tensor<128x!ktc.ptr<f64>>
  %ps = ktc.addptr %pb, %r : tensor<128x!ktc.ptr<f64>>, tensor<128xi32>
  %x = ktc.load %ps : tensor<128x!ktc.ptr<f64>>
  %y = math.cos %x : tensor<128xf64>
  ktc.store %ps, %y : tensor<128x!ktc.ptr<f64>>
  return
}

// CHECK-LABEL: .entry ktanh(
// CHECK-DAG: div.rn.f64
// CHECK-DAG: fma.rn.f64
// CHECK: ret;
func.func @ktanh(%p: !ktc.ptr<f64>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %pb = ktc.splat %p : !ktc.ptr<f64> -> tensor<128x!ktc.ptr<f64>>
  %ps = ktc.addptr %pb, %r : tensor<128x!ktc.ptr<f64>>, tensor<128xi32>
  %x = ktc.load %ps : tensor<128x!ktc.ptr<f64>>
  %y = math.tanh %x : tensor<128xf64>
  ktc.store %ps, %y : tensor<128x!ktc.ptr<f64>>
  return
}

// CHECK-LABEL: .entry kerf(
// CHECK-DAG: copysign.f64
// CHECK-DAG: fma.rn.f64
// CHECK: ret;
func.func @kerf(%p: !ktc.ptr<f64>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %pb = ktc.splat %p : !ktc.ptr<f64> -> tensor<128x!ktc.ptr<f64>>
  %ps = ktc.addptr %pb, %r : tensor<128x!ktc.ptr<f64>>, tensor<128xi32>
  %x = ktc.load %ps : tensor<128x!ktc.ptr<f64>>
  %y = math.erf %x : tensor<128xf64>
  ktc.store %ps, %y : tensor<128x!ktc.ptr<f64>>
  return
}

// CHECK-LABEL: .entry kpow(
// CHECK-DAG: div.rn.f64
// CHECK-DAG: cvt.rmi.f64.f64
// CHECK-DAG: fma.rn.f64
// CHECK: ret;
func.func @kpow(%p: !ktc.ptr<f64>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %pb = ktc.splat %p : !ktc.ptr<f64> -> tensor<128x!ktc.ptr<f64>>
  %ps = ktc.addptr %pb, %r : tensor<128x!ktc.ptr<f64>>, tensor<128xi32>
  %x = ktc.load %ps : tensor<128x!ktc.ptr<f64>>
  %y = math.powf %x, %x : tensor<128xf64>
  ktc.store %ps, %y : tensor<128x!ktc.ptr<f64>>
  return
}

// CHECK-LABEL: .entry krest(
// CHECK-DAG: cvt.rmi.f64.f64
// CHECK-DAG: cvt.rpi.f64.f64
// CHECK-DAG: cvt.rni.f64.f64
// CHECK-DAG: sqrt.rn.f64
// CHECK-DAG: fma.rn.f64
// CHECK: ret;
func.func @krest(%p: !ktc.ptr<f64>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %pb = ktc.splat %p : !ktc.ptr<f64> -> tensor<128x!ktc.ptr<f64>>
  %ps = ktc.addptr %pb, %r : tensor<128x!ktc.ptr<f64>>, tensor<128xi32>
  %x = ktc.load %ps : tensor<128x!ktc.ptr<f64>>
  %a = math.floor %x : tensor<128xf64>
  %b = math.ceil %x : tensor<128xf64>
  %c = math.roundeven %x : tensor<128xf64>
  %d = math.round %x : tensor<128xf64>
  %e = math.sqrt %x : tensor<128xf64>
  %f = math.fma %a, %b, %c : tensor<128xf64>
  %y = math.fma %d, %e, %f : tensor<128xf64>
  ktc.store %ps, %y : tensor<128x!ktc.ptr<f64>>
  return
}
