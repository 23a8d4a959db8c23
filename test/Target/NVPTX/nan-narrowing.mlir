// f32 -> f16/bf16 on NVIDIA keeps a NaN's sign and top payload bits, as
// the host does (lib/Target/NVPTX/NanNarrowing.cpp): cvt.rn.f16.f32 and
// cvt.rn.bf16.f32 give the canonical NaN 0x7fff, so a NaN takes
// sign | 0x7e00 | (bits >> 13 & 0x3ff) (f16; bit 9 is the quiet bit, so
// LLVM masks 0x1ff) or bits >> 16 | 0x7fc0 (bf16) by a select instead.
// RUN: ktc-compile %s --target=sm_90 --emit=asm | FileCheck %s
// RUN: ktc-compile %s --target=sm_90 --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: ktc-compile %s --target=sm_90 --emit=asm -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// LLVM-LABEL: define ptx_kernel void @narrow(
// LLVM: %[[X:[0-9]+]] = load float
// LLVM: %[[H:[0-9]+]] = fptrunc float %[[X]] to half
// LLVM: %[[NAN:[0-9]+]] = fcmp uno float %[[X]], 0.0
// LLVM: select i1 %[[NAN]], half %{{[0-9]+}}, half %[[H]]
// LLVM: %[[B:[0-9]+]] = fptrunc float %[[X]] to bfloat
// LLVM: select i1 %[[NAN]], bfloat %{{[0-9]+}}, bfloat %[[B]]

// CHECK-LABEL: .entry narrow(
// CHECK: ld.global.b32 %[[X:r[0-9]+]]
// CHECK: cvt.rn.f16.f32 %[[H:rs[0-9]+]], %[[X]];
// CHECK: mov.b32 {_, %[[HI:rs[0-9]+]]}, %[[X]];
// CHECK: and.b16 %[[SIGN:rs[0-9]+]], %[[HI]], -32768;
// CHECK: shr.u32 %[[S13:r[0-9]+]], %[[X]], 13;
// CHECK: or.b16 %[[Q:rs[0-9]+]], %{{rs[0-9]+}}, 32256;
// CHECK: setp.nan.f32 %[[P:p[0-9]+]], %[[X]], %[[X]];
// CHECK: selp.b16 %[[RH:rs[0-9]+]], %[[Q]], %[[H]], %[[P]];
// CHECK: cvt.rn.bf16.f32 %[[B:rs[0-9]+]], %[[X]];
// CHECK: or.b16 %[[QB:rs[0-9]+]], %[[HI]], 32704;
// CHECK: selp.b16 %[[RB:rs[0-9]+]], %[[QB]], %[[B]], %[[P]];
// CHECK: st.global.b16 [%rd{{[0-9]+}}], %[[RH]];
// CHECK: st.global.b16 [%rd{{[0-9]+}}], %[[RB]];
module {
  func.func @narrow(%arg0: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}, %arg1: !ktc.ptr<f16> {ktc.divisibility = 16 : i32}, %arg2: !ktc.ptr<bf16> {ktc.divisibility = 16 : i32}) attributes {ktc.kernel, ktc.num_warps = 1 : i32} {
    %0 = ktc.program_id 0 : i32
    %1 = ktc.addptr %arg0, %0 : !ktc.ptr<f32>, i32
    %2 = ktc.load %1 : !ktc.ptr<f32>
    %3 = arith.truncf %2 : f32 to f16
    %4 = arith.truncf %2 : f32 to bf16
    %5 = ktc.addptr %arg1, %0 : !ktc.ptr<f16>, i32
    ktc.store %5, %3 : !ktc.ptr<f16>
    %6 = ktc.addptr %arg2, %0 : !ktc.ptr<bf16>, i32
    ktc.store %6, %4 : !ktc.ptr<bf16>
    return
  }
}
