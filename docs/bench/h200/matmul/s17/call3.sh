#!/usr/bin/env bash
# Session 17, call 3: the warpgroup index through shfl.sync.idx (uniform
# wgmma descriptors) and cp.async's ignore-src predicate -- "new" --
# against call 2's LoopOffsets build (248d8b9, "base"), rounds alternating;
# CUDA unit tests, sanitizers and NaN/inf checks of the new build; Triton
# and cuBLAS at the odd shapes.
set -uo pipefail
mkdir -p /tmp/ktc && tar -xJf .gpu/libs.tar.xz -C /tmp/ktc && tar -xJf .gpu/p17c.tar.xz -C /tmp/ktc
export LD_LIBRARY_PATH=/tmp/ktc/lib B=/tmp/ktc/bin KTC_CACHE=off
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
KTC_SHAPES_DEVICE=cuda timeout 150 $B/ktc-unittests --gtest_filter='TypesCast*:Dot*:HostShapes*:*Matmul*:BlockPtr*:DotScaled*:Async*:Pipelin*' > $OUT/unit-cuda.txt 2>&1; echo "unit rc $?"; tail -3 $OUT/unit-cuda.txt
one() { # binary dtype m n k bm bn bk w s
  timeout 60 $B/$1 --device=cuda --dtype=$2 -m $3 -n $4 -k $5 --block-m $6 --block-n $7 --block-k $8 --warps $9 --stages ${10} --bench 2>&1 | grep -E "bench:|PASS|FAIL|rror" | sed 's/ elements within the f32 bound//' | tr '\n' ' '; echo
}
for round in 1 2 3; do
  for b in matmul matmul-new; do
    echo "r$round $b f16 4096 128x256x64w8s3: $(one $b f16 4096 4096 4096 128 256 64 8 3)"
    echo "r$round $b f16 4096 128x128x32w4s4: $(one $b f16 4096 4096 4096 128 128 32 4 4)"
    echo "r$round $b bf16 4096 128x256x64w8s3: $(one $b bf16 4096 4096 4096 128 256 64 8 3)"
    echo "r$round $b f16 1024 64x128x64w4s4: $(one $b f16 1024 1024 1024 64 128 64 4 4)"
    echo "r$round $b f16 1000 64x32x32w2s5: $(one $b f16 1000 1000 1000 64 32 32 2 5)"
  done
done > $OUT/ab.txt 2>&1
for b in matmul-new matmul; do
  echo "$b f16 8192 128x256x64w8s3: $(one $b f16 8192 8192 8192 128 256 64 8 3)"
done >> $OUT/ab.txt
cat $OUT/ab.txt
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  echo "$tool f16 257x264x200 128x256x64w8s3"; timeout 100 $SAN --tool $tool $B/matmul-new --device=cuda --dtype=f16 --specials -m 257 -n 264 -k 200 --block-m 128 --block-n 256 --block-k 64 --warps 8 --stages 3 2>&1 | tail -2
  echo "$tool bf16 200x136x72 128x128x32w4s4"; timeout 100 $SAN --tool $tool $B/matmul-new --device=cuda --dtype=bf16 --specials -m 200 -n 136 -k 72 --block-m 128 --block-n 128 --block-k 32 --warps 4 --stages 4 2>&1 | tail -2
done > $OUT/sanitizer.txt 2>&1
cat $OUT/sanitizer.txt
for cfg in "128 256 64 8 3" "128 128 32 4 4" "64 128 64 4 4" "64 32 32 2 5"; do
  read -r bm bn bk w s <<< "$cfg"
  for shape in "257 264 200" "1 17 1" "17 17 17" "1000 1000 1000" "3001 517 2049"; do
    read -r m n k <<< "$shape"
    for d in f16 bf16; do
      r=$(timeout 60 $B/matmul-new --device=cuda --dtype=$d --specials -m $m -n $n -k $k --block-m $bm --block-n $bn --block-k $bk --warps $w --stages $s 2>&1 | grep -E "PASS|FAIL|rror" | head -2 | tr '\n' ' ')
      echo "check $d $shape $cfg: $r"
    done
  done
done > $OUT/checks.txt 2>&1
echo "checks PASS: $(grep -c PASS $OUT/checks.txt) of $(wc -l < $OUT/checks.txt)"; grep -v PASS $OUT/checks.txt | head
(cd bench && timeout 100 python3 peer_matmul_configs.py f16 3001 517 2049 1000 1000 1000 | grep -E "best|64x128x32|64x32x32") > $OUT/triton.txt 2>&1
(cd bench && timeout 60 python3 cublas_matmul.py f16 "3001 517 2049" "1000 1000 1000") >> $OUT/triton.txt 2>&1
cat $OUT/triton.txt
