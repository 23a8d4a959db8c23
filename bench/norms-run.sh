#!/usr/bin/env bash
# Runs on the GPU machine (the device tool, carrying .gpu/ from
# `KTC_BUNDLE_EXTRA="layernorm cross_entropy" scripts/gpu-bundle.sh`):
# examples/layernorm and examples/cross_entropy checked against float64 on
# the GPU at odd sizes (the ctest shapes and larger), then
# bench/peer_norms.py: ktc's layer-norm forward (default tile and
# --autotune) beside Triton's tutorial kernel and torch at M = 4096,
# N = 512, 1024, 4096, 8192 f16, and ktc's cross-entropy beside torch, in
# one call. Writes $OUT/norms/{check.log,peer-norms.csv,peer-norms.log}.
set -uo pipefail
OUT=${OUT:-/tmp/ktc-out}
dir="$OUT/norms"
mkdir -p "$dir" /tmp/ktc
tar -xJf .gpu/bundle.tar.xz -C /tmp/ktc
export LD_LIBRARY_PATH=/tmp/ktc/lib
bin=/tmp/ktc/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$dir/gpu.txt"
fails=0
check() { # one example run; its last line must be PASS
  out=$(timeout 60 "$@" 2>&1); rc=$?
  last=$(printf '%s\n' "$out" | tail -n 1)
  printf '%s\n%s\n' "$*" "$out" >> "$dir/check.log"
  case "$last" in PASS*) echo "ok   $*" ;; *) echo "FAIL $* (rc $rc): $last"; fails=$((fails + 1)) ;; esac
}
for n in 1 3 513 1000 4097 8192; do
  check $bin/layernorm --device=cuda --m=7 --n=$n --backward --specials --seed=$n
  check $bin/cross_entropy --device=cuda --m=7 --n=$n --specials --backward --seed=$n
  check $bin/cross_entropy --device=cuda --m=7 --n=$n --dtype=f16 --specials --backward --seed=$n
done
check $bin/layernorm --device=cuda --m=4096 --n=4097 --backward --seed=1
check $bin/layernorm --device=cuda --m=1000 --n=20000 --backward --seed=2
check $bin/layernorm --device=cuda --m=37 --n=1000 --block-n=256 --backward --seed=37
check $bin/layernorm --device=cuda --m=65 --n=96 --block-m=8 --warps=2 --specials --seed=65
check $bin/cross_entropy --device=cuda --m=4096 --n=50257 --dtype=f16 --backward --seed=3
check $bin/cross_entropy --device=cuda --m=101 --n=32000 --specials --backward --seed=4
check $bin/cross_entropy --device=cuda --m=5 --n=33 --all-ignored --ignore-index=7 --backward
echo "checks: $fails failed" | tee -a "$dir/gpu.txt"
start=$(date +%s)
PYTHONUNBUFFERED=1 timeout 420 python3 bench/peer_norms.py --out "$dir" --bin "$bin" \
  > "$dir/peer-norms.log" 2>&1
echo "peer_norms.py: rc=$? in $(( $(date +%s) - start )) s" | tee -a "$dir/gpu.txt"
grep -A 8 "ratio to" "$dir/peer-norms.log"
