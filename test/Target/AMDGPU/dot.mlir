// ktc.dot on AMD's matrix cores: MFMA on CDNA (gfx90a's and gfx942's
// 32x32x8 forms, gfx950's 32x32x16), WMMA on RDNA (16x16x16, wave 32; the
// gfx11 and gfx12 operand layouts; gfx1250's 16x16x32), one instruction
// per result tile and K step; f32 operands (ieee and tf32) take the FMA
// path. No scratch.
// RUN: ktc-compile %S/../Inputs/dot.mlir --target=gfx942 --emit=asm | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: ktc-compile %S/../Inputs/dot.mlir --target=gfx90a --emit=asm | FileCheck %s --check-prefixes=CHECK,GFX90A
// RUN: ktc-compile %S/../Inputs/dot.mlir --target=gfx950 --emit=asm | FileCheck %s --check-prefixes=CHECK,GFX950
// RUN: ktc-compile %S/../Inputs/dot.mlir --target=gfx1100 --emit=asm | FileCheck %s --check-prefixes=CHECK,WMMA
// RUN: ktc-compile %S/../Inputs/dot.mlir --target=gfx1200 --emit=asm | FileCheck %s --check-prefixes=CHECK,WMMA
// RUN: ktc-compile %S/../Inputs/dot.mlir --target=gfx1250 --emit=asm | FileCheck %s --check-prefixes=CHECK,GFX1250

// 64x64x32 over 4 waves: each wave one 32x32 tile (gfx942: 4 K steps of
// 8; gfx950: 2 of 16); wave 32: 16x16 tiles, 2 K steps, 4 tiles a wave.
// The operands reach the waves through LDS, B stored transposed (k
// fastest), so that every lane reads its 4 k of A and of B as one 8-byte
// read, not four 2-byte ones.
// CHECK-LABEL: dot_f16:
// GFX942-NOT: ds_read_u16
// GFX942: ds_read_b64
// GFX942-NOT: ds_read_u16
// GFX942-COUNT-4: v_mfma_f32_32x32x8_f16
// GFX90A-COUNT-4: v_mfma_f32_32x32x8f16
// GFX950-COUNT-2: v_mfma_f32_32x32x16_f16
// WMMA-COUNT-8: v_wmma_f32_16x16x16_f16
// gfx1250: its 16x16x32 form, one K step (dot-wmma.mlir).
// GFX1250-COUNT-4: v_wmma_f32_16x16x32_f16
// GFX1250-NOT: v_wmma
// CHECK: s_endpgm
// CHECK: .amdhsa_private_segment_fixed_size 0

// 32x64x16 bf16: 2 tiles, the other 2 waves replicas.
// CHECK-LABEL: dot_bf16:
// GFX942-COUNT-2: v_mfma_f32_32x32x8_bf16
// GFX90A-COUNT-2: v_mfma_f32_32x32x8bf16_1k
// GFX950: v_mfma_f32_32x32x16_bf16
// WMMA-COUNT-2: v_wmma_f32_16x16x16_bf16
// gfx1250 has no WMMA with K 16: FMAs.
// GFX1250-NOT: v_wmma
// CHECK: s_endpgm
// CHECK: .amdhsa_private_segment_fixed_size 0

// CHECK-LABEL: dot_f32:
// CHECK-NOT: v_mfma
// CHECK-NOT: v_wmma
// CHECK: v_fmac_f32
// CHECK: s_endpgm
// CHECK: .amdhsa_private_segment_fixed_size 0

// tf32: the operands rounded (add 0x1000, clear 13 bits), then FMAs.
// CHECK-LABEL: dot_tf32:
// CHECK-NOT: v_mfma
// CHECK: v_and_b32{{.*}}0xffffe000
// CHECK: v_fmac_f32
// CHECK: s_endpgm
// CHECK: .amdhsa_private_segment_fixed_size 0
