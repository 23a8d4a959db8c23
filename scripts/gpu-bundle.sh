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
# "ktc-fused-probe"). KTC_BUNDLE_PROGRAMS replaces the list and
# KTC_BUNDLE_OUT the archive (bench/probe-bundle.sh); a program with a '/'
# is a path, others are in build/bin.
for prog in ${KTC_BUNDLE_PROGRAMS:-vector_add softmax autotune ktc-bench ktc-conformance} \
            ${KTC_BUNDLE_EXTRA:-}; do
  case "$prog" in */*) cp "$prog" "$stage/bin/" ;; *) cp "build/bin/$prog" "$stage/bin/" ;; esac
done
out=${KTC_BUNDLE_OUT:-.gpu/bundle.tar.xz}
for lib in libLLVM.so.22.1 libz3.so.4 libxml2.so.2 \
           libicuuc.so.72 libicudata.so.72; do
  path=$(ldd build/bin/ktc-bench | awk -v l="$lib" '$1 == l {print $3}')
  [ -n "$path" ] || { echo "gpu-bundle: $lib not found" >&2; exit 1; }
  cp -L "$path" "$stage/lib/$lib"
done
strip --strip-unneeded "$stage/bin/"* 2>/dev/null || true
tar -C "$stage" -cf - bin lib | xz -T0 -9 > "$out"
ls -la "$out"
