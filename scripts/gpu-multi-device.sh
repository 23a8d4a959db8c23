#!/usr/bin/env bash
# Runs on a GPU machine (device tool) with one or more NVIDIA GPUs: issue
# 23's multi_gpu (every GPU, then one, timed) and issue 20's interop (the
# application's own CUDA context, memory and stream), each under
# compute-sanitizer when it is there; then multi_gpu's compute-bound
# workload (bands of the matmul's tiles over every GPU): an odd shape
# checked in full, and the throughput of one GPU against all of them
# (TFLOP/s and the speedup; issue 23's target is 1.9x on 2 GPUs), and
# ktc-unittests' MultiDeviceGpu tests on every GPU when the bundle has them.
# Bundle first:
#   KTC_BUNDLE_EXTRA="multi_gpu interop" bash scripts/gpu-bundle.sh
# (add ktc-unittests to KTC_BUNDLE_EXTRA for the unit tests, if it fits).
# KTC_MULTI_MATMUL overrides the timed matmul's flags (default: 16384 x
# 8192 x 8192 f16, each of 2 GPUs an 8192^3, in 128x256x64 tiles with 8
# warps and 3 stages, H200's best in docs/bench/h200/matmul.md).
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
matmul=${KTC_MULTI_MATMUL:---m=16384 --n=8192 --k=8192 --block-m=128 --block-n=256 --block-k=64 --warps=8 --stages=3}
check multi_gpu_matmul_odd $bin/multi_gpu --device=cuda --workload=matmul --m=3001 --n=517 --k=2049 --block-m=64 --block-n=128 --block-k=32 --stages=4 --seed=3
check multi_gpu_matmul_bf16 $bin/multi_gpu --device=cuda --workload=matmul --dtype=bf16 --m=1000 --n=999 --k=1001 --block-m=128 --block-n=64 --block-k=32 --stages=4 --seed=4
# shellcheck disable=SC2086
check multi_gpu_matmul_speedup $bin/multi_gpu --device=cuda --workload=matmul $matmul --repeat=51 --speedup --check-rows=64
if command -v compute-sanitizer > /dev/null; then
  check sanitize_multi_gpu_matmul compute-sanitizer --error-exitcode=1 $bin/multi_gpu --device=cuda --workload=matmul --m=257 --n=129 --k=65 --block-m=64 --block-n=64 --block-k=32
fi
if [ -x $bin/ktc-unittests ]; then
  check unit_multi_device_gpu env KTC_SHAPES_DEVICE=cuda KTC_CACHE=off $bin/ktc-unittests --gtest_filter='MultiDeviceGpu.*'
fi
grep -E "^(bench|speedup|PASS|FAIL)" "$log"
printf '%s\n' "${results[@]}" | tee -a "$log"
