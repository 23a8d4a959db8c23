#!/usr/bin/env bash
# Packs ktc-bench and its probes (bench/CMakeLists.txt), plus any ktc-bench
# builds given as paths (another commit's, renamed ktc-bench-<name>), with
# the libraries the GPU machine lacks, into .gpu/probe.tar.xz for
# bench/ab-run.sh (scripts/gpu-bundle.sh does the packing). Run after
# scripts/build.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
KTC_BUNDLE_PROGRAMS="ktc-bench ktc-bench-exact-exp ktc-bench-exact-div $*" \
KTC_BUNDLE_OUT=.gpu/probe.tar.xz exec bash scripts/gpu-bundle.sh
