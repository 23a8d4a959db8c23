// REQUIRES: ptxas
// The predicated masked accesses of Inputs/masked.mlir assemble (sm_90a
// and sm_80).
// RUN: ktc-compile %S/../Inputs/masked.mlir --target=sm_90a --emit=asm > %t.ptx && %ptxas -arch=sm_90a %t.ptx -o %t.cubin && echo OK90 | FileCheck %s --check-prefix=OK90
// RUN: ktc-compile %S/../Inputs/masked.mlir --target=sm_80 --emit=asm > %t80.ptx && %ptxas -arch=sm_80 %t80.ptx -o %t80.cubin && echo OK80 | FileCheck %s --check-prefix=OK80
// OK90: OK90
// OK80: OK80
