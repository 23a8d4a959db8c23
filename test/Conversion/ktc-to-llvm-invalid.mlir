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

// The error points at the op needing the most shared memory (the 64x1024
// f32 reduction: 4 bytes an element) and names the target's limit (sm_90:
// 227 KiB a block, opting in).
module {
  func.func @too_big(%x: tensor<65536xf32, #ktc.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) {
    return
  }
  func.func @two_d(%x: tensor<64x1024xf32, #ktc.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>>) {
    // expected-error @+1 {{kernel 'two_d' needs 262144 bytes of shared memory to move blocks between threads; sm_90 allows 232448 per workgroup: use smaller blocks}}
    %s = ktc.reduce sum %x axis = 1 : tensor<64x1024xf32, #ktc.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>> -> tensor<64xf32, #ktc.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
    return
  }
}

// -----

func.func @wrong_wave(%x: tensor<256xf32, #ktc.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>) {
  // expected-error @+1 {{the block's layout (wave 64, 4 warps) does not match the target (wave 32, 4 warps)}}
  %y = math.exp %x : tensor<256xf32, #ktc.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>
  return
}
