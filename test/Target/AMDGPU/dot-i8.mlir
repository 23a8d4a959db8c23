// i8 x i8 -> i32 dots on AMD's matrix cores: MFMA's i8 forms (gfx90a's
// 32x32x8i8 and 16x16x16i8, which gfx940 dropped; gfx942's 32x32x16_i8 and
// 16x16x32_i8; gfx950's 32x32x32_i8 and 16x16x64_i8) and WMMA iu8 with
// both operands signed (neg_lo:[1,1,0]) on gfx11 and gfx12; blocks smaller
// than every instruction multiply in integer mads. No scratch.
// RUN: ktc-compile %S/../Inputs/dot-i8.mlir --target=gfx942 --emit=asm | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: ktc-compile %S/../Inputs/dot-i8.mlir --target=gfx90a --emit=asm | FileCheck %s --check-prefixes=CHECK,GFX90A
// RUN: ktc-compile %S/../Inputs/dot-i8.mlir --target=gfx950 --emit=asm | FileCheck %s --check-prefixes=CHECK,GFX950
// RUN: ktc-compile %S/../Inputs/dot-i8.mlir --target=gfx1100 --emit=asm | FileCheck %s --check-prefixes=CHECK,GFX11
// RUN: ktc-compile %S/../Inputs/dot-i8.mlir --target=gfx1200 --emit=asm | FileCheck %s --check-prefixes=CHECK,GFX12

// 64x64x64 over 4 waves: a 32x32 tile a wave, K in steps of 16 (gfx942),
// 8 (gfx90a) or 32 (gfx950); wave 32: 16 tiles of 16x16, 4 a wave, 4 K
// steps. gfx942 reads 8 i8 a lane (one 8-byte operand), gfx950 16.
// CHECK-LABEL: dot_i8:
// GFX942-COUNT-4: v_mfma_i32_32x32x16_i8 v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}],
// GFX90A-COUNT-8: v_mfma_i32_32x32x8i8
// GFX950-COUNT-2: v_mfma_i32_32x32x32_i8
// GFX11-COUNT-16: v_wmma_i32_16x16x16_iu8 v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], {{.*}} neg_lo:[1,1,0]
// GFX12-COUNT-16: v_wmma_i32_16x16x16_iu8 v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], {{.*}} neg_lo:[1,1,0]
// CHECK-NOT: v_mfma
// CHECK-NOT: v_wmma
// CHECK: s_endpgm
// CHECK: .amdhsa_private_segment_fixed_size 0

// 16x16x64: the 16x16 forms (the other waves replicas).
// CHECK-LABEL: dot_i8_16:
// GFX942-COUNT-2: v_mfma_i32_16x16x32_i8
// GFX90A-COUNT-4: v_mfma_i32_16x16x16i8
// GFX950: v_mfma_i32_16x16x64_i8
// GFX11-COUNT-4: v_wmma_i32_16x16x16_iu8
// GFX12-COUNT-4: v_wmma_i32_16x16x16_iu8
// CHECK-NOT: v_mfma
// CHECK-NOT: v_wmma
// CHECK: s_endpgm
// CHECK: .amdhsa_private_segment_fixed_size 0

// 8x8x8: smaller than every instruction, integer multiply-adds.
// CHECK-LABEL: dot_i8_fma:
// CHECK-NOT: v_mfma
// CHECK-NOT: v_wmma
// CHECK: v_mad_i32_i24
// CHECK: s_endpgm
// CHECK: .amdhsa_private_segment_fixed_size 0
