#!/usr/bin/env bash
# Sanitizer builds and fuzzing (docs/reliability.md). Configures with clang-22,
# builds and runs; safe to run again (it reuses its build directories).
#
#   bash scripts/sanitize.sh asan        ASan+UBSan build (build-asan/), whole ctest suite
#   bash scripts/sanitize.sh tsan        TSan build (build-tsan/), whole ctest suite
#   bash scripts/sanitize.sh fuzz-smoke  both fuzzers, KTC_FUZZ_SECONDS (60) each, fixed seed
#   bash scripts/sanitize.sh fuzz        both fuzzers, KTC_FUZZ_SECONDS (600) each, corpus kept
#   bash scripts/sanitize.sh ci          what CI runs: only the targets needed, fuzz smoke,
#                                        the concurrency, cache and fuzz-replay tests under ASan,
#                                        the concurrency, host-JIT, cache and multi_gpu
#                                        example tests under TSan
#
# Environment: KTC_JOBS (parallel jobs, default nproc), KTC_FUZZ_SECONDS,
# KTC_ASAN_DIR / KTC_TSAN_DIR (build directories), KTC_FUZZ_ONLY=parse|builder.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
MODE="${1:-}"
JOBS="${KTC_JOBS:-$(nproc)}"
ASAN_DIR="${KTC_ASAN_DIR:-build-asan}"
TSAN_DIR="${KTC_TSAN_DIR:-build-tsan}"

usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ -n "$MODE" ] || usage
step_start=$(date +%s)
say() { echo "== sanitize.sh $MODE [$(( $(date +%s) - step_start )) s]: $*"; }

# configure DIR SANITIZERS FUZZ: (re)configures; cheap when nothing changed.
configure() {
  local dir=$1 sanitizers=$2 fuzz=$3
  command -v clang++-22 >/dev/null || { echo "sanitize.sh: clang++-22 missing (bash scripts/setup.sh)" >&2; exit 1; }
  mkdir -p "$dir"
  cmake -G Ninja -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DKTC_SANITIZE="$sanitizers" -DKTC_FUZZ="$fuzz" > "$dir/ktc-configure.log" 2>&1 ||
    { cat "$dir/ktc-configure.log"; exit 1; }
}
build() { # DIR [TARGET...]
  local dir=$1; shift
  if [ $# -gt 0 ]; then
    nice -n 5 cmake --build "$dir" -j "$JOBS" --target "$@"
  else
    nice -n 5 cmake --build "$dir" -j "$JOBS"
  fi
}

# fuzz NAME SECONDS WORKDIR: runs ktc-fuzz-NAME from its seeds plus WORKDIR
# (new inputs go there), a fixed seed, crashes under $ASAN_DIR/fuzz-artifacts.
fuzz() {
  local name=$1 seconds=$2 work=$3
  local bin="$ASAN_DIR/bin/ktc-fuzz-$name" seeds="$ASAN_DIR/test/fuzz/corpus/$name"
  local artifacts="$ASAN_DIR/fuzz-artifacts" log="$ASAN_DIR/fuzz-$name.log"
  local extra=()
  [ "$name" = parse ] && extra+=(-dict=test/fuzz/ktc.dict -max_len=16384)
  [ "$name" = builder ] && extra+=(-max_len=1024)
  mkdir -p "$work" "$artifacts"
  say "fuzzing $name for ${seconds} s (log: $log)"
  local rc=0
  # The runtime's own defaults (cmake/Sanitizers.cmake) apply; leaks are
  # checked per input by libFuzzer.
  KTC_CACHE=off KTC_DUMP_DIR="$ASAN_DIR/fuzz-dump" \
    "$bin" -seed=1 -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 \
      -print_final_stats=1 -artifact_prefix="$artifacts/$name-" "${extra[@]}" \
      "$work" "$seeds" > "$log" 2>&1 || rc=$?
  grep -E "^(Done [0-9]+ runs|stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb))" "$log" || true
  if [ $rc -ne 0 ]; then
    tail -60 "$log"
    echo "sanitize.sh: ktc-fuzz-$name failed (rc=$rc); reproducer: $(ls -t "$artifacts"/$name-* 2>/dev/null | head -1)" >&2
    return $rc
  fi
}

fuzz_all() {
  local seconds=$1 keep=$2
  for name in parse builder; do
    [ -n "${KTC_FUZZ_ONLY:-}" ] && [ "$KTC_FUZZ_ONLY" != "$name" ] && continue
    local work="$ASAN_DIR/fuzz-corpus/$name"
    [ "$keep" = 1 ] || { rm -rf "$work"; work="$ASAN_DIR/fuzz-smoke/$name"; rm -rf "$work"; }
    fuzz "$name" "$seconds" "$work"
  done
}

run_ctest() { # DIR [ctest args]
  local dir=$1; shift
  say "ctest in $dir $*"
  ctest --test-dir "$dir" --output-on-failure -j "$JOBS" --timeout 1500 "$@"
}

case "$MODE" in
  asan)
    configure "$ASAN_DIR" address,undefined ON
    say "building everything in $ASAN_DIR"
    build "$ASAN_DIR"
    run_ctest "$ASAN_DIR"
    ;;
  tsan)
    configure "$TSAN_DIR" thread OFF
    say "building everything in $TSAN_DIR"
    build "$TSAN_DIR"
    run_ctest "$TSAN_DIR"
    ;;
  fuzz-smoke|fuzz)
    configure "$ASAN_DIR" address,undefined ON
    build "$ASAN_DIR" ktc-fuzz-parse ktc-fuzz-builder ktc-fuzz-corpus
    if [ "$MODE" = fuzz ]; then
      fuzz_all "${KTC_FUZZ_SECONDS:-600}" 1
    else
      fuzz_all "${KTC_FUZZ_SECONDS:-60}" 0
    fi
    ;;
  ci)
    configure "$ASAN_DIR" address,undefined ON
    say "building the fuzzers and the concurrency/cache tests in $ASAN_DIR"
    build "$ASAN_DIR" ktc-fuzz-parse ktc-fuzz-builder ktc-fuzz-corpus \
      ktc-replay-parse ktc-replay-builder ktc-fuzz-regression-tests \
      ktc-unittests ktc-cache-tests
    fuzz_all "${KTC_FUZZ_SECONDS:-60}" 0
    run_ctest "$ASAN_DIR" -R '^(unit/(Concurrency|Stress[A-Za-z]*|NestedLaunch|MultiDevice|Interop)\.|cache/|fuzz/)'
    # Races: the tests that launch, compile and cache from several threads
    # (CPU launches share one thread pool; cold processes and threads
    # compile into one cache; nested launches wait across threads) under
    # TSan.
    configure "$TSAN_DIR" thread OFF
    say "building the concurrency and cache tests in $TSAN_DIR"
    build "$TSAN_DIR" ktc-unittests ktc-cache-tests multi_gpu
    # (multi_gpu: one host thread per logical host device, issue 23.)
    run_ctest "$TSAN_DIR" -R '^(unit/(Concurrency|HostJit|Stress[A-Za-z]*|NestedLaunch|KernelNames|MultiDevice|Interop)\.|cache/|example/multi_gpu_)'
    ;;
  *)
    usage
    ;;
esac
say "done"
