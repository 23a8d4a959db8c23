#!/usr/bin/env bash
# Runs on the GPU machine (device tool, carrying .gpu/probe.tar.xz from
# bench/probe-bundle.sh): ktc-bench builds side by side with Triton and
# torch (bench/peer.py), ROUNDS rounds (default 3) of the --quick shapes, in
# one call. Each bin/ktc-bench* in the bundle writes $OUT/ab/<name>-r<k>.csv;
# bench/report.py over one binary's rounds (comma-separated) and the peer's
# gives its ratios, so that spellings of the seeds (ktc-bench-exact-exp,
# ktc-bench-exact-div) and an earlier commit's build are compared on one GPU.
set -uo pipefail
OUT=${OUT:-/tmp/ktc-out}
dir="$OUT/ab"
mkdir -p "$dir" /tmp/ktc
tar -xJf .gpu/probe.tar.xz -C /tmp/ktc
export LD_LIBRARY_PATH=/tmp/ktc/lib
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$dir/gpu.txt"
for ((k = 1; k <= ${ROUNDS:-3}; k++)); do
  for b in /tmp/ktc/bin/ktc-bench*; do
    name=$(basename "$b")
    KTC_CACHE=off timeout 150 "$b" --device=cuda --out="$dir/$name-r$k.csv" --quick=1 \
      > "$dir/$name-r$k.log" 2>&1
    echo "round $k $name: rc=$?" | tee -a "$dir/gpu.txt"
  done
  PYTHONUNBUFFERED=1 timeout 150 python3 bench/peer.py --out "$dir/peer-r$k" --quick \
    > "$dir/peer-r$k.log" 2>&1
  echo "round $k peer: rc=$?" | tee -a "$dir/gpu.txt"
done
# At most 8 files come back: one archive.
tar -C "$dir" -czf "$OUT/ab.tar.gz" . && echo "ab.tar.gz: $(du -h "$OUT/ab.tar.gz" | cut -f1)"
