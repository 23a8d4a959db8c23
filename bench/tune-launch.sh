#!/usr/bin/env bash
# Runs on the GPU machine (device tool, carrying .gpu/): the launch choices
# of the loop softmaxes and vector-add, one median per configuration, each
# configuration measured ROUNDS times (default 2) in alternation so that
# drift shows. What the waves-per-program defaults of examples/kernels/
# launch.h were chosen from (docs/bench/h200/tune-launch.txt).
#   [ROUNDS=k] [WARPS="1 2 4 8"] [SHAPES="MxN ..."] [ADD="N:BLOCK:WARPS ..."]
#     bash bench/tune-launch.sh
set -uo pipefail
mkdir -p /tmp/ktc
[ -x /tmp/ktc/bin/softmax ] || tar -xJf .gpu/bundle.tar.xz -C /tmp/ktc
export LD_LIBRARY_PATH=/tmp/ktc/lib
shapes=(${SHAPES:-8192x8192 4096x256 4096x1024 4096x4096 4096x12800 1823x781 64x2048 128x4096})
adds=(${ADD:-16777216:1024:4 16777216:2048:4 16777216:4096:4 16777216:2048:8
              16777216:4096:8 16777216:1024:2 268435456:1024:4 268435456:2048:4
              268435456:4096:4 268435456:2048:8 268435456:4096:8 268435456:1024:2})
line() { # label, output of an example run
  printf '%-38s %s | %s\n' "$1" "$(grep -E '^bench:' <<<"$2")" "$(tail -n 1 <<<"$2" | cut -c1-4)"
}
for ((r = 1; r <= ${ROUNDS:-2}; r++)); do
  echo "== round $r"
  for shape in "${shapes[@]}"; do
    for v in naive online; do
      for w in ${WARPS:-1 2 4 8}; do
        out=$(/tmp/ktc/bin/softmax --device=cuda --variant=$v --rows=${shape%x*} \
          --cols=${shape#*x} --block=256 --warps=$w --bench=1 --seed=3 2>&1)
        line "$v $shape warps $w" "$out"
      done
    done
  done
  for a in "${adds[@]}"; do
    IFS=: read -r n b w <<<"$a"
    out=$(/tmp/ktc/bin/vector_add --device=cuda --size=$n --block=$b --warps=$w \
      --bench=1 --seed=3 2>&1)
    line "vector_add $n block $b warps $w" "$out"
  done
done
