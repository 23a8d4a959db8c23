// NVIDIA: a dot's result stored (an epilogue) converts to a layout of
// 16-byte runs over the dot's own warp tiles (DefaultLayouts.h,
// warpLocalStoreLayout): each thread 2 rows of 4 f32, 8 lanes down and 4
// across, the waves as the dot's. The pointers and the mask take it; the
// store moves 16 bytes at a time (Target/NVPTX/matmul-wgmma.mlir).
// RUN: ktc-opt %S/../Target/Inputs/matmul-loop.mlir --ktc-assign-layouts="num-warps=4 wave-size=32 arch=sm_90a" | FileCheck %s
// AMD keeps storing in the matrix instruction's layout.
// RUN: ktc-opt %S/../Target/Inputs/matmul-loop.mlir --ktc-assign-layouts="num-warps=4 wave-size=64 arch=gfx942" | FileCheck %s --check-prefix=AMD

// CHECK: #[[EPI:blocked[0-9]*]] = #ktc.blocked<{sizePerThread = [2, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @matmul
// CHECK: %[[C:.*]] = ktc.convert_layout %{{.*}} : tensor<64x64xf32, #ktc.mma<{instr = "wgmma64x64x16_f16", warpsPerCTA = [4, 1]}>> -> tensor<64x64xf32, #[[EPI]]>
// CHECK: ktc.store %{{.*}}, %[[C]], mask %{{.*}} : tensor<64x64x!ktc.ptr<f32>, #[[EPI]]>

// AMD-LABEL: func.func @matmul
// AMD: ktc.store %{{.*}}, %{{.*}}, mask %{{.*}} : tensor<64x64x!ktc.ptr<f32>, #ktc.mma<
