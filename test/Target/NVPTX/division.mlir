// f32 division on sm_90: `/` (arith.divf) is correctly rounded, div.rn.f32
// as on the host and on AMDGPU; fdiv (arith.divf with afn) is div.full.f32.
// REQUIRES: ptxas
// RUN: ktc-compile %s --target=sm_90 --emit=asm | FileCheck %s
// RUN: ktc-compile %s --target=sm_90 --emit=asm > %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin

// CHECK-LABEL: .visible .entry divide(
// CHECK: div.rn.f32
// CHECK: div.full.f32
// CHECK-NOT: div.approx
func.func @divide(%p: !ktc.ptr<f32>, %q: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %offs = ktc.arange 0, 128 : tensor<128xi32>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<128x!ktc.ptr<f32>>
  %pp = ktc.addptr %pb, %offs : tensor<128x!ktc.ptr<f32>>, tensor<128xi32>
  %qb = ktc.splat %q : !ktc.ptr<f32> -> tensor<128x!ktc.ptr<f32>>
  %qp = ktc.addptr %qb, %offs : tensor<128x!ktc.ptr<f32>>, tensor<128xi32>
  %x = ktc.load %pp : tensor<128x!ktc.ptr<f32>>
  %y = ktc.load %qp : tensor<128x!ktc.ptr<f32>>
  %rn = arith.divf %x, %y : tensor<128xf32>
  ktc.store %pp, %rn : tensor<128x!ktc.ptr<f32>>
  %fast = arith.divf %x, %y fastmath<afn,arcp> : tensor<128xf32>
  ktc.store %qp, %fast : tensor<128x!ktc.ptr<f32>>
  return
}
