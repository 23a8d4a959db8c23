// The PTX of a kernel with 128 KiB of dynamic shared memory assembles for
// sm_90 (dynamic-shared.mlir checks its text).
// REQUIRES: ptxas
// RUN: ktc-compile %S/../Inputs/transpose_128x256.mlir --target=sm_90 --emit=asm > %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin
