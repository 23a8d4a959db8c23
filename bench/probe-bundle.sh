#!/usr/bin/env bash
# Packs ktc-bench and its probes (bench/CMakeLists.txt), plus any ktc-bench
# builds given as arguments (another commit's, renamed ktc-bench-<name>),
# with the libraries the GPU machine lacks, into .gpu/probe.tar.xz for
# bench/ab-run.sh. Run after scripts/build.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib" .gpu
cp build/bin/ktc-bench build/bin/ktc-bench-exact-exp build/bin/ktc-bench-exact-div "$stage/bin/"
for extra in "$@"; do cp "$extra" "$stage/bin/"; done
for lib in libLLVM.so.22.1 libz3.so.4 libxml2.so.2 libicuuc.so.72 libicudata.so.72; do
  path=$(ldd build/bin/ktc-bench | awk -v l="$lib" '$1 == l {print $3}')
  [ -n "$path" ] || { echo "probe-bundle: $lib not found" >&2; exit 1; }
  cp -L "$path" "$stage/lib/$lib"
done
strip --strip-unneeded "$stage/bin/"* 2>/dev/null || true
tar -C "$stage" -cf - bin lib | xz -T0 -9 > .gpu/probe.tar.xz
ls -la .gpu/probe.tar.xz
