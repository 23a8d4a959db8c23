// Philox random numbers (Random.h) on gfx942: v_mul_hi_u32 and
// v_mul_lo_u32 for each round's multiplies, v_xor_b32 for the rest,
// v_cvt_f32_i32 for rand's conversion; no v_log_f32, v_sin_f32 or v_cos_f32
// (randn uses ktc's exact sequences, the host's bits).
// RUN: ktc-compile %S/../Inputs/random_draw.mlir --target=gfx942 --emit=asm | FileCheck %s

// CHECK-LABEL: random_draw_gpu:
// CHECK-NOT: v_log_f32
// CHECK-NOT: v_sin_f32
// CHECK-NOT: v_cos_f32
// CHECK-DAG: v_mul_hi_u32
// CHECK-DAG: v_mul_lo_u32
// CHECK-DAG: v_xor_b32
// CHECK-DAG: v_cvt_f32_i32
// CHECK-NOT: v_log_f32
// CHECK-NOT: v_sin_f32
// CHECK-NOT: v_cos_f32
// CHECK: s_endpgm
