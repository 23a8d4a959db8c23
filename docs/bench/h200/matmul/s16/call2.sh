#!/usr/bin/env bash
# Session 16, call 2: "base" = call 1's binary without knobs (main 8787087:
# no NaN versioning, element-wise dot operands left in place); "new" = main
# with the block's narrowings versioned on one NaN test and element-wise
# dot operands one iteration ahead. Rounds alternate; Triton and cuBLAS in
# the same call; checks with NaN/inf inputs; CUDA unit tests; sanitizers.
set -uo pipefail
mkdir -p /tmp/ktc && tar -xJf .gpu/libs.tar.xz -C /tmp/ktc && tar -xJf .gpu/p16b.tar.xz -C /tmp/ktc
export LD_LIBRARY_PATH=/tmp/ktc/lib B=/tmp/ktc/bin KTC_CACHE=off
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
one() { # binary dtype m n k bm bn bk w s
  timeout 60 $B/$1 --device=cuda --dtype=$2 -m $3 -n $4 -k $5 --block-m $6 --block-n $7 --block-k $8 --warps $9 --stages ${10} --bench 2>&1 | grep -E "bench:|PASS|FAIL|rror" | sed 's/ elements within the f32 bound//' | tr '\n' ' '; echo
}
for round in 1 2 3; do
  for b in matmul-exp matmul; do
    echo "r$round $b f16 4096 128x256x64w8s3: $(one $b f16 4096 4096 4096 128 256 64 8 3)"
    echo "r$round $b f16 4096 128x128x32w4s4: $(one $b f16 4096 4096 4096 128 128 32 4 4)"
    echo "r$round $b bf16 4096 128x256x64w8s3: $(one $b bf16 4096 4096 4096 128 256 64 8 3)"
    echo "r$round $b f16 1024 64x128x64w4s4: $(one $b f16 1024 1024 1024 64 128 64 4 4)"
    echo "r$round $b f16 odd 64x128x32w4s4: $(one $b f16 3001 517 2049 64 128 32 4 4)"
  done
done > $OUT/ab.txt 2>&1
for cfg in "f16 8192 8192 8192 128 256 64 8 3" "bf16 1024 1024 1024 64 128 64 4 4" "bf16 3001 517 2049 64 128 32 4 4" "f16 1000 1000 1000 64 32 32 2 5" "bf16 1000 1000 1000 64 32 32 2 5" "f16 3001 517 2049 128 64 32 4 4"; do
  read -r d m n k bm bn bk w s <<< "$cfg"
  echo "new $cfg: $(one matmul $d $m $n $k $bm $bn $bk $w $s)"
done >> $OUT/ab.txt 2>&1
cat $OUT/ab.txt
(cd bench && for d in f16 bf16; do timeout 120 python3 peer_matmul_configs.py $d 4096 4096 4096 1024 1024 1024 3001 517 2049 1000 1000 1000 | grep -E "best|128x256x64|64x128x64|128x64x32|64x32x32"; done; timeout 90 python3 cublas_matmul.py f16 "4096 4096 4096" "8192 8192 8192" "1024 1024 1024" "3001 517 2049" "1000 1000 1000"; timeout 60 python3 cublas_matmul.py bf16 "4096 4096 4096" "1024 1024 1024" "3001 517 2049") > $OUT/peers.txt 2>&1
cat $OUT/peers.txt
for cfg in "128 256 64 8 3" "128 128 32 4 4" "64 128 64 4 4" "64 128 32 4 4" "64 32 32 2 5"; do
  read -r bm bn bk w s <<< "$cfg"
  for shape in "257 264 200" "257 129 65" "1 17 1" "3001 517 2049"; do
    read -r m n k <<< "$shape"
    for d in f16 bf16; do
      r=$(timeout 60 $B/matmul --device=cuda --dtype=$d --specials -m $m -n $n -k $k --block-m $bm --block-n $bn --block-k $bk --warps $w --stages $s 2>&1 | grep -E "PASS|FAIL|rror" | head -2 | tr '\n' ' ')
      echo "check $d $shape $cfg: $r"
    done
  done
done > $OUT/checks.txt 2>&1
grep -c PASS $OUT/checks.txt; grep -v PASS $OUT/checks.txt | head
KTC_SHAPES_DEVICE=cuda KTC_CACHE_DIR=/tmp/ktc-cache timeout 200 $B/ktc-unittests --gtest_brief=1 \
  --gtest_filter='TypesCast*:Dot.*:DotI8*:HostShapes*:*Matmul*:BlockPtr*:DotScaled*' > $OUT/unit-cuda.txt 2>&1
echo "unit rc $?"; grep -E "PASSED|FAILED|tests ran" $OUT/unit-cuda.txt | head -20
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  echo "$tool 257x264x200 128x256x64w8s3"; timeout 100 $SAN --tool $tool $B/matmul --device=cuda --dtype=f16 --specials -m 257 -n 264 -k 200 --block-m 128 --block-n 256 --block-k 64 --warps 8 --stages 3 2>&1 | tail -2
  echo "$tool 257x129x65 64x128x32w4s4"; timeout 100 $SAN --tool $tool $B/matmul --device=cuda --dtype=f16 --specials -m 257 -n 129 -k 65 --block-m 64 --block-n 128 --block-k 32 --warps 4 --stages 4 2>&1 | tail -2
done > $OUT/sanitizer.txt 2>&1
cat $OUT/sanitizer.txt
