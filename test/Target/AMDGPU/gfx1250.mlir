// gfx1250 (GFX12.5): wave32 code in CU mode (no WGP mode, so the kernel
// descriptor has no workgroup_processor_mode, which gfx1200 sets), with the
// kernel arguments preloaded into SGPRs. Aligned vector-add makes b128
// global accesses and no scratch access; online softmax reduces within
// rows of 16 lanes by DPP and across the two rows of a wave32 by one
// ds_bpermute per reduction, then through 64 bytes of LDS behind GFX12's
// split barrier (s_barrier_signal / s_barrier_wait). 2-D reductions may use
// up to 320 KiB of LDS a workgroup (lib/Target/Occupancy.cpp; 64 KiB before
// gfx1250 had a row there), and are refused past it.
// RUN: ktc-compile %S/../Inputs/add_spec16.mlir --target=gfx1250 --emit=asm | FileCheck %s --check-prefix=ADD
// RUN: ktc-compile %S/../Inputs/add_spec16.mlir --target=gfx1250 --emit=bin -o %t.add.hsaco
// RUN: llvm-readelf --notes %t.add.hsaco | FileCheck %s --check-prefix=NOTES
// RUN: ktc-compile %S/../Inputs/add_spec16.mlir --target=gfx1200 --emit=asm | FileCheck %s --check-prefix=WGP
// RUN: ktc-compile %ktc_src/examples/softmax/softmax_online.mlir --target=gfx1250 --emit=asm | FileCheck %s --check-prefix=SOFTMAX
// RUN: ktc-compile %ktc_src/examples/softmax/softmax_fused.mlir --target=gfx1250 --num-warps=8 --emit=bin -o %t.fused.hsaco
// RUN: llvm-readelf --notes %t.fused.hsaco | FileCheck %s --check-prefix=FUSED
// RUN: ktc-compile %S/../Inputs/transpose_128x256.mlir --target=gfx1250 --emit=bin -o %t.rows.hsaco
// RUN: llvm-readelf --notes %t.rows.hsaco | FileCheck %s --check-prefix=LDS
// RUN: ktc-compile %S/../Inputs/transpose_1x128x1024.mlir --target=gfx1250 --num-warps=16 --emit=asm | FileCheck %s --check-prefix=PIECES

// ADD: .amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
// ADD: add_kernel:
// ADD-NOT: s_load_
// ADD-COUNT-4: global_load_b128
// ADD-COUNT-2: global_store_b128
// ADD-NOT: {{^[[:space:]]+(scratch|buffer)_(load|store)}}
// ADD: .amdhsa_private_segment_fixed_size 0
// ADD: .amdhsa_user_sgpr_kernarg_preload_length 7
// ADD: .amdhsa_wavefront_size32 1
// ADD-NOT: .amdhsa_workgroup_processor_mode
// ADD: .end_amdhsa_kernel
// WGP: .amdhsa_wavefront_size32 1
// WGP: .amdhsa_workgroup_processor_mode 1

// NOTES: amdhsa.kernels:
// NOTES: .group_segment_fixed_size: 0
// NOTES: .max_flat_workgroup_size: 128
// NOTES: .name: add_kernel
// NOTES: .private_segment_fixed_size: 0
// NOTES: .vgpr_spill_count: 0
// NOTES: .wavefront_size: 32
// NOTES: amdhsa.target: amdgcn-amd-amdhsa--gfx1250
// NOTES: amdhsa.version:
// NOTES-NEXT: - 1
// NOTES-NEXT: - 2

// SOFTMAX: softmax_online:
// SOFTMAX: _dpp {{.*}} quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf bound_ctrl:1
// SOFTMAX: _dpp {{.*}} quad_perm:[2,3,0,1]
// SOFTMAX: _dpp {{.*}} row_half_mirror
// SOFTMAX: _dpp {{.*}} row_mirror
// SOFTMAX: ds_bpermute_b32
// SOFTMAX-NOT: ds_bpermute_b32
// SOFTMAX: ds_store_b32
// SOFTMAX: s_barrier_signal -1
// SOFTMAX: s_barrier_wait -1
// SOFTMAX: v_exp_f32
// SOFTMAX: v_add_f32_dpp {{.*}} quad_perm:[1,0,3,2]
// SOFTMAX: v_add_f32_dpp {{.*}} row_mirror
// SOFTMAX: ds_bpermute_b32
// SOFTMAX-NOT: ds_bpermute_b32
// SOFTMAX: ds_store_b32 {{.*}} offset:32
// SOFTMAX-NOT: ds_bpermute_b32
// SOFTMAX-NOT: {{^[[:space:]]+(scratch|buffer)_(load|store)}}
// SOFTMAX: .amdhsa_group_segment_fixed_size 64
// SOFTMAX: .amdhsa_private_segment_fixed_size 0
// SOFTMAX: .amdhsa_wavefront_size32 1

// FUSED: .group_segment_fixed_size: 128
// FUSED: .max_flat_workgroup_size: 256
// FUSED: .name: softmax_fused
// FUSED: .private_segment_fixed_size: 0
// FUSED: .wavefront_size: 32
// FUSED: amdhsa.target: amdgcn-amd-amdhsa--gfx1250

// LDS: .group_segment_fixed_size: 131072
// LDS: .name: transpose_tile
// LDS: .wavefront_size: 32

// PIECES-LABEL: transpose_slab:
// PIECES: .group_segment_fixed_size: 262144
