#!/usr/bin/env bash
# Runs on the GPU machine (device tool, carrying .gpu/): the fused softmax
# at each benchmark shape with 4, 8 and 16 waves per program and 1, 2 and 3
# pipeline stages (Options::num_stages), printing the median time, GB/s and
# the programs occupancy gave. What examples/kernels/launch.h's
# fused_num_warps and fused_num_stages were tuned from.
#   bash bench/tune-fused.sh [shapes...]   (default: the benchmark shapes)
set -uo pipefail
mkdir -p /tmp/ktc
[ -x /tmp/ktc/bin/softmax ] || tar -xJf .gpu/bundle.tar.xz -C /tmp/ktc
export LD_LIBRARY_PATH=/tmp/ktc/lib
shapes=("$@")
[ ${#shapes[@]} -gt 0 ] || shapes=(8192x8192 4096x256 4096x1024 4096x4096
                                  4096x12800 1823x781 64x2048 128x4096)
for shape in "${shapes[@]}"; do
  for w in ${WARPS:-4 8 16}; do
    for s in ${STAGES:-1 2 3}; do
      out=$(/tmp/ktc/bin/softmax --device=cuda --variant=fused --rows=${shape%x*} \
        --cols=${shape#*x} --warps=$w --stages=$s --bench=1 --seed=3 2>&1)
      printf '%-11s warps %2d stages %d: %s | %s | %s\n' "$shape" $w $s \
        "$(grep -oE '[0-9]+ programs' <<<"$out")" \
        "$(grep -E '^bench:' <<<"$out")" "$(tail -n 1 <<<"$out" | cut -c1-4)"
    done
  done
done
