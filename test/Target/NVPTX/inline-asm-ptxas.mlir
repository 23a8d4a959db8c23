// REQUIRES: ptxas
// The PTX of Inputs/inline-asm.mlir, with the user's assembly in it,
// assembles.
// RUN: ktc-compile %S/../Inputs/inline-asm.mlir --target=sm_90 --emit=asm > %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin && echo OK | FileCheck %s
// CHECK: OK
