#!/usr/bin/env bash
# Session 17, call 1: compute-sanitizer on session 16's slot reuse; CUDA
# unit tests; 4096^3 A/B: main, copies after dots (KTC_EXP_AFTER=1), and
# ptxas on PTX whose invariant offsets are cvt+shl (ptxas-t1.sh); Triton
# and cuBLAS in the same call.
set -uo pipefail
mkdir -p /tmp/ktc && tar -xJf .gpu/libs.tar.xz -C /tmp/ktc && tar -xJf .gpu/p17a.tar.xz -C /tmp/ktc
export LD_LIBRARY_PATH=/tmp/ktc/lib B=/tmp/ktc/bin KTC_CACHE=off
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  echo "$tool f16 257x264x200 128x256x64w8s3"; timeout 120 $SAN --tool $tool $B/matmul --device=cuda --dtype=f16 --specials -m 257 -n 264 -k 200 --block-m 128 --block-n 256 --block-k 64 --warps 8 --stages 3 2>&1 | tail -2
  echo "$tool bf16 200x136x72 128x128x32w4s4"; timeout 120 $SAN --tool $tool $B/matmul --device=cuda --dtype=bf16 --specials -m 200 -n 136 -k 72 --block-m 128 --block-n 128 --block-k 32 --warps 4 --stages 4 2>&1 | tail -2
done > $OUT/sanitizer.txt 2>&1
cat $OUT/sanitizer.txt
KTC_SHAPES_DEVICE=cuda timeout 150 $B/ktc-unittests --gtest_filter='TypesCast*:Dot*:HostShapes*:*Matmul*:BlockPtr*:DotScaled*' > $OUT/unit-cuda.txt 2>&1; echo "unit rc $?"; tail -3 $OUT/unit-cuda.txt
export REAL_PTXAS=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
one() { # variant dtype m n k bm bn bk w s
  local v=$1; shift
  case $v in
    main) $B/matmul --device=cuda --dtype=$1 -m $2 -n $3 -k $4 --block-m $5 --block-n $6 --block-k $7 --warps $8 --stages $9 --bench ;;
    after) env KTC_EXP_AFTER=1 $B/matmul-exp --device=cuda --dtype=$1 -m $2 -n $3 -k $4 --block-m $5 --block-n $6 --block-k $7 --warps $8 --stages $9 --bench ;;
    t1) env KTC_PTXAS=$PWD/.gpu/ptxas-t1.sh $B/matmul --device=cuda --dtype=$1 -m $2 -n $3 -k $4 --block-m $5 --block-n $6 --block-k $7 --warps $8 --stages $9 --bench ;;
    t1after) env KTC_EXP_AFTER=1 KTC_PTXAS=$PWD/.gpu/ptxas-t1.sh $B/matmul-exp --device=cuda --dtype=$1 -m $2 -n $3 -k $4 --block-m $5 --block-n $6 --block-k $7 --warps $8 --stages $9 --bench ;;
  esac 2>&1 | grep -E "bench:|PASS|FAIL|rror" | sed 's/ elements within the f32 bound//' | tr '\n' ' '; echo
}
for round in 1 2 3; do
  for v in main after t1 t1after; do
    echo "r$round $v f16 4096 128x256x64w8s3: $(timeout 60 bash -c "$(declare -f one); one $v f16 4096 4096 4096 128 256 64 8 3")"
    echo "r$round $v f16 4096 128x128x32w4s4: $(timeout 60 bash -c "$(declare -f one); one $v f16 4096 4096 4096 128 128 32 4 4")"
  done
done > $OUT/ab.txt 2>&1
cat $OUT/ab.txt
(cd bench && timeout 80 python3 peer_matmul_configs.py f16 4096 4096 4096 | grep -E "best|128x256x64|128x128x32") > $OUT/triton.txt 2>&1
(cd bench && timeout 60 python3 cublas_matmul.py f16 "4096 4096 4096" "8192 8192 8192") >> $OUT/triton.txt 2>&1
cat $OUT/triton.txt
