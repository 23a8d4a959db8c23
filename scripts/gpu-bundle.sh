#!/usr/bin/env bash
# Packs what the GPU machine needs to run ktc's programs: the example
# binaries and the shared libraries they use that an Ubuntu 24.04 machine
# without LLVM lacks (Debian's libLLVM 22 and its rarer
# dependencies), xz-compressed into .gpu/bundle.tar.xz (ignored by git; the
# 64 MiB dictionary of -9 shares the binaries' common code; the
# device tool carries it). Run after scripts/build.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib" .gpu
# The device tool carries at most 64 MiB: the programs gpu-check.sh and
# device-run.sh run; KTC_BUNDLE_EXTRA adds others (tune-fused.sh needs
# "ktc-fused-probe").
for prog in vector_add softmax autotune ktc-bench ktc-conformance ${KTC_BUNDLE_EXTRA:-}; do
  cp "build/bin/$prog" "$stage/bin/"
done
for lib in libLLVM.so.22.1 libz3.so.4 libxml2.so.2 \
           libicuuc.so.72 libicudata.so.72; do
  path=$(ldd build/bin/vector_add | awk -v l="$lib" '$1 == l {print $3}')
  [ -n "$path" ] || { echo "gpu-bundle: $lib not found" >&2; exit 1; }
  cp -L "$path" "$stage/lib/$lib"
done
strip --strip-unneeded "$stage/bin/"* 2>/dev/null || true
tar -C "$stage" -cf - bin lib | xz -T0 -9 > .gpu/bundle.tar.xz
ls -la .gpu/bundle.tar.xz
