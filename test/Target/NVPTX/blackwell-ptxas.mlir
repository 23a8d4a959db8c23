// The PTX of blackwell.mlir assembles with NVIDIA's ptxas for the SM it
// names (CUDA 13.0's ptxas knows sm_100, sm_100a, sm_103, sm_120, sm_120a,
// sm_121): vector-add, online and fused softmax, and 128 KiB of dynamic
// shared memory on sm_100.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: ktc-compile %S/../Inputs/add_spec16.mlir --target=sm_100a --emit=asm -o %t/add_100a.ptx
// RUN: %ptxas -arch=sm_100a %t/add_100a.ptx -o %t/add_100a.cubin
// RUN: ktc-compile %S/../Inputs/add_spec16.mlir --target=sm_120a --emit=asm -o %t/add_120a.ptx
// RUN: %ptxas -arch=sm_120a %t/add_120a.ptx -o %t/add_120a.cubin
// RUN: ktc-compile %S/../Inputs/add_spec16.mlir --target=sm_103 --emit=asm -o %t/add_103.ptx
// RUN: %ptxas -arch=sm_103 %t/add_103.ptx -o %t/add_103.cubin
// RUN: ktc-compile %S/../Inputs/add_spec16.mlir --target=sm_121 --emit=asm -o %t/add_121.ptx
// RUN: %ptxas -arch=sm_121 %t/add_121.ptx -o %t/add_121.cubin
// RUN: ktc-compile %ktc_src/examples/softmax/softmax_online.mlir --target=sm_120 --emit=asm -o %t/online_120.ptx
// RUN: %ptxas -arch=sm_120 %t/online_120.ptx -o %t/online_120.cubin
// RUN: ktc-compile %ktc_src/examples/softmax/softmax_fused.mlir --target=sm_100 --num-warps=8 --emit=asm -o %t/fused_100.ptx
// RUN: %ptxas -arch=sm_100 %t/fused_100.ptx -o %t/fused_100.cubin
// RUN: ktc-compile %ktc_src/examples/softmax/softmax_fused.mlir --target=sm_120 --num-warps=8 --emit=asm -o %t/fused_120.ptx
// RUN: %ptxas -arch=sm_120 %t/fused_120.ptx -o %t/fused_120.cubin
// RUN: ktc-compile %S/../Inputs/transpose_128x256.mlir --target=sm_100 --emit=asm -o %t/rows_100.ptx
// RUN: %ptxas -arch=sm_100 %t/rows_100.ptx -o %t/rows_100.cubin
