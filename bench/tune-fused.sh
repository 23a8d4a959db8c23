#!/usr/bin/env bash
# Runs on the GPU machine (device tool, carrying .gpu/): the fused softmax
# at each benchmark shape with 4, 8, 16 and 32 waves per program, printing
# the median time, GB/s and the programs occupancy gave. What
# examples/kernels/launch.h's fused_num_warps was tuned from.
set -uo pipefail
mkdir -p /tmp/ktc
tar -xJf .gpu/bundle.tar.xz -C /tmp/ktc
export LD_LIBRARY_PATH=/tmp/ktc/lib
for shape in 8192x8192 4096x256 4096x1024 4096x4096 4096x12800 1823x781 \
             64x2048 128x4096 4096x2048 4096x8192; do
  for w in 4 8 16 32; do
    out=$(/tmp/ktc/bin/softmax --device=cuda --variant=fused --rows=${shape%x*} \
      --cols=${shape#*x} --warps=$w --bench=1 --seed=3 2>&1)
    printf '%-11s warps %2d: %s | %s | %s\n' "$shape" $w \
      "$(grep -oE '[0-9]+ programs' <<<"$out")" \
      "$(grep -E '^bench:' <<<"$out")" "$(tail -n 1 <<<"$out" | cut -c1-4)"
  done
  /tmp/ktc/bin/softmax --variant=fused --cols=${shape#*x} --info=1 --target=cuda 2>&1 | tail -n 1
done
