#!/usr/bin/env bash
# Runs on the GPU machine (device tool), once ktc.dot lowers for the GPU:
# examples/matmul on the CUDA device (or $KTC_MATMUL_DEVICE) at the Triton
# tutorial's shapes (1000^3, 4096^3) and odd ones, both types, the fused
# leaky ReLU, transposed inputs, NaNs and infinities, configs of the
# tutorial's list one by one and --autotune with --bench, then
# compute-sanitizer memcheck and racecheck on an odd shape. Logs under $OUT;
# a table of PASS/FAIL last. Bundle: KTC_BUNDLE_EXTRA=matmul
# scripts/gpu-bundle.sh (as gpu-check.sh's transpose).
set -uo pipefail
OUT=${OUT:-/tmp/ktc-out}
DEV=${KTC_MATMUL_DEVICE:-cuda}
mkdir -p "$OUT"
if [ -z "${KTC_BIN:-}" ]; then # else the programs there (build/bin)
  mkdir -p /tmp/ktc
  tar -xJf .gpu/bundle.tar.xz -C /tmp/ktc
  export LD_LIBRARY_PATH=/tmp/ktc/lib
fi
bin=${KTC_BIN:-/tmp/ktc/bin}
log="$OUT/gpu-matmul.log"
: > "$log"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | tee -a "$log"

results=()
check() { # name, command...
  local name=$1; shift
  echo "== $name: $*" >> "$log"
  local first=$(( $(wc -l < "$log") + 1 ))
  local start=$(date +%s%N)
  "$@" >> "$log" 2>&1
  local rc=$?
  local ms=$(( ($(date +%s%N) - start) / 1000000 ))
  local out=$(tail -n +$first "$log")
  local verdict=$(grep -E '^(PASS|FAIL)' <<< "$out" | tail -1 | cut -c1-4)
  [ $rc -eq 0 ] && [ "$verdict" = "PASS" ] || verdict="FAIL(rc=$rc)"
  local err=$(grep -E '^max error' <<< "$out" | tail -1 | awk '{print $3}')
  local tf=$(grep -E '^bench:' <<< "$out" | tail -1 | awk '{print $(NF-1)}')
  results+=("$(printf '%-52s %-12s err %-6s %8s TFLOPS %7d ms' "$name" \
    "$verdict" "${err:--}" "${tf:--}" "$ms")")
}

mm() { check "$*" $bin/matmul --device=$DEV "$@"; }
for dt in f16 bf16; do
  for shape in 1x1x1 17x17x17 100x37x129 1000x1000x1000 3001x517x2049 4096x4096x4096; do
    IFS=x read -r m n k <<< "$shape"
    mm --m=$m --n=$n --k=$k --dtype=$dt --seed=$m
  done
  mm --m=3001 --n=517 --k=2049 --dtype=$dt --activation=leaky_relu --seed=5
  mm --m=3001 --n=517 --k=2049 --dtype=$dt --trans-a --trans-b --seed=6
  mm --m=1000 --n=1000 --k=1000 --dtype=$dt --specials --seed=7
done
# The tutorial's CUDA configs one by one, at an odd shape.
for cfg in "128 256 64 8 8 3" "64 256 32 8 4 4" "128 128 32 8 4 4" \
           "128 64 32 8 4 4" "64 128 32 8 4 4" "128 32 32 8 4 4" \
           "64 32 32 8 2 5" "32 64 32 8 2 5" "16 16 16 1 1 1" "64 64 64 4 4 1"; do
  read -r bm bn bk gm w s <<< "$cfg"
  mm --m=3001 --n=517 --k=2049 --block-m=$bm --block-n=$bn --block-k=$bk \
    --group-m=$gm --warps=$w --stages=$s --seed=11
done
for dt in f16 bf16; do
  for shape in 1000x1000x1000 4096x4096x4096; do
    IFS=x read -r m n k <<< "$shape"
    mm --m=$m --n=$n --k=$k --dtype=$dt --autotune --bench --seed=13
  done
done

CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [ "$DEV" = cuda ]; then
  for tool in memcheck racecheck; do
    echo "== $tool matmul 257x129x65" >> "$log"
    $CS --tool $tool --error-exitcode 3 $bin/matmul --device=cuda --m=257 \
      --n=129 --k=65 --activation=leaky_relu --block-m=64 --block-n=64 \
      --block-k=32 --stages=3 >> "$log" 2>&1
    results+=("$(printf '%-52s rc=%d %s' "$tool matmul 257x129x65" $? \
      "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)")")
  done
fi
printf '%s\n' "${results[@]}" | tee "$OUT/matmul-summary.txt"
