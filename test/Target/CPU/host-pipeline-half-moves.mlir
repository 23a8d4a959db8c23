// The host pipeline moves 16-bit floats as i16: where(c, a, b) and
// load(p, mask, other) of bf16 and f16 reach LLVM as selects, phis, loads
// and stores of i16, none of bfloat or half (LLVM's x86 backend carried
// those through f32 with vcvtneps2bf16 on AVX512-BF16 hosts, flushing
// subnormals and quieting signalling NaNs: issue 22).
// RUN: ktc-opt --ktc-host-pipeline %s | FileCheck %s

// CHECK-LABEL: llvm.func @moves(
// CHECK-NOT: {{bf16|f16}}
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> i16
// CHECK: llvm.br ^{{.*}}(%{{.*}} : i16)
// CHECK: llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i16
// CHECK: llvm.store %{{.*}}, %{{.*}} : i16, !llvm.ptr
// CHECK-NOT: {{bf16|f16}}
// CHECK: llvm.return
func.func @moves(%xb: !ktc.ptr<bf16>, %xh: !ktc.ptr<f16>, %ob: !ktc.ptr<bf16>,
                 %oh: !ktc.ptr<f16>) attributes {ktc.kernel, ktc.num_warps = 1 : i32} {
  %zero = arith.constant dense<0> : tensor<4xi32>
  %one = arith.constant dense<1> : tensor<4xi32>
  %offs = ktc.arange 0, 4 : tensor<4xi32>
  %bit = arith.andi %offs, %one : tensor<4xi32>
  %odd = arith.cmpi ne, %bit, %zero : tensor<4xi32>
  %pb = ktc.splat %xb : !ktc.ptr<bf16> -> tensor<4x!ktc.ptr<bf16>>
  %ab = ktc.addptr %pb, %offs : tensor<4x!ktc.ptr<bf16>>, tensor<4xi32>
  %bb = ktc.addptr %pb, %one : tensor<4x!ktc.ptr<bf16>>, tensor<4xi32>
  %vb = ktc.load %ab : tensor<4x!ktc.ptr<bf16>>
  %wb = ktc.load %bb : tensor<4x!ktc.ptr<bf16>>
  %lb = ktc.load %ab, mask %odd, other %wb : tensor<4x!ktc.ptr<bf16>>
  %sb = arith.select %odd, %lb, %vb : tensor<4xi1>, tensor<4xbf16>
  %qb = ktc.splat %ob : !ktc.ptr<bf16> -> tensor<4x!ktc.ptr<bf16>>
  %rb = ktc.addptr %qb, %offs : tensor<4x!ktc.ptr<bf16>>, tensor<4xi32>
  ktc.store %rb, %sb : tensor<4x!ktc.ptr<bf16>>
  %ph = ktc.splat %xh : !ktc.ptr<f16> -> tensor<4x!ktc.ptr<f16>>
  %ah = ktc.addptr %ph, %offs : tensor<4x!ktc.ptr<f16>>, tensor<4xi32>
  %bh = ktc.addptr %ph, %one : tensor<4x!ktc.ptr<f16>>, tensor<4xi32>
  %vh = ktc.load %ah : tensor<4x!ktc.ptr<f16>>
  %wh = ktc.load %bh : tensor<4x!ktc.ptr<f16>>
  %lh = ktc.load %ah, mask %odd, other %wh : tensor<4x!ktc.ptr<f16>>
  %sh = arith.select %odd, %lh, %vh : tensor<4xi1>, tensor<4xf16>
  %qh = ktc.splat %oh : !ktc.ptr<f16> -> tensor<4x!ktc.ptr<f16>>
  %rh = ktc.addptr %qh, %offs : tensor<4x!ktc.ptr<f16>>, tensor<4xi32>
  ktc.store %rh, %sh : tensor<4x!ktc.ptr<f16>>
  return
}
