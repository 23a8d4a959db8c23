#!/usr/bin/env bash
# Session 16, call 1: one binary (branch s16-exp: main 8787087 plus env
# knobs), rounds alternating base (no knob) and the variants:
#   AFTER=1  ktc-pipeline-async copies-after-dots (Triton's Hopper order, S slots)
#   EWD=1    ktc-pipeline-loads elementwise-distance=1 (odd shapes)
# Triton's configs and cuBLAS in the same call; checks of the variants.
set -uo pipefail
mkdir -p /tmp/ktc && tar -xJf .gpu/libs.tar.xz -C /tmp/ktc && tar -xJf .gpu/p16a.tar.xz -C /tmp/ktc
export LD_LIBRARY_PATH=/tmp/ktc/lib B=/tmp/ktc/bin KTC_CACHE=off
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
one() { # env dtype m n k bm bn bk w s
  env $1 timeout 60 $B/matmul-exp --device=cuda --dtype=$2 -m $3 -n $4 -k $5 --block-m $6 --block-n $7 --block-k $8 --warps $9 --stages ${10} --bench 2>&1 | grep -E "bench:|PASS|FAIL|rror" | sed 's/ elements within the f32 bound//' | tr '\n' ' '; echo
}
for round in 1 2 3; do
  for v in KTC_EXP_NONE=1 KTC_EXP_AFTER=1; do
    echo "r$round $v f16 4096 128x256x64w8s3: $(one $v f16 4096 4096 4096 128 256 64 8 3)"
    echo "r$round $v f16 4096 128x128x32w4s4: $(one $v f16 4096 4096 4096 128 128 32 4 4)"
    echo "r$round $v f16 1024 64x128x64w4s4: $(one $v f16 1024 1024 1024 64 128 64 4 4)"
  done
  echo "r$round KTC_EXP_AFTER=1 f16 4096 128x256x64w8s4: $(one KTC_EXP_AFTER=1 f16 4096 4096 4096 128 256 64 8 4)"
  for v in KTC_EXP_NONE=1 KTC_EXP_EWD=1; do
    echo "r$round $v f16 odd 64x128x32w4s4: $(one $v f16 3001 517 2049 64 128 32 4 4)"
    echo "r$round $v f16 odd 128x64x32w4s4: $(one $v f16 3001 517 2049 128 64 32 4 4)"
  done
done > $OUT/ab.txt 2>&1
for v in KTC_EXP_NONE=1 KTC_EXP_EWD=1; do
  echo "$v f16 odd 64x32x32w2s5: $(one $v f16 3001 517 2049 64 32 32 2 5)"
  echo "$v f16 odd 128x32x32w4s4: $(one $v f16 3001 517 2049 128 32 32 4 4)"
  echo "$v f16 odd 64x64x32w4s2: $(one $v f16 3001 517 2049 64 64 32 4 2)"
  echo "$v f16 1000 128x32x32w4s4: $(one $v f16 1000 1000 1000 128 32 32 4 4)"
  echo "$v f16 1000 64x32x32w2s5: $(one $v f16 1000 1000 1000 64 32 32 2 5)"
done >> $OUT/ab.txt 2>&1
echo "bf16 4096 base: $(one KTC_EXP_NONE=1 bf16 4096 4096 4096 128 256 64 8 3)" >> $OUT/ab.txt
echo "bf16 4096 AFTER: $(one KTC_EXP_AFTER=1 bf16 4096 4096 4096 128 256 64 8 3)" >> $OUT/ab.txt
cat $OUT/ab.txt
(cd bench && timeout 150 python3 peer_matmul_configs.py f16 4096 4096 4096 1024 1024 1024 3001 517 2049 && timeout 60 python3 cublas_matmul.py f16 "4096 4096 4096" "3001 517 2049" "1024 1024 1024") > $OUT/triton.txt 2>&1
grep -E "128x256x64|128x128x32|64x128x64|64x128x32|128x64x32|best|cublas" $OUT/triton.txt
for v in KTC_EXP_AFTER=1 KTC_EXP_EWD=1; do
  for cfg in "128 256 64 8 3" "128 128 32 4 4" "64 128 32 4 4" "64 32 32 2 5"; do
    read -r bm bn bk w s <<< "$cfg"
    for shape in "257 264 200" "1 17 1" "3001 517 2049"; do
      read -r m n k <<< "$shape"
      r=$(env $v timeout 60 $B/matmul-exp --device=cuda --dtype=f16 --specials -m $m -n $n -k $k --block-m $bm --block-n $bn --block-k $bk --warps $w --stages $s 2>&1 | grep -E "PASS|FAIL|rror" | head -2 | tr '\n' ' ')
      echo "check $v $shape $cfg: $r"
    done
  done
done > $OUT/checks.txt 2>&1
grep -c PASS $OUT/checks.txt; grep -v PASS $OUT/checks.txt | head
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  echo "$tool AFTER 257x264x200 128x256x64w8s3"; KTC_EXP_AFTER=1 timeout 120 $SAN --tool $tool $B/matmul-exp --device=cuda --dtype=f16 -m 257 -n 264 -k 200 --block-m 128 --block-n 256 --block-k 64 --warps 8 --stages 3 2>&1 | tail -2
  echo "$tool EWD 257x129x65 64x128x32w4s4"; KTC_EXP_EWD=1 timeout 120 $SAN --tool $tool $B/matmul-exp --device=cuda --dtype=f16 -m 257 -n 129 -k 65 --block-m 64 --block-n 128 --block-k 32 --warps 4 --stages 4 2>&1 | tail -2
done > $OUT/sanitizer.txt 2>&1
cat $OUT/sanitizer.txt
