// The i8 dots' PTX (mma.sync m16n8k32 s8) assembles for sm_80 and sm_90a,
// with no spills.
// REQUIRES: ptxas
// RUN: ktc-compile %S/../Inputs/dot-i8.mlir --target=sm_90a --emit=asm > %t.ptx && %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s
// RUN: ktc-compile %S/../Inputs/dot-i8.mlir --target=sm_80 --emit=asm > %t80.ptx && %ptxas -arch=sm_80 -v %t80.ptx -o %t80.cubin 2>&1 | FileCheck %s
// CHECK-NOT: bytes spill stores, {{[1-9]}}
// CHECK: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: bytes spill stores, {{[1-9]}}
