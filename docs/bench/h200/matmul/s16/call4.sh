#!/usr/bin/env bash
# Session 16, call 4: the epilogue's 16-byte stores over the dot's warp
# tiles, through shared memory that reuses the pipeline's slots ("new")
# against main at 0cb1c2f ("base", call 3's binary); rounds alternate;
# Triton in the same call; checks with NaN/inf; sanitizers.
set -uo pipefail
mkdir -p /tmp/ktc && tar -xJf .gpu/libs.tar.xz -C /tmp/ktc && tar -xJf .gpu/p16c.tar.xz -C /tmp/ktc && tar -xJf .gpu/p16d.tar.xz -C /tmp/ktc
export LD_LIBRARY_PATH=/tmp/ktc/lib B=/tmp/ktc/bin KTC_CACHE=off
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
one() { # binary dtype m n k bm bn bk w s
  timeout 60 $B/$1 --device=cuda --dtype=$2 -m $3 -n $4 -k $5 --block-m $6 --block-n $7 --block-k $8 --warps $9 --stages ${10} --bench 2>&1 | grep -E "bench:|PASS|FAIL|rror" | sed 's/ elements within the f32 bound//' | tr '\n' ' '; echo
}
for round in 1 2 3; do
  for b in matmul matmul-new; do
    echo "r$round $b f16 4096 128x256x64w8s3: $(one $b f16 4096 4096 4096 128 256 64 8 3)"
    echo "r$round $b f16 4096 128x128x32w4s4: $(one $b f16 4096 4096 4096 128 128 32 4 4)"
    echo "r$round $b bf16 4096 128x256x64w8s3: $(one $b bf16 4096 4096 4096 128 256 64 8 3)"
    echo "r$round $b f16 1024 64x128x64w4s4: $(one $b f16 1024 1024 1024 64 128 64 4 4)"
    echo "r$round $b f16 1024 128x64x64w4s4: $(one $b f16 1024 1024 1024 128 64 64 4 4)"
  done
done > $OUT/ab.txt 2>&1
echo "new f16 8192 128x256x64w8s3: $(one matmul-new f16 8192 8192 8192 128 256 64 8 3)" >> $OUT/ab.txt
echo "base f16 8192 128x256x64w8s3: $(one matmul f16 8192 8192 8192 128 256 64 8 3)" >> $OUT/ab.txt
cat $OUT/ab.txt
(cd bench && timeout 100 python3 peer_matmul_configs.py f16 4096 4096 4096 1024 1024 1024 8192 8192 8192 | grep -E "best|128x256x64|128x128x32|64x128x64|128x64x64") > $OUT/triton.txt 2>&1
cat $OUT/triton.txt
for cfg in "128 256 64 8 3" "128 128 32 4 4" "64 128 64 4 4" "128 64 64 4 4" "64 256 32 4 4"; do
  read -r bm bn bk w s <<< "$cfg"
  for shape in "257 264 200" "1 17 1" "1000 1000 1000" "4096 4096 4096"; do
    read -r m n k <<< "$shape"
    for d in f16 bf16; do
      r=$(timeout 60 $B/matmul-new --device=cuda --dtype=$d --specials -m $m -n $n -k $k --block-m $bm --block-n $bn --block-k $bk --warps $w --stages $s 2>&1 | grep -E "PASS|FAIL|rror" | head -2 | tr '\n' ' ')
      echo "check $d $shape $cfg: $r"
    done
  done
done > $OUT/checks.txt 2>&1
grep -c PASS $OUT/checks.txt; grep -v PASS $OUT/checks.txt | head
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  echo "$tool 257x264x200 128x256x64w8s3"; timeout 100 $SAN --tool $tool $B/matmul-new --device=cuda --dtype=f16 --specials -m 257 -n 264 -k 200 --block-m 128 --block-n 256 --block-k 64 --warps 8 --stages 3 2>&1 | tail -2
  echo "$tool 200x136x72 128x128x32w4s4"; timeout 100 $SAN --tool $tool $B/matmul-new --device=cuda --dtype=bf16 --specials -m 200 -n 136 -k 72 --block-m 128 --block-n 128 --block-k 32 --warps 4 --stages 4 2>&1 | tail -2
done > $OUT/sanitizer.txt 2>&1
cat $OUT/sanitizer.txt
