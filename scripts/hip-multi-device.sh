#!/usr/bin/env bash
# Developer-side (not CI): ktc's HIP path with several AMD GPUs, through the
# stand-in HIP runtime of the gfx942 emulator (../shared/tools/gfx942-emu,
# hip/README.md: FAKEHIP_DEVICES=N presents N MI300Xs, FAKEHIP_ROCM=6|7 the
# release whose behaviour it shows). For ROCm 6 and 7 and 2 and 4 devices:
# examples/multi_gpu's softmax rows and matmul tile bands (one host thread
# per device, against float64; bf16 and the --speedup timing path too) and
# ktc-unittests' MultiDeviceGpu tests (KTC_SHAPES_DEVICE=hip); then a box of
# two archs (FAKEHIP_ARCHS=gfx942,gfx90a), whose gfx90a the emulator cannot
# run: each arch its own compile, and the refusal a ktc::Error (exit 2).
# The stand-in runs one kernel at a time for all devices (one lock), so its
# timings say nothing about speed. The emulator stops on v_pack_b32_f16
# (exit 3), which the f16 matmul's stores use when N is a multiple of 16:
# one run shows that, expected to fail. Results: docs/embedding.md.
#
#   bash scripts/hip-multi-device.sh [EMU] [BUILD]
#
# EMU: the emulator's build folder, holding amdemu and hip/libfakehip.so
# (default $EMU, else /tmp/hE/emu, else ${TMPDIR:-/tmp}/gfx942-emu; built by
# the emulator's build.sh and hip/build.sh). BUILD: ktc's build (default
# build). Logs in $LOG_DIR (default /tmp/hip-multi-device); one line per
# run, then the count of failures (the exit status).
set -uo pipefail
cd "$(dirname "$0")/.."
emu=${1:-${EMU:-}}
if [ -z "$emu" ]; then
  for d in /tmp/hE/emu "${TMPDIR:-/tmp}/gfx942-emu"; do
    [ -x "$d/amdemu" ] && { emu=$d; break; }
  done
fi
build=${2:-build}
[ -x "$emu/amdemu" ] && [ -f "$emu/hip/libfakehip.so" ] ||
  { echo "hip-multi-device: no amdemu and hip/libfakehip.so in '$emu'" >&2; exit 1; }
[ -x "$build/bin/multi_gpu" ] && [ -x "$build/bin/ktc-unittests" ] ||
  { echo "hip-multi-device: build multi_gpu and ktc-unittests in $build first" >&2; exit 1; }
logs=${LOG_DIR:-/tmp/hip-multi-device}
mkdir -p "$logs"
export KTC_HIP_LIBRARY=$emu/hip/libfakehip.so FAKEHIP_AMDEMU=$emu/amdemu
export KTC_CACHE_DIR=$logs/cache
bin=$build/bin
failed=0

# run NAME EXPECT COMMAND...: EXPECT is the exit status that passes.
run() {
  local name=$1 expect=$2; shift 2
  local log=$logs/$name.log start rc
  start=$(date +%s.%N)
  "$@" > "$log" 2>&1
  rc=$?
  local took last
  took=$(echo "$(date +%s.%N) - $start" | bc)
  last=$(grep -E "^(PASS|FAIL|\[  PASSED|\[  FAILED|error|UNSUPPORTED)|exit 3|device .* is not available|hip error" "$log" | tail -1)
  [ "$rc" = "$expect" ] || failed=$((failed + 1))
  printf '%-34s rc=%-3s %6.1f s  %s%s\n' "$name" "$rc" "$took" \
    "$([ "$rc" = "$expect" ] && echo ok || echo "UNEXPECTED ")" "${last:+: $last}"
}

for rocm in 6 7; do
  for n in 2 4; do
    export FAKEHIP_ROCM=$rocm FAKEHIP_DEVICES=$n
    tag=rocm$rocm-$n
    run "$tag-softmax" 0 $bin/multi_gpu --device=hip --rows=131 --cols=1001 --seed=$n
    run "$tag-matmul" 0 $bin/multi_gpu --device=hip --workload=matmul \
      --m=257 --n=129 --k=65 --block-m=32 --block-n=64 --block-k=32 --seed=$n
    run "$tag-matmul-bf16" 0 $bin/multi_gpu --device=hip --workload=matmul \
      --dtype=bf16 --m=97 --n=33 --k=130 --seed=$((n + 1))
    run "$tag-matmul-speedup" 0 $bin/multi_gpu --device=hip --workload=matmul \
      --m=130 --n=65 --k=64 --repeat=3 --speedup --check-rows=11 --seed=$n
    run "$tag-unit" 0 env KTC_SHAPES_DEVICE=hip $bin/ktc-unittests \
      --gtest_filter='MultiDeviceGpu.*'
  done
done
# N a multiple of 16: the f16 stores of C are packed with v_pack_b32_f16,
# which the emulator does not decode (exit 3, HIP error 719, exit 2 here).
export FAKEHIP_ROCM=6 FAKEHIP_DEVICES=2
run emulator-stops-n64 2 $bin/multi_gpu --device=hip --workload=matmul \
  --m=130 --n=64 --k=65 --seed=2
# Two archs: gfx942 runs, gfx90a compiles but the emulator refuses it.
export FAKEHIP_ROCM=6 FAKEHIP_DEVICES=2 FAKEHIP_ARCHS=gfx942,gfx90a
run mixed-archs-softmax 2 $bin/multi_gpu --device=hip --rows=31 --cols=257
grep -h "error" "$logs/mixed-archs-softmax.log" | head -3
echo "failures: $failed (logs in $logs)"
exit "$failed"
