// The pipelined matmul's PTX assembles for sm_80 and sm_90 with no spills
// and 24 KiB of shared memory (3 slots of 64x32 and 32x64 halves).
// REQUIRES: ptxas
// RUN: ktc-compile %S/../Inputs/matmul-loop.mlir --target=sm_90 --emit=asm > %t.ptx && %ptxas -arch=sm_90 -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s
// RUN: ktc-compile %S/../Inputs/matmul-loop.mlir --target=sm_80 --emit=asm > %t80.ptx && %ptxas -arch=sm_80 -v %t80.ptx -o %t80.cubin 2>&1 | FileCheck %s
// CHECK: 0 bytes spill stores, 0 bytes spill loads
// CHECK: 24576 bytes smem
