#!/usr/bin/env bash
# Session 17, call 6: the epilogue's stores to shared memory as stmatrix
# ("new") against main at f3e4c2d ("base"): NaN/inf checks, racecheck,
# then 4096^3 rounds alternating.
set -uo pipefail
mkdir -p /tmp/ktc && tar -xJf .gpu/libs.tar.xz -C /tmp/ktc && tar -xJf .gpu/p17f.tar.xz -C /tmp/ktc
export LD_LIBRARY_PATH=/tmp/ktc/lib B=/tmp/ktc/bin KTC_CACHE=off
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
for cfg in "128 256 64 8 3" "128 128 32 4 4" "64 128 64 4 4"; do
  read -r bm bn bk w s <<< "$cfg"
  for shape in "257 264 200" "17 17 17" "1000 1000 1000"; do
    read -r m n k <<< "$shape"
    for d in f16 bf16; do
      r=$(timeout 30 $B/matmul-new --device=cuda --dtype=$d --specials -m $m -n $n -k $k --block-m $bm --block-n $bn --block-k $bk --warps $w --stages $s 2>&1 | grep -E "PASS|FAIL|rror" | head -2 | tr '\n' ' ')
      echo "check $d $shape $cfg: $r"
    done
  done
done > $OUT/checks.txt 2>&1
echo "checks PASS: $(grep -c PASS $OUT/checks.txt) of $(wc -l < $OUT/checks.txt)"; grep -v PASS $OUT/checks.txt | head
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
echo "racecheck f16 257x264x200 128x256x64w8s3"; timeout 60 $SAN --tool racecheck $B/matmul-new --device=cuda --dtype=f16 --specials -m 257 -n 264 -k 200 --block-m 128 --block-n 256 --block-k 64 --warps 8 --stages 3 2>&1 | tail -2 | tee $OUT/sanitizer.txt
one() { # binary dtype m n k bm bn bk w s
  timeout 40 $B/$1 --device=cuda --dtype=$2 -m $3 -n $4 -k $5 --block-m $6 --block-n $7 --block-k $8 --warps $9 --stages ${10} --bench 2>&1 | grep -E "bench:|PASS|FAIL|rror" | sed 's/ elements within the f32 bound//;s/max error.*PASS/PASS/' | tr '\n' ' '; echo
}
for round in 1 2; do
  for b in matmul matmul-new; do
    echo "r$round $b f16 4096 128x256x64w8s3: $(one $b f16 4096 4096 4096 128 256 64 8 3)"
    echo "r$round $b bf16 4096 128x256x64w8s3: $(one $b bf16 4096 4096 4096 128 256 64 8 3)"
  done
done > $OUT/ab.txt 2>&1
cat $OUT/ab.txt
