#!/usr/bin/env bash
# Configures and builds ktc into build/ (every executable lands in build/bin/).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_TYPE="${KTC_BUILD_TYPE:-Release}"
JOBS="${KTC_JOBS:-$(nproc)}"
if [ ! -f build/build.ninja ]; then
  cmake -G Ninja -S . -B build -DCMAKE_BUILD_TYPE="$BUILD_TYPE"
fi
cmake --build build -j "$JOBS"
