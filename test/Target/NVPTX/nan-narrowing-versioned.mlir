// A block's many narrowings are versioned (lib/Target/NVPTX/NanNarrowing.cpp):
// one NaN test of all their inputs (setp.nan pairs two), then the plain
// conversions (cvt.rn.f16x2.f32, one for two) where there is no NaN, or the
// conversions that keep each NaN's sign and top payload bits (the selects
// of nan-narrowing.mlir) where there is one; phis join them before the
// stores. 256 elements on one warp: 8 narrowings a thread.
// RUN: ktc-compile %s --target=sm_90 --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: ktc-compile %s --target=sm_90 --emit=asm | FileCheck %s
// RUN: ktc-compile %s --target=sm_90 --emit=asm -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// LLVM-LABEL: define ptx_kernel void @narrow_many(
// LLVM: fcmp uno float
// LLVM: br i1 %{{[0-9a-z.]+}}, label %narrow.fast.nan, label %narrow.fast
// LLVM: narrow.fast:
// LLVM-NOT: select
// LLVM: br label %narrow.join
// LLVM: narrow.fast.nan:
// LLVM: fcmp uno
// LLVM: select
// LLVM: narrow.join:
// LLVM: phi
// LLVM: store

// CHECK-LABEL: .entry narrow_many(
// CHECK: setp.nan.f32
// CHECK: @%p{{[0-9]+}} bra
// CHECK-DAG: cvt.rn.f16x2.f32
// CHECK-DAG: selp.b16
// CHECK: st.global
module {
  func.func @narrow_many(%p: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}, %q: !ktc.ptr<f16> {ktc.divisibility = 16 : i32}) attributes {ktc.kernel, ktc.num_warps = 1 : i32} {
    %offs = ktc.arange 0, 256 : tensor<256xi32>
    %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<256x!ktc.ptr<f32>>
    %pp = ktc.addptr %pb, %offs : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
    %x = ktc.load %pp : tensor<256x!ktc.ptr<f32>>
    %h = arith.truncf %x : tensor<256xf32> to tensor<256xf16>
    %qb = ktc.splat %q : !ktc.ptr<f16> -> tensor<256x!ktc.ptr<f16>>
    %qp = ktc.addptr %qb, %offs : tensor<256x!ktc.ptr<f16>>, tensor<256xi32>
    ktc.store %qp, %h : tensor<256x!ktc.ptr<f16>>
    return
  }
}
