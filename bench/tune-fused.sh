#!/usr/bin/env bash
# Runs on the GPU machine (device tool, carrying .gpu/): the fused softmax
# at each benchmark shape over waves per program (WARPS, default 4 8 16),
# pipeline stages (STAGES, Options::num_stages, default 1 2 3) and programs
# as a multiple of those resident at once (GRID, default 1; "rows" is one
# program per row), printing the median time, GB/s and the programs. What
# examples/kernels/launch.h's fused_* heuristics were tuned from.
#   [WARPS=..] [STAGES=..] [GRID=..] bash bench/tune-fused.sh [shapes...]
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
      for g in ${GRID:-1}; do
        grid=(--persistent=$g)
        [ "$g" = rows ] && grid=(--programs=${shape%x*})
        out=$(/tmp/ktc/bin/softmax --device=cuda --variant=fused --rows=${shape%x*} \
          --cols=${shape#*x} --warps=$w --stages=$s "${grid[@]}" --bench=1 --seed=3 2>&1)
        printf '%-11s warps %2d stages %d grid %-4s: %s | %s | %s\n' "$shape" $w $s $g \
          "$(grep -oE '[0-9]+ programs' <<<"$out")" \
          "$(grep -E '^bench:' <<<"$out")" "$(tail -n 1 <<<"$out" | cut -c1-4)"
      done
    done
  done
done
