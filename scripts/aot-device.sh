#!/usr/bin/env bash
# test/aot on an NVIDIA GPU, in two steps:
#
#   scripts/aot-device.sh build   # here, after the install test ran
#                                 # (ctest -R install/): test/aot's consumer
#                                 # built for host and sm_90 into
#                                 # build/aot-cuda, its CUDA program and
#                                 # PTX copied to .gpu/aot/
#   scripts/aot-device.sh run     # on the device (device tool, carry .gpu):
#                                 # aot_cuda_main (the application's context,
#                                 # cuMemAlloc memory and stream; float64
#                                 # checks; launch cost beside cuLaunchKernel,
#                                 # measured as ktc-bench's launch_overhead:
#                                 # the "launch_overhead aot" line), then
#                                 # under compute-sanitizer if present
#                                 # (without the timing)
#
# aot_cuda_main links no LLVM: it needs only libcuda.so.1 on the device.
set -uo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
build)
  prefix=build/test/install/work/prefix
  [ -f "$prefix/lib/cmake/ktc/ktcConfig.cmake" ] ||
    { echo "aot-device: run ctest --test-dir build -R install/ first" >&2; exit 1; }
  cmake -S test/aot/consumer -B build/aot-cuda -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$PWD/$prefix" "-DKTC_AOT_TARGETS=host;sm_90" || exit 1
  cmake --build build/aot-cuda -j2 --target aot_cuda_main aot_main || exit 1
  mkdir -p .gpu/aot
  cp build/aot-cuda/aot_cuda_main build/aot-cuda/aot_main \
     build/aot-cuda/test_kernels_aot/*.ptx .gpu/aot/
  ls -la .gpu/aot
  ;;
run)
  OUT=${OUT:-/tmp/ktc-out}
  mkdir -p "$OUT"
  log="$OUT/aot-device.log"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$log"
  ldd .gpu/aot/aot_cuda_main | tee -a "$log"
  .gpu/aot/aot_cuda_main .gpu/aot 2>&1 | tee -a "$log"
  rc=${PIPESTATUS[0]}
  KTC_DEVICE=cpu .gpu/aot/aot_main 2>&1 | tee -a "$log"
  if command -v compute-sanitizer >/dev/null; then
    # Its launches are far slower: no timing there.
    compute-sanitizer --tool memcheck .gpu/aot/aot_cuda_main .gpu/aot \
      --no-timing 2>&1 |
      tail -5 | tee -a "$log"
  fi
  exit $rc
  ;;
*)
  echo "usage: scripts/aot-device.sh build|run" >&2
  exit 2
  ;;
esac
