#!/usr/bin/env bash
# Session 15, call 1: base (session 14's code) vs new (cp.async ignore-src
# predicate, copy masks before the wait), alternating; Triton's configs in
# the same call; checks of the new build; the CUDA unit tests.
set -uo pipefail
mkdir -p /tmp/ktc && tar -xJf .gpu/libs.tar.xz -C /tmp/ktc && tar -xJf .gpu/p15a.tar.xz -C /tmp/ktc
export LD_LIBRARY_PATH=/tmp/ktc/lib B=/tmp/ktc/bin KTC_CACHE=off
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
one() { # build dtype m n k bm bn bk w s
  timeout 60 $B/matmul-$1 --device=cuda --dtype=$2 -m $3 -n $4 -k $5 --block-m $6 --block-n $7 --block-k $8 --warps $9 --stages ${10} --bench 2>&1 | grep -E "bench:|PASS|FAIL" | sed 's/ elements within the f32 bound//' | tr '\n' ' '; echo
}
for round in 1 2 3; do
  for b in base new; do
    echo "r$round $b f16 4096 128x256x64w8s3: $(one $b f16 4096 4096 4096 128 256 64 8 3)"
    echo "r$round $b f16 4096 128x128x32w4s4: $(one $b f16 4096 4096 4096 128 128 32 4 4)"
    echo "r$round $b f16 1024 64x128x64w4s4: $(one $b f16 1024 1024 1024 64 128 64 4 4)"
    echo "r$round $b f16 1024 128x64x64w4s4: $(one $b f16 1024 1024 1024 128 64 64 4 4)"
  done
done > $OUT/ab.txt 2>&1
for b in base new; do
  echo "$b bf16 4096 128x256x64w8s3: $(one $b bf16 4096 4096 4096 128 256 64 8 3)"
  echo "$b f16 3001x517x2049 64x128x32w4s4: $(one $b f16 3001 517 2049 64 128 32 4 4)"
  echo "$b f16 3001x517x2049 128x64x32w4s4: $(one $b f16 3001 517 2049 128 64 32 4 4)"
done >> $OUT/ab.txt 2>&1
cat $OUT/ab.txt
(cd bench && timeout 200 python3 peer_matmul_configs.py f16 4096 4096 4096 1024 1024 1024 3001 517 2049) > $OUT/triton.txt 2>&1
grep -E "128x256x64|128x128x32|64x128x64|128x64x64|64x128x32|128x64x32|best" $OUT/triton.txt
for cfg in "128 256 64 8 3" "64 256 32 4 4" "128 128 32 4 4" "64 128 64 4 4" "128 64 32 4 4" "64 32 32 2 5"; do
  read -r bm bn bk w s <<< "$cfg"
  for shape in "257 129 65" "1 17 1" "4096 4096 4096" "1000 1000 1000"; do
    read -r m n k <<< "$shape"
    for v in "" "--block-ptr"; do
      r=$(timeout 60 $B/matmul-new --device=cuda --dtype=f16 --specials -m $m -n $n -k $k --block-m $bm --block-n $bn --block-k $bk --warps $w --stages $s $v 2>&1 | grep -E "PASS|FAIL|rror" | head -2 | tr '\n' ' ')
      echo "check new $v $shape $cfg: $r"
    done
  done
done > $OUT/checks.txt 2>&1
grep -c PASS $OUT/checks.txt; grep -v PASS $OUT/checks.txt | head
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  timeout 150 $SAN --tool $tool $B/matmul-new --device=cuda --dtype=f16 -m 257 -n 129 -k 65 --block-m 128 --block-n 256 --block-k 64 --warps 8 --stages 3 2>&1 | tail -2
done > $OUT/sanitizer.txt 2>&1
cat $OUT/sanitizer.txt
KTC_SHAPES_DEVICE=cuda KTC_CACHE_DIR=/tmp/ktc-cache timeout 300 $B/ktc-unittests --gtest_brief=1 \
  --gtest_filter='InlineAsm*:DotScaled*:BlockPtr*:TensorDescriptor*:Dot.*:DotI8*:DevicePrint*:HostShapes*:*Pipelin*:*Matmul*' \
  > $OUT/unit-cuda.txt 2>&1
echo "unit rc $?"; grep -E "PASSED|FAILED|tests ran" $OUT/unit-cuda.txt | head -20
