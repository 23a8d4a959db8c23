#!/usr/bin/env bash
# Session 17, call 5: Nsight Compute of main (LoopOffsets, ignore-src,
# uniform descriptors) and Triton's tutorial kernel, f16 4096^3 128x256x64
# w8 s3, one launch each: summary sections and SASS stall samples.
set -uo pipefail
mkdir -p /tmp/ktc && tar -xJf .gpu/libs.tar.xz -C /tmp/ktc && tar -xJf .gpu/p17e.tar.xz -C /tmp/ktc
export LD_LIBRARY_PATH=/tmp/ktc/lib B=/tmp/ktc/bin KTC_CACHE=off
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
timeout 200 bash bench/ncu-matmul.sh f16 4096 4096 4096 128 256 64 8 3 $OUT/ncu
ls -la $OUT/ncu
grep -E "Duration|Elapsed Cycles|SM Frequency|Registers Per|Issued Warp" $OUT/ncu/*.txt
