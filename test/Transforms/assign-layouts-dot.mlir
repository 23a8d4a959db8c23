// RUN: ktc-opt %s --ktc-assign-layouts="num-warps=4 wave-size=64 arch=gfx942" | FileCheck %s --check-prefix=GFX942
// RUN: ktc-opt %s --ktc-assign-layouts="num-warps=4 wave-size=32 arch=sm_90" | FileCheck %s --check-prefix=SM90
// RUN: ktc-opt %s --ktc-assign-layouts="num-warps=4 wave-size=32 arch=gfx1100" | FileCheck %s --check-prefix=RDNA3
// RUN: ktc-opt %s --ktc-assign-layouts="num-warps=4 wave-size=32" | FileCheck %s --check-prefix=FMA

// A dot's result (and its accumulator, carried through the loop) takes the
// matrix instruction's layout; its operands keep their loads' blocked
// layouts (the dot stages them through shared memory itself, into the
// #ktc.dot_operand layouts of its result). Without an architecture (or for
// f32 operands) the result keeps a blocked layout (the FMA path).
// GFX942-LABEL: func.func @loop
// GFX942: scf.for {{.*}} -> (tensor<128x64xf32, #ktc.mma<{instr = "mfma32x32x8_f16", warpsPerCTA = [4, 1]}>>)
// GFX942-NOT: ktc.convert_layout
// GFX942: ktc.dot {{.*}} : tensor<128x32xf16, #blocked{{[0-9]*}}>, tensor<32x64xf16, #blocked{{[0-9]*}}> -> tensor<128x64xf32, #ktc.mma<{instr = "mfma32x32x8_f16", warpsPerCTA = [4, 1]}>>
// SM90: #ktc.mma<{instr = "mma16816_f16", warpsPerCTA = [2, 2]}>
// RDNA3: #ktc.mma<{instr = "wmma16x16x16_f16", warpsPerCTA = [4, 1]}>
// FMA-LABEL: func.func @loop
// FMA-NOT: #ktc.mma
// FMA-NOT: ktc.convert_layout
// FMA: ktc.dot {{.*}} -> tensor<128x64xf32, #blocked
func.func @loop(%a: !ktc.ptr<f16>, %b: !ktc.ptr<f16>, %c: !ktc.ptr<f32>, %n: i32) attributes {ktc.kernel} {
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %ao = arith.constant dense<1> : tensor<128x32xi32>
  %bo = arith.constant dense<1> : tensor<32x64xi32>
  %co = arith.constant dense<1> : tensor<128x64xi32>
  %pa = ktc.splat %a : !ktc.ptr<f16> -> tensor<128x32x!ktc.ptr<f16>>
  %qa = ktc.addptr %pa, %ao : tensor<128x32x!ktc.ptr<f16>>, tensor<128x32xi32>
  %pb = ktc.splat %b : !ktc.ptr<f16> -> tensor<32x64x!ktc.ptr<f16>>
  %qb = ktc.addptr %pb, %bo : tensor<32x64x!ktc.ptr<f16>>, tensor<32x64xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero) -> (tensor<128x64xf32>) : i32 {
    %x = ktc.load %qa : tensor<128x32x!ktc.ptr<f16>>
    %y = ktc.load %qb : tensor<32x64x!ktc.ptr<f16>>
    %d = ktc.dot %x, %y, %s : tensor<128x32xf16>, tensor<32x64xf16> -> tensor<128x64xf32>
    scf.yield %d : tensor<128x64xf32>
  }
  %pc = ktc.splat %c : !ktc.ptr<f32> -> tensor<128x64x!ktc.ptr<f32>>
  %qc = ktc.addptr %pc, %co : tensor<128x64x!ktc.ptr<f32>>, tensor<128x64xi32>
  ktc.store %qc, %acc : tensor<128x64x!ktc.ptr<f32>>
  return
}
