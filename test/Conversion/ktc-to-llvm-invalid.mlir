// RUN: ktc-opt %s -split-input-file --convert-ktc-to-llvm="target=sm_90 num-warps=4" -verify-diagnostics
// RUN: not ktc-opt %s --convert-ktc-to-llvm="target=tpu9" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not ktc-compile %s --target=gfx 2>&1 | FileCheck %s --check-prefix=COMPILE
// RUN: not ktc-compile %s --target=sm_90 --emit=obj 2>&1 | FileCheck %s --check-prefix=EMIT

// TARGET: convert-ktc-to-llvm: unknown target 'tpu9' (host, sm_<N> or gfx<N>)
// COMPILE: ktc-compile: error: unknown GPU target 'gfx': LLVM's AMDGPU backend does not know it
// EMIT: ktc-compile: for the --emit option: Cannot find option named 'obj'!

func.func @no_layout(%p: !ktc.ptr<f32>) attributes {ktc.kernel} {
  // expected-error @+1 {{block without a layout: run ktc-assign-layouts before convert-ktc-to-llvm}}
  %r = ktc.arange 0, 128 : tensor<128xi32>
  return
}

// -----

// A 1x65536 f32 block changing layout (256 KiB, past sm_90's 227 KiB a
// block) goes in pieces along its last dimension: no error. (A conversion
// always fits now, the pieces being cut down to one vector's columns;
// blocks past the registers are refused first.)
#rows = #ktc.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #ktc.blocked<{sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module {
  func.func @small(%x: tensor<64x64xf32, #rows>) {
    %y = ktc.convert_layout %x : tensor<64x64xf32, #rows> -> tensor<64x64xf32, #cols>
    return
  }
  func.func @two_d(%x: tensor<1x65536xf32, #rows>) {
    %y = ktc.convert_layout %x : tensor<1x65536xf32, #rows> -> tensor<1x65536xf32, #cols>
    return
  }
}

// -----

func.func @wrong_wave(%x: tensor<256xf32, #ktc.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>) {
  // expected-error @+1 {{the block's layout (wave 64, 4 warps) does not match the target (wave 32, 4 warps)}}
  %y = math.exp %x : tensor<256xf32, #ktc.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>
  return
}

// -----

// f64 exp/log are written in f64 arithmetic by ktc-expand-math before the
// lowering (ExpandMathF64.cpp); one that reaches it unexpanded is refused
// rather than computed in f32.
func.func @f64_exp(%x: f64) {
  // expected-error @+2 {{exp of f64 reached the GPU lowering unexpanded: run ktc-expand-math first (the compile pipeline does)}}
  // expected-error @+1 {{failed to legalize operation 'math.exp'}}
  %y = math.exp %x : f64
  return
}
