// ktc.inline_asm_elementwise on NVPTX (Inputs/inline-asm.mlir): the PTX
// entry, once per group of a thread's elements; four i8 packed into one
// b32 register; two results from one asm.
// RUN: ktc-compile %S/../Inputs/inline-asm.mlir --target=sm_90 --emit=asm | FileCheck %s

// CHECK-LABEL: .entry bytes(
// CHECK: // begin inline asm
// CHECK-NEXT: and.b32 [[R:%r[0-9]+]], %r{{[0-9]+}}, 0x1F1F1F1F;
// CHECK-NEXT: shl.b32 [[R]], [[R]], 3;
// CHECK-NEXT: // end inline asm
// CHECK-NOT: begin inline asm
// CHECK: ret;

// CHECK-LABEL: .entry pair(
// CHECK: // begin inline asm
// CHECK-NEXT: add.s32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
// CHECK-NEXT: sub.s32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
// CHECK-NEXT: // end inline asm
// CHECK: // begin inline asm
// CHECK-NEXT: add.s32
// CHECK-NEXT: sub.s32
// CHECK-NEXT: // end inline asm
// CHECK-NOT: begin inline asm
// CHECK: ret;

// A thread holding one element of @few's 16 runs the asm once, on a
// register of four copies of it.
// CHECK-LABEL: .entry few(
// CHECK: // begin inline asm
// CHECK-NEXT: and.b32
// CHECK-NEXT: shl.b32
// CHECK-NEXT: // end inline asm
// CHECK-NOT: begin inline asm
// CHECK: ret;
