// ktc.reduce_with on gfx942 and gfx1100 (wave32): the argmax of each row
// of a 64x128 f32 tile and the xor of a 1-D block of 1024 i32 (see
// Target/NVPTX/reduce-with.mlir): cross-lane moves (DPP, ds_swizzle or
// ds_bpermute), the waves' partials in LDS, s_barrier; no scratch.
// RUN: ktc-compile %S/../Inputs/argmax_rows.mlir --target=gfx942 --emit=asm | FileCheck %s
// RUN: ktc-compile %S/../Inputs/argmax_rows.mlir --target=gfx1100 --emit=asm | FileCheck %s

// CHECK-LABEL: argmax_rows:
// CHECK: v_cmp_{{.*}}_f32
// CHECK: v_cndmask_b32
// CHECK: v_xor_b32
// CHECK: s_barrier
// CHECK-NOT: scratch_
// CHECK: .amdhsa_private_segment_fixed_size 0
