#!/usr/bin/env bash
# The gfx942 column of docs/numerics.md: ktc-conformance run on the gfx942
# emulator (../shared/tools/gfx942-emu) through its stand-in HIP runtime,
# each kernel also run on the host in the same process.
#
#   MGPUSIM_SOURCES=<folder> bash scripts/gfx942-conformance.sh [TABLE.md]
#
# Not run in CI: the emulator is built from the MGPUSim, Akita, xid and
# atexit sources (MGPUSIM_SOURCES, see the emulator's README.md), which CI
# does not have, and needs Go (its build.sh installs it with apt).
#
# Each row runs in its own process (`--filter=^ID$`): the stand-in runtime
# makes a failed kernel's fault sticky, as HIP does, so one kernel the
# emulator cannot run (exit 3, an instruction it lacks) or that runs past
# ROW_TIMEOUT would otherwise end the table. Such rows get an ERROR verdict,
# and the instructions the emulator stopped on are listed after the table.
#
# Environment: KTC_BUILD (default build), GFX942_EMU (the emulator's
# sources, default <repo>/../shared/tools/gfx942-emu), EMU (its build
# output, default ${TMPDIR:-/tmp}/gfx942-emu), ROW_TIMEOUT (seconds per
# row, default 900), FILTER (a regex over row ids: run only those),
# FAKEHIP_ROCM (default 7).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
KTC_BUILD=${KTC_BUILD:-$ROOT/build}
GFX942_EMU=${GFX942_EMU:-$ROOT/../shared/tools/gfx942-emu}
export EMU=${EMU:-${TMPDIR:-/tmp}/gfx942-emu}
ROW_TIMEOUT=${ROW_TIMEOUT:-900}
OUT_MD=${1:-/dev/stdout}
CONF=$KTC_BUILD/bin/ktc-conformance
LOGS=$(mktemp -d "${TMPDIR:-/tmp}/gfx942-conformance.XXXXXX")

[ -x "$CONF" ] || { echo "no $CONF: build ktc first (KTC_BUILD)" >&2; exit 1; }
[ -d "$GFX942_EMU" ] || { echo "no emulator sources at $GFX942_EMU (GFX942_EMU)" >&2; exit 1; }
if [ ! -x "$EMU/amdemu" ]; then
  [ -n "${MGPUSIM_SOURCES:-}" ] || {
    echo "no $EMU/amdemu and MGPUSIM_SOURCES is not set (see $GFX942_EMU/README.md)" >&2; exit 1; }
  bash "$GFX942_EMU/build.sh" >&2 || exit 1
fi
if [ ! -f "$EMU/hip/libfakehip.so" ]; then
  FAKEHIP_DIR=$EMU/hip bash "$GFX942_EMU/hip/build.sh" >&2 || exit 1
fi
export KTC_HIP_LIBRARY=$EMU/hip/libfakehip.so FAKEHIP_AMDEMU=$EMU/amdemu
export FAKEHIP_ROCM=${FAKEHIP_ROCM:-7} FAKEHIP_TIMEOUT=$ROW_TIMEOUT
export KTC_CACHE_DIR=${KTC_CACHE_DIR:-$LOGS/cache}

rows=$LOGS/rows.md
: > "$rows"
failed=0
ids=$("$CONF" --list --filter="${FILTER:-}" | cut -f1 | uniq) || exit 1
[ -n "$ids" ] || { echo "no rows match FILTER=${FILTER:-}" >&2; exit 1; }
for id in $ids; do
  start=$(date +%s)
  timeout "$((ROW_TIMEOUT + 60))" "$CONF" --device=hip --against=cpu \
    --filter="^$id\$" --no-header > "$LOGS/$id.out" 2> "$LOGS/$id.err"
  rc=$?
  secs=$(( $(date +%s) - start ))
  # A kernel the emulator stopped on fails its launch (HIP error 719):
  # name the instruction in the verdict instead.
  stop=$(grep -o -m1 'UNSUPPORTED: .*' "$LOGS/$id.err" | tr '|' '/' | cut -c1-120)
  # MGPUSim's decoder panics on some encodings (exit 2, e.g. SDWA with
  # sext): name the panic (in the log of the job the stand-in runtime kept)
  # and the instruction's code offset.
  job=$(grep -o -m1 'job [^ ;]*\.json' "$LOGS/$id.err" | cut -c5-)
  if [ -z "$stop" ] && [ -n "$job" ] && grep -q '^panic: ' "${job%.json}.log" 2>/dev/null; then
    pc=$(grep -o -m1 'fetch(0x[0-9a-f]*, 0x[0-9a-f]*)' "${job%.json}.log" |
         sed 's/.*, \(0x[0-9a-f]*\))/\1/')
    stop="$(grep -o -m1 '^panic: .*' "${job%.json}.log" | tr '|' '/' |
            cut -c1-100)${pc:+, decoding the instruction at $(printf 0x%x $((pc - 0x10000000)))}"
    echo "$stop" >> "$LOGS/$id.err"
  fi
  if [ -n "$stop" ]; then
    grep '^|' "$LOGS/$id.out" | sed "s%| ERROR: [^|]*|\$%| not run: the emulator stops on it ($stop) |%"
  else
    grep '^|' "$LOGS/$id.out"
  fi >> "$rows"
  if ! grep -q '^PASS' "$LOGS/$id.out"; then
    failed=$((failed + 1))
    # A process that ended before printing its rows: say why in a row.
    if ! grep -q '^|' "$LOGS/$id.out"; then
      why=$(grep -m1 -E 'UNSUPPORTED|error|Error' "$LOGS/$id.err" | tr '|' '/' | cut -c1-160)
      [ $rc -eq 124 ] && why="timed out after $((ROW_TIMEOUT + 60)) s"
      "$CONF" --list --filter="^$id\$" | while IFS=$'\t' read -r _ op type; do
        echo "| $op | $type | gfx942 (emulated) | - | - | - | - | ERROR: exit $rc: ${why:-see $LOGS/$id.err} |"
      done >> "$rows"
    fi
  fi
  echo "$id: rc $rc, ${secs}s" >&2
done

{
  echo "| op | type | target | elements | max ulp | bound | bits differing from the host | verdict |"
  echo "|---|---|---|---|---|---|---|---|"
  cat "$rows"
  echo "$([ $failed -eq 0 ] && echo PASS || echo FAIL): $failed of $(grep -c '^|' "$rows") rows did not pass"
  if cat "$LOGS"/*.err 2>/dev/null | grep -q 'UNSUPPORTED\|^panic: '; then
    echo
    echo "Instructions the emulator stopped on (row: line):"
    echo
    for f in "$LOGS"/*.err; do
      grep -o 'UNSUPPORTED.*\|^panic: .*' "$f" | sort -u |
        sed "s|^|- $(basename "$f" .err): |"
    done
  fi
} > "$OUT_MD"
echo "logs in $LOGS" >&2
[ $failed -eq 0 ]
