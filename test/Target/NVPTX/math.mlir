// issue 19's math on sm_90: sin, tanh and pow are ktc-expand-math's exactly
// rounded f32 arithmetic (no sin.approx, tanh.approx, ex2.approx or
// lg2.approx: the host's bits), divisions correctly rounded; floor, ceil,
// rint and round are PTX's exact conversions; umulhi is mul.wide.u32 /
// mul.hi.u64; shifts are shl.b32 and the arithmetic shr.s32.
// RUN: ktc-compile %s --target=sm_90 --emit=asm | FileCheck %s

// CHECK-LABEL: .entry ksin(
// CHECK-NOT: approx
// CHECK-DAG: cvt.rni.f32.f32
// CHECK-DAG: fma.rn.f32
// CHECK-DAG: mul.rn.f32
// CHECK-NOT: approx
// CHECK: ret;
func.func @ksin(%p: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<128x!ktc.ptr<f32>>
  %ps = ktc.addptr %pb, %r : tensor<128x!ktc.ptr<f32>>, tensor<128xi32>
  %x = ktc.load %ps : tensor<128x!ktc.ptr<f32>>
  %y = math.sin %x : tensor<128xf32>
  ktc.store %ps, %y : tensor<128x!ktc.ptr<f32>>
  return
}

// CHECK-LABEL: .entry ktanh(
// CHECK-NOT: approx
// CHECK-DAG: div.rn.f32
// CHECK-DAG: copysign.f32
// CHECK-DAG: fma.rn.f32
// CHECK-NOT: approx
// CHECK: ret;
func.func @ktanh(%p: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<128x!ktc.ptr<f32>>
  %ps = ktc.addptr %pb, %r : tensor<128x!ktc.ptr<f32>>, tensor<128xi32>
  %x = ktc.load %ps : tensor<128x!ktc.ptr<f32>>
  %y = math.tanh %x : tensor<128xf32>
  ktc.store %ps, %y : tensor<128x!ktc.ptr<f32>>
  return
}

// CHECK-LABEL: .entry kpow(
// CHECK-NOT: approx
// CHECK-DAG: div.rn.f32
// CHECK-DAG: cvt.rmi.f32.f32
// CHECK-DAG: fma.rn.f32
// CHECK-NOT: approx
// CHECK: ret;
func.func @kpow(%p: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<128x!ktc.ptr<f32>>
  %ps = ktc.addptr %pb, %r : tensor<128x!ktc.ptr<f32>>, tensor<128xi32>
  %x = ktc.load %ps : tensor<128x!ktc.ptr<f32>>
  %y = math.powf %x, %x : tensor<128xf32>
  ktc.store %ps, %y : tensor<128x!ktc.ptr<f32>>
  return
}

// CHECK-LABEL: .entry kround(
// CHECK-DAG: cvt.rmi.f32.f32
// CHECK-DAG: cvt.rpi.f32.f32
// CHECK-DAG: cvt.rni.f32.f32
// CHECK-DAG: cvt.rzi.f32.f32
// CHECK-DAG: fma.rn.f32
// CHECK: ret;
func.func @kround(%p: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<128x!ktc.ptr<f32>>
  %ps = ktc.addptr %pb, %r : tensor<128x!ktc.ptr<f32>>, tensor<128xi32>
  %x = ktc.load %ps : tensor<128x!ktc.ptr<f32>>
  %a = math.floor %x : tensor<128xf32>
  %b = math.ceil %x : tensor<128xf32>
  %c = math.roundeven %x : tensor<128xf32>
  %d = math.round %x : tensor<128xf32>
  %f = math.fma %a, %b, %c : tensor<128xf32>
  %y = arith.addf %f, %d : tensor<128xf32>
  ktc.store %ps, %y : tensor<128x!ktc.ptr<f32>>
  return
}

// CHECK-LABEL: .entry kbits(
// CHECK-DAG: mul.wide.u32
// CHECK-DAG: mul.hi.u64
// CHECK-DAG: shl.b32
// CHECK-DAG: shr.s32
// CHECK: ret;
func.func @kbits(%p: !ktc.ptr<i32>, %q: !ktc.ptr<i64>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %pb = ktc.splat %p : !ktc.ptr<i32> -> tensor<128x!ktc.ptr<i32>>
  %ps = ktc.addptr %pb, %r : tensor<128x!ktc.ptr<i32>>, tensor<128xi32>
  %qb = ktc.splat %q : !ktc.ptr<i64> -> tensor<128x!ktc.ptr<i64>>
  %qs = ktc.addptr %qb, %r : tensor<128x!ktc.ptr<i64>>, tensor<128xi32>
  %x = ktc.load %ps : tensor<128x!ktc.ptr<i32>>
  %y = ktc.load %qs : tensor<128x!ktc.ptr<i64>>
  // umulhi(x, x) on i32: the high half of the 64-bit product.
  %xw = arith.extui %x : tensor<128xi32> to tensor<128xi64>
  %xm = arith.muli %xw, %xw : tensor<128xi64>
  %c32 = arith.constant dense<32> : tensor<128xi64>
  %xh = arith.shrui %xm, %c32 : tensor<128xi64>
  %hi = arith.trunci %xh : tensor<128xi64> to tensor<128xi32>
  // x << hi (0 past the width), then >> x (arithmetic).
  %w = arith.constant dense<32> : tensor<128xi32>
  %ok = arith.cmpi ult, %hi, %w : tensor<128xi32>
  %sh = arith.shli %x, %hi : tensor<128xi32>
  %z = arith.constant dense<0> : tensor<128xi32>
  %s1 = arith.select %ok, %sh, %z : tensor<128xi1>, tensor<128xi32>
  %s2 = arith.shrsi %s1, %x : tensor<128xi32>
  ktc.store %ps, %s2 : tensor<128x!ktc.ptr<i32>>
  // umulhi(y, y) on i64, through i128.
  %yw = arith.extui %y : tensor<128xi64> to tensor<128xi128>
  %m = arith.muli %yw, %yw : tensor<128xi128>
  %c64 = arith.constant dense<64> : tensor<128xi128>
  %mh = arith.shrui %m, %c64 : tensor<128xi128>
  %mt = arith.trunci %mh : tensor<128xi128> to tensor<128xi64>
  ktc.store %qs, %mt : tensor<128x!ktc.ptr<i64>>
  return
}
