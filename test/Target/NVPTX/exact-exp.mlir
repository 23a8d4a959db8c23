// RUN: ktc-compile %s --target=sm_90 --emit=asm | FileCheck %s --check-prefix=PTX
// On sm_90 the exact exp is fma and integer code, no ex2.approx.
// PTX-LABEL: .entry kexp(
// PTX-NOT: ex2.approx
// PTX: fma.rn.f32
// PTX-NOT: ex2.approx
// PTX: ret;
func.func @kexp(%p: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<128x!ktc.ptr<f32>>
  %ps = ktc.addptr %pb, %r : tensor<128x!ktc.ptr<f32>>, tensor<128xi32>
  %x = ktc.load %ps : tensor<128x!ktc.ptr<f32>>
  %e = math.exp %x : tensor<128xf32>
  ktc.store %ps, %e : tensor<128x!ktc.ptr<f32>>
  return
}
