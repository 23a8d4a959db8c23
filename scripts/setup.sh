#!/usr/bin/env bash
# Installs what ktc needs to build and test on Debian 12, from Debian's own
# packages only. Idempotent: when everything is present it installs nothing.
set -euo pipefail

PACKAGES=(
  # compilers and build tools
  g++ cmake ninja-build python3
  # LLVM / MLIR / lld 22 (bookworm-security), pinned by name
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools lld-22 liblld-22-dev clang-22
  # sanitizer runtimes and libFuzzer for clang-22 (scripts/sanitize.sh)
  libclang-rt-22-dev
  # unit tests and microbenchmarks
  libgtest-dev libbenchmark-dev
  # ROCm HIP headers (types only: libamdhip64 is opened with dlopen)
  libamdhip64-dev
  # the benchmark report's plot (bench/report.py)
  gnuplot-nox
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "ktc setup: all ${#PACKAGES[@]} packages already installed"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "ktc setup: installing ${missing[*]}"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "ktc setup: done"
