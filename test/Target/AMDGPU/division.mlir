// f32 division on gfx942: `/` is LLVM's correctly rounded sequence
// (v_div_scale, v_div_fmas, v_div_fixup), as on the host and NVPTX; fdiv
// (afn) is a reciprocal and a multiply.
// RUN: ktc-compile %s --target=gfx942 --emit=asm | FileCheck %s

// CHECK-LABEL: divide:
// CHECK-DAG: v_div_scale_f32
// CHECK-DAG: v_div_fixup_f32
// CHECK-DAG: v_rcp_f32
func.func @divide(%p: !ktc.ptr<f32>, %q: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %offs = ktc.arange 0, 256 : tensor<256xi32>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<256x!ktc.ptr<f32>>
  %pp = ktc.addptr %pb, %offs : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
  %qb = ktc.splat %q : !ktc.ptr<f32> -> tensor<256x!ktc.ptr<f32>>
  %qp = ktc.addptr %qb, %offs : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
  %x = ktc.load %pp : tensor<256x!ktc.ptr<f32>>
  %y = ktc.load %qp : tensor<256x!ktc.ptr<f32>>
  %rn = arith.divf %x, %y : tensor<256xf32>
  ktc.store %pp, %rn : tensor<256x!ktc.ptr<f32>>
  %fast = arith.divf %y, %x fastmath<afn,arcp> : tensor<256xf32>
  ktc.store %qp, %fast : tensor<256x!ktc.ptr<f32>>
  return
}
