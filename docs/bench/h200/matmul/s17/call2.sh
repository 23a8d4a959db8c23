#!/usr/bin/env bash
# Session 17, call 2: LoopOffsets (the K loop's pointer offsets as
# cvt.s64.s32 + shl.b64, kept in registers by ptxas) -- "new" -- against
# main at 56f5364 ("base"), rounds alternating; CUDA unit tests of the new
# build; Triton's configs and cuBLAS in the same call.
set -uo pipefail
mkdir -p /tmp/ktc && tar -xJf .gpu/libs.tar.xz -C /tmp/ktc && tar -xJf .gpu/p17b.tar.xz -C /tmp/ktc
export LD_LIBRARY_PATH=/tmp/ktc/lib B=/tmp/ktc/bin KTC_CACHE=off
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
KTC_SHAPES_DEVICE=cuda timeout 150 $B/ktc-unittests --gtest_filter='TypesCast*:Dot*:HostShapes*:*Matmul*:BlockPtr*:DotScaled*' > $OUT/unit-cuda.txt 2>&1; echo "unit rc $?"; tail -3 $OUT/unit-cuda.txt
one() { # binary dtype m n k bm bn bk w s
  timeout 60 $B/$1 --device=cuda --dtype=$2 -m $3 -n $4 -k $5 --block-m $6 --block-n $7 --block-k $8 --warps $9 --stages ${10} --bench 2>&1 | grep -E "bench:|PASS|FAIL|rror" | sed 's/ elements within the f32 bound//' | tr '\n' ' '; echo
}
for round in 1 2 3; do
  for b in matmul matmul-new; do
    echo "r$round $b f16 4096 128x256x64w8s3: $(one $b f16 4096 4096 4096 128 256 64 8 3)"
    echo "r$round $b f16 4096 128x128x32w4s4: $(one $b f16 4096 4096 4096 128 128 32 4 4)"
    echo "r$round $b bf16 4096 128x256x64w8s3: $(one $b bf16 4096 4096 4096 128 256 64 8 3)"
    echo "r$round $b f16 1024 128x64x64w4s4: $(one $b f16 1024 1024 1024 128 64 64 4 4)"
  done
done > $OUT/ab.txt 2>&1
for b in matmul-new matmul; do
  echo "$b f16 8192 128x256x64w8s3: $(one $b f16 8192 8192 8192 128 256 64 8 3)"
done >> $OUT/ab.txt
cat $OUT/ab.txt
(cd bench && timeout 150 python3 peer_matmul_configs.py f16 4096 4096 4096 1024 1024 1024 8192 8192 8192 | grep -E "best|128x256x64|128x128x32|128x64x64") > $OUT/triton.txt 2>&1
(cd bench && timeout 60 python3 peer_matmul_configs.py bf16 4096 4096 4096 | grep -E "best|128x256x64") >> $OUT/triton.txt 2>&1
(cd bench && timeout 90 python3 cublas_matmul.py f16 "1024 1024 1024" "4096 4096 4096" "8192 8192 8192" && timeout 60 python3 cublas_matmul.py bf16 "4096 4096 4096") >> $OUT/triton.txt 2>&1
cat $OUT/triton.txt
