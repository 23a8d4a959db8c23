#!/usr/bin/env bash
# Runs on the GPU machine (device tool, carrying a bundle of examples/matmul):
# examples/matmul --autotune with every config's time (KTC_AUTOTUNE_LOG) at
# the given shapes and Triton's tutorial kernel's every config at the same
# shapes (bench/peer_matmul_configs.py), in one device call on one GPU.
#   OUT=dir B=/tmp/ktc/bin bash bench/matmul-ab.sh f16 "1024 1024 1024" ...
set -uo pipefail
dtype=$1; shift
shapes=("$@")
export KTC_CACHE=off KTC_AUTOTUNE_LOG=1
for s in "${shapes[@]}"; do
  read -r m n k <<< "$s"
  echo "== ktc $dtype $m $n $k"
  timeout 240 "$B/matmul" --device=cuda --dtype="$dtype" -m "$m" -n "$n" -k "$k" --autotune --bench 2>&1
done > "$OUT/ktc-$dtype.txt"
(cd "$(dirname "$0")" && timeout 300 python3 peer_matmul_configs.py "$dtype" ${shapes[*]}) \
  > "$OUT/triton-$dtype.txt" 2>&1
grep -h "best\|bench:" "$OUT/ktc-$dtype.txt" "$OUT/triton-$dtype.txt"
