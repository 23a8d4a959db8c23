#!/usr/bin/env bash
# Runs on the GPU machine (the device tool, carrying .gpu/ from
# scripts/gpu-bundle.sh): ktc's benchmarks (build/bin/ktc-bench), then
# Triton's and torch's on the same shapes (bench/peer.py), in one call, so
# every ratio compares numbers measured on the same GPU minutes apart.
# Writes $OUT/h200/{ktc.csv,peer.csv,peer.json,*.log}; bench/report.py turns
# them into docs/bench/. Pass --quick to shorten the M=4096 sweep. With
# RUNS=K (default 1), K-1 more rounds of both (--quick: the fixed shapes,
# four sweep sizes, launch overhead, cold JIT) follow, into $OUT/h200/runs.tar.gz (run<k>/);
# bench/report.py given every round's CSVs (comma-separated) shows, per row,
# the round with the median time, so that kernels of a few microseconds are
# not judged on one round's jitter.
# --matmul runs the matmul rows only, in the same way (ktc-bench --matmul,
# bench/peer.py --matmul: Triton's tutorial matmul autotuned, cuBLAS), into
# $OUT/h200/{ktc-matmul.csv,peer-matmul.csv,peer-matmul.json,*.log}; give
# those to bench/report.py beside the others (its docstring says how).
set -uo pipefail
OUT=${OUT:-/tmp/ktc-out}
dir="$OUT/h200"
mkdir -p "$dir" /tmp/ktc
tar -xJf .gpu/bundle.tar.xz -C /tmp/ktc
export LD_LIBRARY_PATH=/tmp/ktc/lib
quick=()
[ "${1:-}" = "--quick" ] && quick=(--quick=1)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee "$dir/gpu.txt"
if [ "${1:-}" = "--matmul" ]; then
  # Triton compiles 16 configurations x 3 specialisations x 2 dtypes and
  # autotunes 10 times: most of the 600 s a device call may take.
  start=$(date +%s)
  KTC_CACHE=off timeout 150 /tmp/ktc/bin/ktc-bench --device=cuda --matmul \
    --out="$dir/ktc-matmul.csv" > "$dir/ktc-matmul.log" 2>&1
  echo "ktc-bench --matmul: rc=$? in $(( $(date +%s) - start )) s" | tee -a "$dir/gpu.txt"
  start=$(date +%s)
  PYTHONUNBUFFERED=1 timeout 400 python3 bench/peer.py --matmul --out "$dir" \
    > "$dir/peer-matmul.log" 2>&1
  echo "peer.py --matmul: rc=$? in $(( $(date +%s) - start )) s" | tee -a "$dir/gpu.txt"
  tail -n 5 "$dir/ktc-matmul.log" "$dir/peer-matmul.log"
  exit 0
fi
# The disk cache off: cold_jit must compile, and every shape is compiled
# afresh like Triton's first run in peer.py.
start=$(date +%s)
KTC_CACHE=off timeout 270 /tmp/ktc/bin/ktc-bench --device=cuda --out="$dir/ktc.csv" "${quick[@]}" \
  > "$dir/ktc.log" 2>&1
echo "ktc-bench: rc=$? in $(( $(date +%s) - start )) s" | tee -a "$dir/gpu.txt"
start=$(date +%s)
PYTHONUNBUFFERED=1 timeout 270 python3 bench/peer.py --out "$dir" ${quick:+--quick} > "$dir/peer.log" 2>&1
echo "peer.py: rc=$? in $(( $(date +%s) - start )) s" | tee -a "$dir/gpu.txt"
for ((k = 2; k <= ${RUNS:-1}; k++)); do
  mkdir -p "$dir/run$k"
  KTC_CACHE=off timeout 120 /tmp/ktc/bin/ktc-bench --device=cuda --out="$dir/run$k/ktc.csv" \
    --quick=1 > "$dir/run$k/ktc.log" 2>&1
  echo "round $k ktc-bench: rc=$?" | tee -a "$dir/gpu.txt"
  PYTHONUNBUFFERED=1 timeout 120 python3 bench/peer.py --out "$dir/run$k" --quick \
    > "$dir/run$k/peer.log" 2>&1
  echo "round $k peer.py: rc=$? at $(( $(date +%s) - start )) s" | tee -a "$dir/gpu.txt"
done
# The device tool returns a limited number of files: the extra rounds go
# back as one archive (tar -xzf runs.tar.gz -C <dir>).
if [ "${RUNS:-1}" -gt 1 ]; then
  tar -C "$dir" -czf "$dir/runs.tar.gz" $(cd "$dir" && ls -d run*/) && rm -rf "$dir"/run*/
fi
tail -n 5 "$dir/ktc.log" "$dir/peer.log"
