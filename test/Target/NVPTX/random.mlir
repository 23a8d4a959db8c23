// Philox random numbers (Random.h) on sm_90: each round's two 32x32 -> 64
// multiplies become mul.hi.u32 and mul.lo.s32, the rest xor.b32; rand's
// conversion is cvt.rn.f32.s32 and one multiply; randn's log,
// sqrt and cos are ktc's exact sequences (no .approx instruction), so the
// bits are the host's.
// RUN: ktc-compile %S/../Inputs/random_draw.mlir --target=sm_90 --emit=asm | FileCheck %s

// CHECK-LABEL: .entry random_draw_gpu(
// CHECK-NOT: .approx
// CHECK-DAG: mul.hi.u32
// CHECK-DAG: mul.lo.s32
// CHECK-DAG: xor.b32
// CHECK-DAG: cvt.rn.f32.s32
// CHECK-DAG: sqrt.rn.f32
// CHECK-NOT: .approx
// CHECK: st.global
// CHECK-NOT: .approx
// CHECK: ret;
