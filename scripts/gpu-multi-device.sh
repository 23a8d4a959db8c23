#!/usr/bin/env bash
# Runs on a GPU machine (device tool) with one or more NVIDIA GPUs: issue
# 23's multi_gpu (every GPU, then one, timed) and issue 20's interop (the
# application's own CUDA context, memory and stream), each under
# compute-sanitizer when it is there. Bundle first:
#   KTC_BUNDLE_EXTRA="multi_gpu interop" bash scripts/gpu-bundle.sh
# Logs under $OUT; PASS/FAIL lines last.
set -uo pipefail
OUT=${OUT:-/tmp/ktc-out}
mkdir -p "$OUT" /tmp/ktc
tar -xJf .gpu/bundle.tar.xz -C /tmp/ktc
export LD_LIBRARY_PATH=/tmp/ktc/lib
bin=/tmp/ktc/bin
log="$OUT/gpu-multi-device.log"
: > "$log"
nvidia-smi --query-gpu=index,name --format=csv,noheader | tee -a "$log"
results=()
check() { # name, command...
  local name=$1; shift
  echo "== $name: $*" >> "$log"
  if "$@" >> "$log" 2>&1; then results+=("PASS $name"); else results+=("FAIL $name"); fi
}
check multi_gpu_all $bin/multi_gpu --device=cuda --rows=8191 --cols=3001 --seed=7
check multi_gpu_bench_all $bin/multi_gpu --device=cuda --rows=65536 --cols=4096 --repeat=200
check multi_gpu_bench_one $bin/multi_gpu --device=cuda --devices=1 --rows=65536 --cols=4096 --repeat=200
check interop_cuda $bin/interop --device=cuda --size=1000003 --seed=5
if command -v compute-sanitizer > /dev/null; then
  check sanitize_multi_gpu compute-sanitizer --error-exitcode=1 $bin/multi_gpu --device=cuda --rows=257 --cols=1001
  check sanitize_interop compute-sanitizer --error-exitcode=1 $bin/interop --device=cuda --size=100003
fi
grep -E "^(bench|PASS|FAIL)" "$log"
printf '%s\n' "${results[@]}" | tee -a "$log"
