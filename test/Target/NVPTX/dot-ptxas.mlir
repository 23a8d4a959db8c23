// The dots' PTX assembles for sm_80 and sm_90, with no spills.
// REQUIRES: ptxas
// RUN: ktc-compile %S/../Inputs/dot.mlir --target=sm_90 --emit=asm > %t.ptx && %ptxas -arch=sm_90 -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s
// RUN: ktc-compile %S/../Inputs/dot.mlir --target=sm_80 --emit=asm > %t80.ptx && %ptxas -arch=sm_80 -v %t80.ptx -o %t80.cubin 2>&1 | FileCheck %s
// CHECK-NOT: bytes spill stores, {{[1-9]}}
// CHECK: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: bytes spill stores, {{[1-9]}}
