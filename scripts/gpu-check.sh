#!/usr/bin/env bash
# Runs on the GPU machine (device tool): every example on the CUDA device at
# odd sizes and 8192x8192, then compute-sanitizer memcheck on the masked
# kernels. Logs under $OUT; a table of PASS/FAIL last.
set -uo pipefail
OUT=${OUT:-/tmp/ktc-out}
mkdir -p "$OUT" /tmp/ktc
tar -xJf .gpu/bundle.tar.xz -C /tmp/ktc
export LD_LIBRARY_PATH=/tmp/ktc/lib
bin=/tmp/ktc/bin
log="$OUT/gpu-check.log"
: > "$log"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee -a "$log"
if ldd $bin/vector_add | grep "not found"; then echo "missing libraries" | tee -a "$log"; fi

results=()
check() { # name, command...
  local name=$1; shift
  echo "== $name: $*" >> "$log"
  local first=$(( $(wc -l < "$log") + 1 )) # this command's output only
  local start=$(date +%s%N)
  "$@" >> "$log" 2>&1
  local rc=$?
  local ms=$(( ($(date +%s%N) - start) / 1000000 ))
  local verdict=$(tail -n +$first "$log" | grep -E '^(PASS|FAIL)' | tail -1 | cut -c1-4)
  [ $rc -eq 0 ] && [ "$verdict" = "PASS" ] || verdict="FAIL(rc=$rc)"
  local err=$(tail -n +$first "$log" | grep -E '^max relative error' | tail -1 | awk '{print $4}')
  [ -n "$err" ] || err=-
  results+=("$(printf '%-34s %-12s err %-10s %6d ms' "$name" "$verdict" "$err" "$ms")")
}

for n in 1 7 98432 1048576 67108864; do
  check "vector_add n=$n" $bin/vector_add --device=cuda --size=$n --seed=$n
done
# Device events on the device's stream (a sanity figure, not a benchmark).
check "vector_add n=67108864 --time=1" $bin/vector_add --device=cuda \
  --size=67108864 --seed=5 --time=1
grep -E "^time:" "$log" | tail -1
for v in naive online; do
  for shape in 1823x781 3x5 4096x1024 1x100000 8192x8192; do
    check "softmax $v $shape" $bin/softmax --device=cuda --variant=$v \
      --rows=${shape%x*} --cols=${shape#*x} --seed=7
  done
done
for shape in 1823x781 3x5 4096x1024 8192x1024 1x1 513x1537 4097x33 7x16384 1x16384; do
  check "softmax tiled $shape" $bin/softmax --device=cuda --variant=tiled \
    --rows=${shape%x*} --cols=${shape#*x} --seed=13
done
for shape in 1823x781 3x5 4096x1024 7x16384 8192x8192; do
  check "softmax fused $shape" $bin/softmax --device=cuda --variant=fused \
    --rows=${shape%x*} --cols=${shape#*x} --seed=11
done

# The 2-D tiled transpose and tile copy, bit for bit, where the bundle has
# them (KTC_BUNDLE_EXTRA=transpose scripts/gpu-bundle.sh: the default bundle
# is near the device tool's 64 MiB).
if [ -x $bin/transpose ]; then
  for v in transpose copy; do
    for shape in 1x1 3x5 513x1537 4097x33 8192x8192; do
      check "$v $shape" $bin/transpose --device=cuda --variant=$v \
        --rows=${shape%x*} --cols=${shape#*x} --seed=29
    done
  done
  check "transpose 513x1537 32x128 tiles" $bin/transpose --device=cuda \
    --rows=513 --cols=1537 --block-m=32 --block-n=128 --seed=31
fi

# Pipelined loops (num_stages 2 and 3): the row loops of naive and online,
# and the persistent fused loop (programs striding over the rows).
for st in 2 3; do
  for v in naive online; do
    check "softmax $v 1823x781 stages=$st" $bin/softmax --device=cuda \
      --variant=$v --rows=1823 --cols=781 --stages=$st --seed=19
  done
  for shape in 1823x781 4096x1024 8192x8192; do
    check "softmax fused $shape 97 programs stages=$st" $bin/softmax \
      --device=cuda --variant=fused --rows=${shape%x*} --cols=${shape#*x} \
      --programs=97 --stages=$st --seed=23
  done
done

# The autotuner on the GPU: every config timed, the winners checked.
check "autotune n=98433 1823x781" $bin/autotune --device=cuda --verbose=1 \
  --size=98433 --rows=1823 --cols=781 --seed=17

# Memory checking of the masked kernels at odd sizes; racecheck of every
# softmax, whose reductions share memory between waves (the persistent
# fused loops run each reduction's slots round several times, with the
# second barrier left out: planReductionSlots), and of the transpose, whose
# tile changes layout through shared memory.
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for args in "vector_add --size=98433" "softmax --variant=naive --rows=37 --cols=781" \
            "softmax --variant=online --rows=37 --cols=1000" \
            "softmax --variant=fused --rows=37 --cols=781" \
            "softmax --variant=tiled --rows=37 --cols=781" \
            "softmax --variant=tiled --rows=5 --cols=16384" \
            "softmax --variant=online --rows=37 --cols=1000 --stages=3" \
            "softmax --variant=fused --rows=37 --cols=781 --programs=5 --stages=2" \
            "softmax --variant=online --rows=37 --cols=1000 --warps=8" \
            "softmax --variant=fused --rows=37 --cols=1000 --programs=3 --warps=8" \
            "softmax --variant=fused --rows=37 --cols=1000 --programs=3 --warps=2" \
            "transpose --rows=513 --cols=1537"; do
  [ -x "$bin/${args%% *}" ] || continue
  echo "== memcheck $args" >> "$log"
  $CS --tool memcheck --error-exitcode 3 $bin/$args --device=cuda >> "$log" 2>&1
  rc=$?
  summary=$(grep -E "ERROR SUMMARY" "$log" | tail -1)
  if [ "${args%% *}" = "softmax" ] || [ "${args%% *}" = "transpose" ]; then
    echo "== racecheck $args" >> "$log"
    $CS --tool racecheck --error-exitcode 3 $bin/$args --device=cuda >> "$log" 2>&1
    rrc=$?
    summary="$summary; racecheck rc=$rrc $(grep -E "RACECHECK SUMMARY|ERROR SUMMARY" "$log" | tail -1)"
  fi
  results+=("$(printf '%-44s rc=%d %s' "memcheck ${args%% *} ${args#* }" $rc "$summary")")
done

# The numerics catalogue on CUDA, each kernel also run on the host CPU in
# the same process: max ulp per op and the elements whose bits differ
# (docs/numerics.md carries the table).
echo "== ktc-conformance --device=cuda --against=cpu" >> "$log"
$bin/ktc-conformance --device=cuda --against=cpu > "$OUT/conformance-cuda.md" 2>> "$log"
crc=$?
cat "$OUT/conformance-cuda.md" >> "$log"
results+=("$(printf '%-44s rc=%d %s' "conformance cuda vs host" $crc "$(tail -1 "$OUT/conformance-cuda.md")")")
# Its 128 KiB shared-memory row runs with dynamic shared memory (past the 48
# KiB PTX declares statically): what the kernel used and the device allows.
results+=("$(grep -h '^conf_shared_128k:' "$log" | tail -1)")

printf '%s\n' "${results[@]}" | tee "$OUT/summary.txt"
