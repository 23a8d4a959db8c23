// issue 19's math on gfx942: sin, tanh and pow are ktc-expand-math's exactly
// rounded f32 arithmetic (no v_sin_f32, v_exp_f32 or v_log_f32: the host's
// bits), divisions LLVM's correctly rounded sequence; floor, ceil, rint and
// round are exact VOP1 roundings; umulhi is v_mul_hi_u32 / v_mad_u64_u32;
// shifts are v_lshlrev_b32 and the arithmetic v_ashrrev_i32.
// RUN: ktc-compile %s --target=gfx942 --emit=asm | FileCheck %s

// CHECK-LABEL: ksin:
// CHECK-NOT: v_sin_f32
// CHECK-NOT: v_cos_f32
// CHECK-DAG: v_rndne_f32
// CHECK-DAG: v_floor_f32
// CHECK-DAG: v_fma
// CHECK: s_endpgm
func.func @ksin(%p: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<128x!ktc.ptr<f32>>
  %ps = ktc.addptr %pb, %r : tensor<128x!ktc.ptr<f32>>, tensor<128xi32>
  %x = ktc.load %ps : tensor<128x!ktc.ptr<f32>>
  %y = math.sin %x : tensor<128xf32>
  ktc.store %ps, %y : tensor<128x!ktc.ptr<f32>>
  return
}

// CHECK-LABEL: ktanh:
// CHECK-NOT: v_exp_f32
// CHECK-DAG: v_div_scale_f32
// CHECK-DAG: v_div_fixup_f32
// CHECK-DAG: v_bfi_b32
// CHECK: s_endpgm
func.func @ktanh(%p: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<128x!ktc.ptr<f32>>
  %ps = ktc.addptr %pb, %r : tensor<128x!ktc.ptr<f32>>, tensor<128xi32>
  %x = ktc.load %ps : tensor<128x!ktc.ptr<f32>>
  %y = math.tanh %x : tensor<128xf32>
  ktc.store %ps, %y : tensor<128x!ktc.ptr<f32>>
  return
}

// CHECK-LABEL: kpow:
// CHECK-NOT: v_exp_f32
// CHECK-NOT: v_log_f32
// CHECK-DAG: v_div_fixup_f32
// CHECK-DAG: v_floor_f32
// CHECK-DAG: v_fma_f32
// CHECK: s_endpgm
func.func @kpow(%p: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<128x!ktc.ptr<f32>>
  %ps = ktc.addptr %pb, %r : tensor<128x!ktc.ptr<f32>>, tensor<128xi32>
  %x = ktc.load %ps : tensor<128x!ktc.ptr<f32>>
  %y = math.powf %x, %x : tensor<128xf32>
  ktc.store %ps, %y : tensor<128x!ktc.ptr<f32>>
  return
}

// CHECK-LABEL: kround:
// CHECK-DAG: v_floor_f32
// CHECK-DAG: v_ceil_f32
// CHECK-DAG: v_rndne_f32
// CHECK-DAG: v_trunc_f32
// CHECK-DAG: v_fmac_f32
// CHECK: s_endpgm
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

// CHECK-LABEL: kbits:
// CHECK-DAG: v_mul_hi_u32
// CHECK-DAG: v_mad_u64_u32
// CHECK-DAG: v_lshlrev_b32
// CHECK-DAG: v_ashrrev_i32
// CHECK: s_endpgm
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
