// Softmax on AMD GPUs: wave reductions by DPP within rows of 16 lanes
// (quad permutations, row half-mirror, row mirror; folded into the
// arithmetic by the backend) and ds_bpermute across rows (2 steps on wave64,
// 1 on wave32), s_barrier around the LDS step, v_exp_f32 for exp, no
// scratch.
// RUN: ktc-compile %ktc_src/examples/softmax/softmax_online.mlir --target=gfx942 --emit=asm | FileCheck %s
// RUN: ktc-compile %ktc_src/examples/softmax/softmax_online.mlir --target=gfx1100 --emit=asm | FileCheck %s --check-prefix=RDNA
// RUN: ktc-compile %ktc_src/examples/softmax/softmax_fused.mlir --target=gfx942 --num-warps=8 --emit=bin -o %t.hsaco
// RUN: llvm-readelf --notes %t.hsaco | FileCheck %s --check-prefix=FUSED
// RUN: ktc-compile %ktc_src/examples/softmax/softmax_online.mlir --target=gfx942 --emit=asm | FileCheck %s --check-prefix=BARRIERS
// RUN: ktc-compile %ktc_src/examples/softmax/softmax_fused.mlir --target=gfx942 --num-warps=8 --emit=asm | FileCheck %s --check-prefix=BARRIERS

// CHECK: softmax_online:
// CHECK: _dpp {{.*}} quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf bound_ctrl:1
// CHECK: _dpp {{.*}} quad_perm:[2,3,0,1]
// CHECK: _dpp {{.*}} row_half_mirror
// CHECK: _dpp {{.*}} row_mirror
// CHECK-COUNT-2: ds_bpermute_b32
// CHECK-NOT: ds_bpermute_b32
// CHECK: s_barrier
// CHECK: v_add_f32_dpp {{.*}} quad_perm:[1,0,3,2]
// CHECK: v_exp_f32
// CHECK-NOT: {{^[[:space:]]+(scratch|buffer)_(load|store)}}
// CHECK: .amdhsa_group_segment_fixed_size 64
// CHECK: .amdhsa_private_segment_fixed_size 0

// RDNA: softmax_online:
// RDNA: _dpp {{.*}} row_mirror
// RDNA-COUNT-1: ds_bpermute_b32
// RDNA-NOT: ds_bpermute_b32
// RDNA: s_barrier
// RDNA: v_exp_f32
// RDNA: .amdhsa_wavefront_size32 1

// FUSED: .group_segment_fixed_size: 128
// FUSED: .max_flat_workgroup_size: 512
// FUSED: .name: softmax_fused
// FUSED: .private_segment_fixed_size: 0
// FUSED: .wavefront_size: 64

// Two reductions a loop iteration (online) or a row (fused), each with LDS
// slots of its own: one s_barrier each (planReductionSlots).
// BARRIERS-COUNT-2: s_barrier
// BARRIERS-NOT: s_barrier
