// f64 math on gfx942 and gfx1100 (issue 19): sin, cos, tanh, erf and pow
// are ktc-expand-math's exactly rounded f64 arithmetic (ExpandMathF64*.cpp:
// the host's bits): no call (no f64 transcendental instruction; the device
// libraries are not linked), no f32 detour, no scratch; floor, ceil, rint,
// sqrt and fma are f64 VOP instructions (round is trunc and selects).
// RUN: ktc-compile %s --target=gfx942 --emit=asm | FileCheck %s
// RUN: ktc-compile %s --target=gfx1100 --emit=asm | FileCheck %s
// RUN: ktc-compile %s --target=gfx942 --emit=asm | FileCheck %s --check-prefix=NONE
// RUN: ktc-compile %s --target=gfx1100 --emit=asm | FileCheck %s --check-prefix=NONE
// NONE-NOT: s_swappc
// NONE-NOT: _f32
// NONE-NOT: scratch_
// NONE-NOT: buffer_store

// CHECK-LABEL: ksin:
// CHECK-DAG: v_rndne_f64
// CHECK-DAG: v_floor_f64
// CHECK-DAG: v_fma_f64
// CHECK: s_endpgm
func.func @ksin(%p: !ktc.ptr<f64>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %pb = ktc.splat %p : !ktc.ptr<f64> -> tensor<128x!ktc.ptr<f64>>
  %ps = ktc.addptr %pb, %r : tensor<128x!ktc.ptr<f64>>, tensor<128xi32>
  %x = ktc.load %ps : tensor<128x!ktc.ptr<f64>>
  %y = math.sin %x : tensor<128xf64>
  ktc.store %ps, %y : tensor<128x!ktc.ptr<f64>>
  return
}

// CHECK-LABEL: kcos:
// CHECK-DAG: v_rndne_f64
// CHECK-DAG: v_fma_f64
// CHECK: s_endpgm
func.func @kcos(%p: !ktc.ptr<f64>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %pb = ktc.splat %p : !ktc.ptr<f64> -> tensor<128x!ktc.ptr<f64>>
  %ps = ktc.addptr %pb, %r : tensor<128x!ktc.ptr<f64>>, tensor<128xi32>
  %x = ktc.load %ps : tensor<128x!ktc.ptr<f64>>
  %y = math.cos %x : tensor<128xf64>
  ktc.store %ps, %y : tensor<128x!ktc.ptr<f64>>
  return
}

// CHECK-LABEL: ktanh:
// CHECK-DAG: v_div_fixup_f64
// CHECK-DAG: v_fma_f64
// CHECK: s_endpgm
func.func @ktanh(%p: !ktc.ptr<f64>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %pb = ktc.splat %p : !ktc.ptr<f64> -> tensor<128x!ktc.ptr<f64>>
  %ps = ktc.addptr %pb, %r : tensor<128x!ktc.ptr<f64>>, tensor<128xi32>
  %x = ktc.load %ps : tensor<128x!ktc.ptr<f64>>
  %y = math.tanh %x : tensor<128xf64>
  ktc.store %ps, %y : tensor<128x!ktc.ptr<f64>>
  return
}

// CHECK-LABEL: kerf:
// CHECK-DAG: v_bfi_b32
// CHECK-DAG: v_fma_f64
// CHECK: s_endpgm
func.func @kerf(%p: !ktc.ptr<f64>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %pb = ktc.splat %p : !ktc.ptr<f64> -> tensor<128x!ktc.ptr<f64>>
  %ps = ktc.addptr %pb, %r : tensor<128x!ktc.ptr<f64>>, tensor<128xi32>
  %x = ktc.load %ps : tensor<128x!ktc.ptr<f64>>
  %y = math.erf %x : tensor<128xf64>
  ktc.store %ps, %y : tensor<128x!ktc.ptr<f64>>
  return
}

// CHECK-LABEL: kpow:
// CHECK-DAG: v_div_fixup_f64
// CHECK-DAG: v_floor_f64
// CHECK-DAG: v_fma_f64
// CHECK: s_endpgm
func.func @kpow(%p: !ktc.ptr<f64>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %pb = ktc.splat %p : !ktc.ptr<f64> -> tensor<128x!ktc.ptr<f64>>
  %ps = ktc.addptr %pb, %r : tensor<128x!ktc.ptr<f64>>, tensor<128xi32>
  %x = ktc.load %ps : tensor<128x!ktc.ptr<f64>>
  %y = math.powf %x, %x : tensor<128xf64>
  ktc.store %ps, %y : tensor<128x!ktc.ptr<f64>>
  return
}

// CHECK-LABEL: krest:
// CHECK-DAG: v_floor_f64
// CHECK-DAG: v_ceil_f64
// CHECK-DAG: v_rndne_f64
// CHECK-DAG: v_trunc_f64
// CHECK-DAG: v_fma_f64
// CHECK: s_endpgm
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

// CHECK-COUNT-6: .private_segment_fixed_size: 0
