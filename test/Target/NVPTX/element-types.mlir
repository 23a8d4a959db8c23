// The element types of issue 19 on sm_90: fp8 moves as i8 bits (loads,
// stores, addptr), unsigned i8 division, f64 loads/stores/arithmetic and an
// f64 sum that stays f64 across the wave (shuffled as two 32-bit halves).
// RUN: ktc-compile %s --target=sm_90 --emit=asm | FileCheck %s

// CHECK-LABEL: element_types
// CHECK-DAG: ld.global.b8
// CHECK-DAG: div.u16
// CHECK-DAG: st.global.b8
// CHECK-DAG: ld.global.b64
// CHECK-DAG: mul.rn.f64
// CHECK-DAG: shfl.sync.bfly.b32
// CHECK-DAG: add.rn.f64
// CHECK-DAG: st.global.b64
// CHECK-NOT: cvt.{{.*}}f32.f64
func.func @element_types(%p8: !ktc.ptr<f8E4M3FN>, %pi8: !ktc.ptr<i8>, %pd: !ktc.ptr<f64>, %pw: !ktc.ptr<i32>) attributes {ktc.kernel} {
  %offs = ktc.arange 0, 256 : tensor<256xi32>
  %a = ktc.splat %p8 : !ktc.ptr<f8E4M3FN> -> tensor<256x!ktc.ptr<f8E4M3FN>>
  %ap = ktc.addptr %a, %offs : tensor<256x!ktc.ptr<f8E4M3FN>>, tensor<256xi32>
  %x8 = ktc.load %ap : tensor<256x!ktc.ptr<f8E4M3FN>>
  %bits = arith.bitcast %x8 : tensor<256xf8E4M3FN> to tensor<256xi8>
  %b = ktc.splat %pi8 : !ktc.ptr<i8> -> tensor<256x!ktc.ptr<i8>>
  %bp = ktc.addptr %b, %offs : tensor<256x!ktc.ptr<i8>>, tensor<256xi32>
  %y = ktc.load %bp : tensor<256x!ktc.ptr<i8>>
  %q = arith.divui %y, %bits : tensor<256xi8>
  %w = arith.extui %q : tensor<256xi8> to tensor<256xi32>
  %c = ktc.splat %pw : !ktc.ptr<i32> -> tensor<256x!ktc.ptr<i32>>
  %cp = ktc.addptr %c, %offs : tensor<256x!ktc.ptr<i32>>, tensor<256xi32>
  ktc.store %cp, %w : tensor<256x!ktc.ptr<i32>>
  %back = arith.bitcast %y : tensor<256xi8> to tensor<256xf8E4M3FN>
  ktc.store %ap, %back : tensor<256x!ktc.ptr<f8E4M3FN>>
  %d = ktc.splat %pd : !ktc.ptr<f64> -> tensor<256x!ktc.ptr<f64>>
  %dp = ktc.addptr %d, %offs : tensor<256x!ktc.ptr<f64>>, tensor<256xi32>
  %z = ktc.load %dp : tensor<256x!ktc.ptr<f64>>
  %zz = arith.mulf %z, %z : tensor<256xf64>
  %s = ktc.reduce sum %zz axis = 0 : tensor<256xf64> -> f64
  %sb = ktc.splat %s : f64 -> tensor<256xf64>
  %r = arith.addf %zz, %sb : tensor<256xf64>
  ktc.store %dp, %r : tensor<256x!ktc.ptr<f64>>
  return
}
