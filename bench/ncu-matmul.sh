#!/usr/bin/env bash
# Runs on the GPU machine (device tool): Nsight Compute of ktc's matmul
# (examples/matmul at one config, $B/matmul) and Triton's tutorial kernel
# at the same config (bench/peer_matmul_one.py), one launch each: the
# summary sections and the SASS with each instruction's warp-stall samples.
#   B=/tmp/ktc/bin bash bench/ncu-matmul.sh f16 M N K BM BN BK W S OUTDIR
set -uo pipefail
dtype=$1 m=$2 n=$3 k=$4 bm=$5 bn=$6 bk=$7 w=$8 s=$9 out=${10}
mkdir -p "$out"
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
tag="$dtype-${m}x${n}x${k}-${bm}x${bn}x${bk}w${w}s${s}"
sections=(--section SpeedOfLight --section LaunchStats --section Occupancy
          --section WarpStateStats --section InstructionStats --section SchedulerStats
          --section SourceCounters)
ktc=(env KTC_CACHE=off "$B/matmul" --device=cuda --dtype="$dtype" -m "$m" -n "$n" -k "$k"
     --block-m "$bm" --block-n "$bn" --block-k "$bk" --warps "$w" --stages "$s")
triton=(python3 "$(cd "$(dirname "$0")" && pwd)/peer_matmul_one.py" "$dtype" "$m" "$n" "$k"
        "$bm" "$bn" "$bk" "$w" "$s" 2)
for who in ktc triton; do
  if [ $who = ktc ]; then cmd=("${ktc[@]}"); else cmd=("${triton[@]}"); fi
  "$NCU" --clock-control none -k regex:matmul -c 1 "${sections[@]}" -o "$out/$who-$tag" -f \
    "${cmd[@]}" > "$out/$who-$tag.log" 2>&1
  "$NCU" -i "$out/$who-$tag.ncu-rep" > "$out/$who-$tag.txt" 2>&1
  "$NCU" -i "$out/$who-$tag.ncu-rep" --page source --print-source sass --csv \
    > "$out/$who-$tag-sass.csv" 2>&1
  rm -f "$out/$who-$tag.ncu-rep"
done
