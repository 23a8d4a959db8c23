// The pointers a K loop carries start at `base + sext(offset)`; LLVM's loop
// strength reduction rebuilds them in the loop from loop-invariant byte
// offsets. Those offsets reach ptxas as cvt.s64.s32 + shl.b64, which it
// keeps in registers, not as mul.wide.s32, which it recomputes inside the
// loop as an IMAD.WIDE per async copy (lib/Target/NVPTX/LoopOffsets.cpp).
// RUN: ktc-compile %S/../Inputs/matmul-loop.mlir --target=sm_90a --emit=llvm | FileCheck %s --check-prefix=IR
// RUN: ktc-compile %S/../Inputs/matmul-loop.mlir --target=sm_90a --emit=asm | FileCheck %s
// mma.sync's loop (sm_80) carries its pointers the same way.
// RUN: ktc-compile %S/../Inputs/matmul-loop.mlir --target=sm_80 --emit=llvm | FileCheck %s --check-prefix=IR
// Element-wise loads in a loop (no carried pointers), a kernel without a
// loop, and AMD's code keep their sign extensions.
// RUN: ktc-compile %S/../Inputs/matmul-loop-odd.mlir --target=sm_90a --emit=llvm | FileCheck %s --check-prefix=KEEP
// RUN: ktc-compile %S/../Inputs/add_spec16.mlir --target=sm_90a --emit=llvm | FileCheck %s --check-prefix=KEEP
// RUN: ktc-compile %S/../Inputs/matmul-loop.mlir --target=gfx942 --emit=llvm | FileCheck %s --check-prefix=KEEP

// The four pointers' starts (two rows of a and two of b a thread copies),
// in the loop's preheader, and no others.
// IR-LABEL: .lr.ph:
// IR-COUNT-4: call i64 asm "cvt.s64.s32 $0, $1;", "=l,r"(i32 %{{[0-9]+}}) #[[ATTR:[0-9]+]]
// IR-NOT: asm "cvt.s64.s32
// IR: phi ptr addrspace(1)
// IR-NOT: asm "cvt.s64.s32
// IR: attributes #[[ATTR]] = { nounwind memory(none) }

// CHECK-LABEL: .entry matmul
// CHECK: cvt.s64.s32 %rd
// CHECK: shl.b64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 1;
// CHECK: $L__BB0_2:
// CHECK-NOT: mul.wide
// CHECK: cp.async.cg.shared.global
// CHECK-NOT: mul.wide
// CHECK: bra {{.*}}$L__BB0_2;

// KEEP-NOT: asm "cvt.s64.s32
// KEEP: sext i32 %{{[0-9]+}} to i64
// KEEP-NOT: asm "cvt.s64.s32
