#!/usr/bin/env bash
# Runs on the GPU machine (device tool): while_, for_range counting down,
# return_if and device_print (issue 19 items 6 and 7) on the CUDA device,
# through the unit tests' KTC_SHAPES_DEVICE switch. Bundle first with
#   KTC_BUNDLE_EXTRA=ktc-unittests scripts/gpu-bundle.sh
# (device_assert's tests stay on the CPU: CUDA's __assertfail traps and
# loses the context). Log in $OUT/gpu-control-debug.log.
set -uo pipefail
OUT=${OUT:-/tmp/ktc-out}
mkdir -p "$OUT" /tmp/ktc
tar -xJf .gpu/bundle.tar.xz -C /tmp/ktc
export LD_LIBRARY_PATH=/tmp/ktc/lib
KTC_SHAPES_DEVICE=cuda /tmp/ktc/bin/ktc-unittests \
  --gtest_filter='While.*:ForRangeDown.*:ReturnIf.*:DevicePrint.*' \
  2>&1 | tee "$OUT/gpu-control-debug.log"
