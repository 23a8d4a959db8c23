#!/usr/bin/env bash
# Runs on the GPU machine (the device tool, carrying .gpu/ from
# scripts/gpu-bundle.sh): ktc's benchmarks (build/bin/ktc-bench), then
# Triton's and torch's on the same shapes (bench/peer.py), in one call, so
# every ratio compares numbers measured on the same GPU minutes apart.
# Writes $OUT/h200/{ktc.csv,peer.csv,peer.json,*.log}; bench/report.py turns
# them into docs/bench/. Pass --quick to shorten the M=4096 sweep.
set -uo pipefail
OUT=${OUT:-/tmp/ktc-out}
dir="$OUT/h200"
mkdir -p "$dir" /tmp/ktc
tar -xJf .gpu/bundle.tar.xz -C /tmp/ktc
export LD_LIBRARY_PATH=/tmp/ktc/lib
quick=()
[ "${1:-}" = "--quick" ] && quick=(--quick=1)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee "$dir/gpu.txt"
# The disk cache off: cold_jit must compile, and every shape is compiled
# afresh like Triton's first run in peer.py.
start=$(date +%s)
KTC_CACHE=off timeout 270 /tmp/ktc/bin/ktc-bench --device=cuda --out="$dir/ktc.csv" "${quick[@]}" \
  > "$dir/ktc.log" 2>&1
echo "ktc-bench: rc=$? in $(( $(date +%s) - start )) s" | tee -a "$dir/gpu.txt"
start=$(date +%s)
PYTHONUNBUFFERED=1 timeout 270 python3 bench/peer.py --out "$dir" ${quick:+--quick} > "$dir/peer.log" 2>&1
echo "peer.py: rc=$? in $(( $(date +%s) - start )) s" | tee -a "$dir/gpu.txt"
tail -n 5 "$dir/ktc.log" "$dir/peer.log"
