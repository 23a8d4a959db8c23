// WMMA with 16-bit results stored. gfx1250 (GFX12.5) multiplies on its own
// WMMA, v_wmma_f32_16x16x32 (f16 and bf16; it has no 16x16x16 form), one
// instruction per 16x16 tile and K step of 32: 4 a wave for 64x64x32 over 4
// waves. gfx12 (gfx1200) and gfx1250 give the instruction B as its A and A
// as its B (C^T: MmaLayouts.cpp, swapAB), so that a lane holds 8
// consecutive n of a row of C and the rounded result is stored 16 bytes at
// a time (it was 2 bytes on gfx1200: a lane held a column's rows); gfx11's
// C (a lane's registers 2 rows apart) is still stored 2 bytes at a time.
// No scratch. (Numbers: test/unit/MmaTableTest.cpp checks each layout
// against the ISA's operand tables; no gfx12 or gfx1250 runs here.)
// RUN: ktc-compile %S/../Inputs/dot_16bit_out.mlir --target=gfx1250 --emit=asm | FileCheck %s --check-prefixes=CHECK,GFX1250
// RUN: ktc-compile %S/../Inputs/dot_16bit_out.mlir --target=gfx1200 --emit=asm | FileCheck %s --check-prefixes=CHECK,GFX12
// RUN: ktc-compile %S/../Inputs/dot_16bit_out.mlir --target=gfx1100 --emit=asm | FileCheck %s --check-prefixes=CHECK,GFX11

// CHECK-LABEL: dot_f16_out:
// GFX1250-COUNT-4: v_wmma_f32_16x16x32_f16 v[{{[0-9]+:[0-9]+}}], v[{{[0-9]+:[0-9]+}}], v[{{[0-9]+:[0-9]+}}], {{0|v}}
// GFX12-COUNT-8: v_wmma_f32_16x16x16_f16
// GFX11-COUNT-8: v_wmma_f32_16x16x16_f16
// CHECK-NOT: v_wmma
// GFX1250-NOT: global_store_b16
// GFX1250-COUNT-4: global_store_b128
// GFX12-NOT: global_store_b16
// GFX12-COUNT-4: global_store_b128
// GFX11: global_store_b16
// CHECK-NOT: {{scratch_|buffer_store}}
// CHECK: s_endpgm
// CHECK: .amdhsa_private_segment_fixed_size 0

// CHECK-LABEL: dot_bf16_out:
// GFX1250-COUNT-4: v_wmma_f32_16x16x32_bf16
// GFX12-COUNT-8: v_wmma_f32_16x16x16_bf16
// GFX11-COUNT-8: v_wmma_f32_16x16x16_bf16
// CHECK-NOT: v_wmma
// GFX1250-COUNT-4: global_store_b128
// GFX12-COUNT-4: global_store_b128
// GFX1250-NOT: global_store_{{b16|d16}}
// GFX12-NOT: global_store_{{b16|d16}}
// CHECK-NOT: {{scratch_|buffer_store}}
// CHECK: s_endpgm
// CHECK: .amdhsa_private_segment_fixed_size 0
