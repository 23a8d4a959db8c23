// ktc.inline_asm_elementwise on AMDGPU (Inputs/inline-asm.mlir): the
// amdgpu entry, parsed by LLVM's assembler, on CDNA (wave 64) and RDNA
// (wave 32).
// RUN: ktc-compile %S/../Inputs/inline-asm.mlir --target=gfx942 --emit=asm | FileCheck %s
// RUN: ktc-compile %S/../Inputs/inline-asm.mlir --target=gfx1100 --emit=asm | FileCheck %s

// CHECK-LABEL: bytes:
// CHECK: ;;#ASMSTART
// CHECK-NEXT: v_and_b32 [[V:v[0-9]+]], 0x1f1f1f1f, v{{[0-9]+}}
// CHECK-NEXT: v_lshlrev_b32 [[V]], 3, [[V]]
// CHECK-NEXT: ;;#ASMEND
// CHECK-NOT: ;;#ASMSTART
// CHECK: s_endpgm

// CHECK-LABEL: pair:
// CHECK: ;;#ASMSTART
// CHECK-NEXT: v_add3_u32 v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}, 0
// CHECK-NEXT: v_not_b32
// CHECK-NEXT: v_add3_u32 v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}, 1
// CHECK-NEXT: ;;#ASMEND
// CHECK: s_endpgm
