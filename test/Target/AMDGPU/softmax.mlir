// Softmax on AMD GPUs: wave reductions through ds_bpermute (6 steps on
// wave64, 5 on wave32), s_barrier around the LDS step, v_exp_f32 for exp,
// no scratch.
// RUN: ktc-compile %ktc_src/examples/softmax/softmax_online.mlir --target=gfx942 --emit=asm | FileCheck %s
// RUN: ktc-compile %ktc_src/examples/softmax/softmax_online.mlir --target=gfx1100 --emit=asm | FileCheck %s --check-prefix=RDNA
// RUN: ktc-compile %ktc_src/examples/softmax/softmax_fused.mlir --target=gfx942 --num-warps=8 --emit=bin -o %t.hsaco
// RUN: llvm-readelf --notes %t.hsaco | FileCheck %s --check-prefix=FUSED

// CHECK: softmax_online:
// CHECK-COUNT-6: ds_bpermute_b32
// CHECK: s_barrier
// CHECK: v_exp_f32
// CHECK-NOT: {{^[[:space:]]+(scratch|buffer)_(load|store)}}
// CHECK: .amdhsa_group_segment_fixed_size 32
// CHECK: .amdhsa_private_segment_fixed_size 0

// RDNA: softmax_online:
// RDNA-COUNT-5: ds_bpermute_b32
// RDNA: s_barrier
// RDNA: v_exp_f32
// RDNA: .amdhsa_wavefront_size32 1

// FUSED: .group_segment_fixed_size: 64
// FUSED: .max_flat_workgroup_size: 512
// FUSED: .name: softmax_fused
// FUSED: .private_segment_fixed_size: 0
// FUSED: .wavefront_size: 64
