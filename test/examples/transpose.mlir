// The shipped transpose kernel in the dialect (examples/transpose/transpose.mlir,
// specialised as on 8192 x 8192): it round-trips, and it compiles for an
// NVIDIA and an AMD GPU with the load's pointers seen contiguous along the
// tile's rows, so the load is 16 bytes wide. Where the store's pointers are
// contiguous (along the tile's columns) is the layout passes' business: not
// pinned here.
// RUN: ktc-opt %ktc_src/examples/transpose/transpose.mlir | ktc-opt | FileCheck %s
// RUN: ktc-opt --ktc-test-axis-info %ktc_src/examples/transpose/transpose.mlir 2>&1 | FileCheck %s --check-prefix=AXIS
// RUN: ktc-compile %ktc_src/examples/transpose/transpose.mlir --target=sm_90 --emit=asm | FileCheck %s --check-prefix=PTX
// RUN: ktc-compile %ktc_src/examples/transpose/transpose.mlir --target=gfx942 --emit=asm | FileCheck %s --check-prefix=GCN

// CHECK-LABEL: func.func @transpose(
// CHECK-SAME: attributes {ktc.constexpr = {BLOCK_M = 64 : i64, BLOCK_N = 64 : i64}, ktc.kernel}
// CHECK: ktc.program_id 0 : i32
// CHECK: ktc.program_id 1 : i32
// CHECK: [[TILE:%[0-9]+]] = ktc.load {{.*}} : tensor<64x64x!ktc.ptr<f32>>
// CHECK: ktc.store {{%[0-9]+}}, [[TILE]], mask {{.*}} : tensor<64x64x!ktc.ptr<f32>>

// AXIS: remark: contiguity = 64, divisibility = 16, constancy = 1
// AXIS-NEXT: %in_ptrs = ktc.addptr
// AXIS: remark: vector = 4
// AXIS-NEXT: %tile = ktc.load

// PTX: .visible .entry transpose(
// PTX: ld.global.v4.b32
// PTX: st.global
// GCN: transpose:
// GCN: global_load_dwordx4
// GCN: global_store
