// Aligned vector-add on AMD GPUs: dwordx4 global accesses, waves of 64 on
// CDNA and 32 on RDNA, no scratch, code object v5; the VGPR count is Triton's
// (gfx942, BLOCK 1024, 4 warps, aligned: 10). On CDNA (gfx90a, gfx94x, gfx950) the
// kernel arguments are preloaded into SGPRs (with the backend's branch over
// the fallback for firmware that does not), so each address is built in the
// registers its load then overwrites.
// RUN: ktc-compile %S/../Inputs/add_spec16.mlir --target=gfx942 --emit=asm | FileCheck %s --check-prefixes=ISA,PRELOAD
// RUN: ktc-compile %S/../Inputs/add_spec16.mlir --target=gfx90a --emit=asm | FileCheck %s --check-prefixes=ISA,PRELOAD
// RUN: ktc-compile %S/../Inputs/add_spec16.mlir --target=gfx942 --emit=bin -o %t.gfx942.hsaco
// RUN: llvm-readelf --notes %t.gfx942.hsaco | FileCheck %s --check-prefix=NOTES942
// RUN: ktc-compile %S/../Inputs/add_spec16.mlir --target=gfx1100 --emit=bin -o %t.gfx1100.hsaco
// RUN: llvm-readelf --notes %t.gfx1100.hsaco | FileCheck %s --check-prefix=NOTES1100
// RUN: ktc-compile %S/../Inputs/add_spec16.mlir --target=gfx950 --emit=asm | FileCheck %s --check-prefixes=ISA,PRELOAD
// RUN: ktc-compile %S/../Inputs/add_spec16.mlir --target=gfx1200 --emit=asm | FileCheck %s --check-prefix=RDNA4

// ISA: add_kernel:
// PRELOAD-NEXT: s_load_dwordx2 s[{{[0-9]+}}:{{[0-9]+}}], s[{{[0-9]+}}:{{[0-9]+}}], 0x0
// PRELOAD: s_branch
// ISA-COUNT-2: global_load_dwordx4
// ISA: global_store_dwordx4
// ISA-NOT: {{^[[:space:]]+(scratch|buffer)_(load|store)}}
// ISA: .amdhsa_private_segment_fixed_size 0
// PRELOAD: .amdhsa_user_sgpr_kernarg_preload_length 7
// ISA: .amdhsa_next_free_vgpr

// NOTES942: amdhsa.kernels:
// NOTES942: .group_segment_fixed_size: 0
// NOTES942: .max_flat_workgroup_size: 256
// NOTES942: .name: add_kernel
// NOTES942: .private_segment_fixed_size: 0
// NOTES942: .sgpr_count: 16
// NOTES942: .vgpr_count: 10
// NOTES942: .vgpr_spill_count: 0
// NOTES942: .wavefront_size: 64
// NOTES942: amdhsa.target: amdgcn-amd-amdhsa--gfx942
// NOTES942: amdhsa.version:
// NOTES942-NEXT: - 1
// NOTES942-NEXT: - 2

// NOTES1100: .max_flat_workgroup_size: 128
// NOTES1100: .private_segment_fixed_size: 0
// NOTES1100: .wavefront_size: 32
// NOTES1100: amdhsa.target: amdgcn-amd-amdhsa--gfx1100

// RDNA4: global_load_b128
// RDNA4: global_store_b128
// RDNA4: .amdhsa_wavefront_size32 1
