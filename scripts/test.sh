#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite (lit + GoogleTest through CTest).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j "${KTC_JOBS:-$(nproc)}"
# Then the sanitizer/fuzzing subset (scripts/sanitize.sh ci, docs/reliability.md).
bash scripts/sanitize.sh ci
