#!/usr/bin/env bash
# Runs on the GPU machine (device tool, carrying .gpu/): Nsight Compute of
# ktc's and Triton's softmax of one variant and shape, one launch each
# (docs/bench/h200/ncu-*.txt). The clocks are left alone.
#   bash bench/ncu-compare.sh fused|naive M N OUTDIR
set -uo pipefail
variant=$1 rows=$2 cols=$3 out=$4
mkdir -p "$out" /tmp/ktc
[ -x /tmp/ktc/bin/softmax ] || tar -xJf .gpu/bundle.tar.xz -C /tmp/ktc
export LD_LIBRARY_PATH=/tmp/ktc/lib
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
sections=(--section SpeedOfLight --section LaunchStats --section Occupancy
          --section WarpStateStats --section InstructionStats --section SchedulerStats
          --section MemoryWorkloadAnalysis)
"$NCU" --clock-control none -k regex:softmax_$variant -c 1 "${sections[@]}" \
  /tmp/ktc/bin/softmax --device=cuda --variant=$variant --rows=$rows --cols=$cols \
  | grep -v '^==PROF==' > "$out/ncu-ktc-$variant-${rows}x$cols.txt"
"$NCU" --clock-control none -k regex:softmax_kernel_$variant -s 1 -c 1 "${sections[@]}" \
  python3 bench/peer_probe.py $variant $rows $cols \
  | grep -v '^==PROF==' > "$out/ncu-triton-$variant-${rows}x$cols.txt"
