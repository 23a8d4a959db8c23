// REQUIRES: ptxas
// The f64 math of math-f64.mlir (sin, cos, tanh, erf, pow written in f64
// operations; floor, ceil, rint, round, sqrt, fma) assembles for sm_90 with
// no stack frame and no spills.
// RUN: ktc-compile %S/math-f64.mlir --target=sm_90 --emit=asm > %t.ptx && %ptxas -arch=sm_90 -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s
// CHECK-COUNT-6: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: spill
