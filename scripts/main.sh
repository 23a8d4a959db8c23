#!/usr/bin/env bash
# Sets up, builds, and runs the main job: the example programs on the
# default device (KTC_DEVICE, else the best one found; the CPU without a GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
run() { echo "== build/bin/$*"; "build/bin/$@"; }
run vector_add --size=98432
run softmax --variant=naive --rows=1823 --cols=781
run softmax --variant=online --rows=1823 --cols=781
run softmax --variant=fused --rows=1823 --cols=781
run transpose --rows=513 --cols=1537
