// The wgmma matmul's PTX assembles for sm_90a with no spills, and ptxas
// keeps the wgmma instructions asynchronous (no serialization warning).
// REQUIRES: ptxas
// RUN: ktc-compile %S/../Inputs/matmul-loop.mlir --target=sm_90a --emit=asm > %t.ptx && %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s
// CHECK-NOT: serializ
// CHECK: 0 bytes spill stores, 0 bytes spill loads
// CHECK: 32768 bytes smem
// CHECK-NOT: serializ
