#!/usr/bin/env bash
# Sets up, builds, and runs the main job: the shipped vector-add kernel
# through ktc-opt (verify, canonicalise, print).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
echo "== build/bin/ktc-opt --canonicalize examples/vector_add/vector_add.mlir"
build/bin/ktc-opt --canonicalize examples/vector_add/vector_add.mlir
