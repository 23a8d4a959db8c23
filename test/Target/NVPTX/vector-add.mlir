// Aligned vector-add on sm_90: 16-byte global loads and stores, 128 threads.
// RUN: ktc-compile %S/../Inputs/add_spec16.mlir --target=sm_90 --emit=asm | FileCheck %s
// Unaligned sizes: the mask varies per element, so accesses are scalar.
// RUN: ktc-compile %ktc_src/examples/vector_add/vector_add.mlir --target=sm_90 --emit=asm | FileCheck %s --check-prefix=PLAIN
// RUN: ktc-compile %S/../Inputs/add_spec16.mlir --target=sm_80 --emit=llvm | FileCheck %s --check-prefix=LLVM

// CHECK: .version 8.0
// CHECK: .target sm_90
// CHECK: .visible .entry add_kernel(
// CHECK: .reqntid 128, 1, 1
// CHECK-COUNT-4: ld.global.v4.b32
// CHECK-COUNT-2: st.global.v4.b32
// CHECK-NOT: ld.global.b32
// CHECK-NOT: .local

// PLAIN-NOT: ld.global.v4
// PLAIN: ld.global.b32
// PLAIN: st.global.b32

// LLVM: target triple = "nvptx64-nvidia-cuda"
// LLVM: define ptx_kernel void @add_kernel(ptr addrspace(1) {{.*}}, ptr addrspace(1) {{.*}}, ptr addrspace(1) {{.*}}, i32 {{.*}})
// Masked 16-byte accesses are predicated (no branch), as Triton writes them:
// LLVM: asm sideeffect "mov.b32 $0, $6;{{.*}}@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];"
// LLVM: asm sideeffect "@$1 st.global.v4.b32 [$0], {$2, $3, $4, $5};"
