#!/usr/bin/env bash
# Session 17, call 4: one binary (branch s17-exp2: 248d8b9 + the two
# changes behind KTC_EXP_UNIFORM / KTC_EXP_IGNSRC) in its four settings,
# rounds alternating; Triton and cuBLAS at 4096^3 in the same call.
set -uo pipefail
mkdir -p /tmp/ktc && tar -xJf .gpu/libs.tar.xz -C /tmp/ktc && tar -xJf .gpu/p17d.tar.xz -C /tmp/ktc
export LD_LIBRARY_PATH=/tmp/ktc/lib B=/tmp/ktc/bin KTC_CACHE=off
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
one() { # uniform ignsrc dtype m n k bm bn bk w s
  KTC_EXP_UNIFORM=$1 KTC_EXP_IGNSRC=$2 timeout 60 $B/matmul-exp --device=cuda --dtype=$3 -m $4 -n $5 -k $6 --block-m $7 --block-n $8 --block-k $9 --warps ${10} --stages ${11} --bench 2>&1 | grep -E "bench:|PASS|FAIL|rror" | sed 's/ elements within the f32 bound//;s/max error.*PASS/PASS/' | tr '\n' ' '; echo
}
for round in 1 2 3; do
  for v in "0 0" "1 1" "1 0" "0 1"; do
    set -- $v
    echo "r$round u$1 i$2 f16 4096 128x256x64w8s3: $(one $1 $2 f16 4096 4096 4096 128 256 64 8 3)"
    echo "r$round u$1 i$2 bf16 4096 128x256x64w8s3: $(one $1 $2 bf16 4096 4096 4096 128 256 64 8 3)"
    [ $round -le 2 ] && echo "r$round u$1 i$2 f16 4096 128x128x32w4s4: $(one $1 $2 f16 4096 4096 4096 128 128 32 4 4)"
  done
done > $OUT/ab.txt 2>&1
cat $OUT/ab.txt
(cd bench && timeout 80 python3 peer_matmul_configs.py f16 4096 4096 4096 | grep -E "best|128x256x64|128x128x32" && timeout 60 python3 peer_matmul_configs.py bf16 4096 4096 4096 | grep -E "best|128x256x64") > $OUT/triton.txt 2>&1
(cd bench && timeout 60 python3 cublas_matmul.py f16 "4096 4096 4096" && timeout 40 python3 cublas_matmul.py bf16 "4096 4096 4096") >> $OUT/triton.txt 2>&1
cat $OUT/triton.txt
