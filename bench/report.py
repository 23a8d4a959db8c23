#!/usr/bin/env python3
"""ktc against Triton and torch: merged results, ratio tables, targets, plot.

    python3 bench/report.py --ktc DIR/ktc.csv --peer DIR/peer.csv \
        --meta DIR/peer.json --out docs/bench/h200 [--date YYYY-MM-DD] [--no-plot]
    python3 bench/report.py --self-test

With the matmul runs (ktc-bench --matmul, bench/peer.py --matmul), give
their files too, comma-separated: --ktc DIR/ktc.csv,DIR/ktc-matmul.csv
--peer DIR/peer.csv,DIR/peer-matmul.csv --meta DIR/peer.json,DIR/peer-matmul.json
(metadata files are merged, the later winning); ratios.md then has a
TFLOP/s table per dtype with ktc÷Triton and ktc÷cuBLAS (bench/report_matmul.py).

Reads the CSVs that ktc's C++ benchmark and bench/peer.py write (columns
bench,provider,M,N,block,num_warps,ms,ms_p20,ms_p80,gbps) and writes into
--out: results.csv (both merged), ratios.md (GB/s per provider, ktc's ratios
to Triton, torch and a copy of the same shape, PASS/MISS against the
targets), sweep.dat and sweep.gp (the M = 4096 softmax sweep), and sweep.png
when gnuplot is on PATH. Missing data shows as "—" and counts as MISS where
a target needs it; nothing missing or malformed stops the report.
--self-test checks the arithmetic on synthetic CSVs; exit status 1 on failure.
Python standard library only.
"""
import argparse
import csv
import datetime
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

import report_matmul  # bench/, beside this file

FIELDS = ["bench", "provider", "M", "N", "block", "num_warps", "ms", "ms_p20", "ms_p80", "gbps"]
BENCHES = ["vector_add", "softmax_naive", "softmax_online", "softmax_fused", "transpose", "copy2d",
           "copy", "launch_overhead", "cold_jit"] + report_matmul.BENCHES
PROVIDERS = ["ktc", "triton", "torch"]
# Rows of ktc.csv that are not a provider of kernels: the CUDA driver's own
# launch cost (ktc-bench, bench/driver_floor.h), the floor under every launcher.
FLOOR = "driver"
ALL_PROVIDERS = PROVIDERS + [FLOOR]
BYTES_PER_ELEMENT = {"vector_add": 12, "copy": 8, "softmax_naive": 8, "softmax_online": 8,
                     "softmax_fused": 8, "transpose": 8, "copy2d": 8}
FIXED_SHAPES = [(8192, 8192), (4096, 256), (4096, 1024), (4096, 4096), (4096, 12800),
                (1823, 781), (64, 2048), (128, 4096)]
SWEEP_M, SWEEP_NS = 4096, [128 * i for i in range(2, 100)]
VECTOR_NS = [1 << 20, 1 << 24, 1 << 28]
TRANSPOSE_SHAPES = [(8192, 8192), (4096, 4096)]
COLD_JIT_SOFTMAX = (4096, 1024)  # cold_jit rows: online softmax here, vector_add where M = 1
# The targets.
FUSED_VS_TRITON, FUSED_VS_COPY, LOOP_VS_TRITON, ADD_VS_TRITON = 1.05, 0.95, 1.0, 1.0
ADD_TARGET_NS = (1 << 24, 1 << 28)
# The 2-D tiled transpose (issue 17): ≥ 1.0× Triton's same tiling on every
# shape, and ≥ 0.9× the copy at 8192×8192.
TRANSPOSE_VS_TRITON, TRANSPOSE_VS_COPY, TRANSPOSE_COPY_SHAPE = 1.0, 0.9, (8192, 8192)
LAUNCH_MAX_US, COLD_JIT_MAX_MS = 3.0, 50.0
DASH = "—"


# --- Input ------------------------------------------------------------------

def number(text):
    """A finite float from a CSV cell, or None for an empty/NaN/inf cell."""
    text = (text or "").strip()
    if not text:
        return None
    value = float(text)
    return value if math.isfinite(value) else None


def read_rows(path, notes):
    """The rows of one CSV as dicts (typed, plus 'raw' for results.csv).
    A missing file, a wrong header or a bad line becomes a note."""
    if not path or not os.path.exists(path):
        notes.append(f"{path or '(no file given)'}: missing, its rows are absent")
        return []
    rows = []
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        absent = [c for c in FIELDS if c not in (reader.fieldnames or [])]
        if absent:
            notes.append(f"{path}: header lacks {', '.join(absent)}; file ignored")
            return []
        for line, raw in enumerate(reader, start=2):
            try:
                row = {k: (raw[k] or "").strip() for k in FIELDS}
                floor = row["provider"] == FLOOR and row["bench"] == "launch_overhead"
                if row["bench"] not in BENCHES or (row["provider"] not in PROVIDERS and not floor):
                    raise ValueError(f"unknown bench/provider {row['bench']}/{row['provider']}")
                typed = dict(row, raw=row, M=int(row["M"]), N=int(row["N"]),
                             block=int(row["block"] or 0), num_warps=int(row["num_warps"] or 0))
                for k in ("ms", "ms_p20", "ms_p80", "gbps"):
                    typed[k] = number(row[k])
                per = BYTES_PER_ELEMENT.get(typed["bench"])
                if typed["gbps"] is None and per and typed["ms"]:
                    typed["gbps"] = per * typed["M"] * typed["N"] / (typed["ms"] * 1e-3) / 1e9
                rows.append(typed)
            except (ValueError, TypeError, KeyError) as e:
                notes.append(f"{path}:{line}: skipped ({e})")
    return rows


class Results:
    """All rows, indexed by (bench, provider, M, N); a later duplicate wins."""

    def __init__(self, rows, notes):
        self.rows = rows
        self.index = {}
        for r in rows:
            key = (r["bench"], r["provider"], r["M"], r["N"])
            if key in self.index:
                notes.append(f"duplicate row {'/'.join(map(str, key))}: the later one is used")
            self.index[key] = r

    def get(self, bench, provider, M, N):
        return self.index.get((bench, provider, M, N))

    def value(self, bench, provider, M, N, field="gbps"):
        row = self.get(bench, provider, M, N)
        return row[field] if row else None

    def copy_gbps(self, M, N):
        """Copy bandwidth at M x N: torch's copy, else ktc's; of the same
        shape, else of as many elements."""
        for same in (lambda r: (r["M"], r["N"]) == (M, N), lambda r: r["M"] * r["N"] == M * N):
            for provider in ("torch", "ktc"):
                for r in self.rows:
                    if r["bench"] == "copy" and r["provider"] == provider and same(r):
                        return r["gbps"]
        return None

    def shapes(self, bench):
        return sorted({(r["M"], r["N"]) for r in self.rows if r["bench"] == bench})


# --- Analysis ---------------------------------------------------------------

def ratio(a, b):
    return a / b if a is not None and b else None


def judge(conditions):
    """conditions: (label, value, limit, op), op one of '>=', '<=', '=='. A
    missing value is a MISS. Returns (status, note)."""
    notes = []
    for label, value, limit, op in conditions:
        if value is None:
            notes.append(f"no {label}")
        elif op == "==" and value != limit:
            notes.append(f"{label}: {value:g} ≠ {limit:g}")
        elif op != "==" and not (value >= limit if op == ">=" else value <= limit):
            notes.append(f"{label} {value:.3f} {'<' if op == '>=' else '>'} {limit:g}")
    return ("MISS" if notes else "PASS"), "; ".join(notes)


def fmt(value, spec):
    return DASH if value is None else format(value, spec)


def shape_name(M, N):
    return f"2^{N.bit_length() - 1}" if M == 1 and N > 0 and N & (N - 1) == 0 else f"{M}×{N}"


def cfg(row):
    return f"{row['block']}/{row['num_warps']}" if row else DASH


class Report:
    """The analysed results: markdown sections, target checks and the sweep."""

    def __init__(self, results):
        self.res = results
        self.sections = []  # (title, text, headers, rows)
        self.checks = {}    # (bench, item) -> (status, note)
        self.ratios = {}    # (bench, item) -> {"triton": r, "torch": r, "copy": r}
        self.notes = []     # problems met in the input
        self.meta = {}      # peer.json (and peer-matmul.json)

    def check(self, bench, item, conditions):
        status, note = judge(conditions)
        self.checks[(bench, item)] = (status, note)
        return status, note

    def bandwidth_table(self, bench, shapes, target_of):
        """One row per shape: GB/s per provider, ktc's ratios, target check.
        target_of(M, N, ktc_row, triton_row, ratios) gives (text, conditions)
        or None where that shape has no target."""
        res = self.res
        rows = []
        for M, N in shapes:
            g = {p: res.value(bench, p, M, N) for p in PROVIDERS}
            r = {"triton": ratio(g["ktc"], g["triton"]), "torch": ratio(g["ktc"], g["torch"]),
                 "copy": ratio(g["ktc"], res.copy_gbps(M, N))}
            item = shape_name(M, N)
            self.ratios[(bench, item)] = r
            k_row, t_row = res.get(bench, "ktc", M, N), res.get(bench, "triton", M, N)
            target = target_of(M, N, k_row, t_row, r)
            text, status, note = "", "", ""
            if target:
                text, conditions = target
                status, note = self.check(bench, item, conditions)
            rows.append([item, cfg(k_row), cfg(t_row)] + [fmt(g[p], ".0f") for p in PROVIDERS]
                        + [fmt(r[k], ".3f") for k in ("triton", "torch", "copy")] + [text, status, note])
        headers = ["shape", "ktc block/warps", "triton block/warps", "ktc GB/s", "triton GB/s",
                   "torch GB/s", "ktc÷triton", "ktc÷torch", "ktc÷copy", "target", "status", "note"]
        return headers, rows

    def analyse(self):
        res = self.res
        sweep = {(SWEEP_M, n) for n in SWEEP_NS}

        def vector_target(M, N, k, t, r):
            if N in ADD_TARGET_NS:
                return f"≥ {ADD_VS_TRITON:.2f}× triton", [("ktc÷triton", r["triton"], ADD_VS_TRITON, ">=")]
        shapes = sorted(set((1, n) for n in VECTOR_NS) | set(res.shapes("vector_add")))
        self.sections.append(("vector_add", "Bytes: 12·N.", *self.bandwidth_table(
            "vector_add", shapes, vector_target)))

        def loop_target(M, N, k, t, r):
            if (M, N) not in FIXED_SHAPES:
                return None
            conditions = [("ktc÷triton", r["triton"], LOOP_VS_TRITON, ">=")]
            if k and t:
                conditions.append(("same BLOCK (ktc, triton)", k["block"], t["block"], "=="))
            return f"≥ {LOOP_VS_TRITON:.2f}× triton, same BLOCK", conditions
        for bench in ("softmax_naive", "softmax_online"):
            shapes = FIXED_SHAPES + [s for s in res.shapes(bench) if s not in FIXED_SHAPES]
            self.sections.append((bench, "One program per row. Bytes: 8·M·N.",
                                  *self.bandwidth_table(bench, shapes, loop_target)))

        def fused_target(M, N, k, t, r):
            if (M, N) not in FIXED_SHAPES:
                return None
            conditions = [("ktc÷triton", r["triton"], FUSED_VS_TRITON, ">=")]
            text = f"≥ {FUSED_VS_TRITON:.2f}× triton"
            if M >= 4096 and N >= 4096:
                conditions.append(("ktc÷copy", r["copy"], FUSED_VS_COPY, ">="))
                text += f", ≥ {FUSED_VS_COPY:.2f}× copy"
            return text, conditions
        shapes = FIXED_SHAPES + [s for s in res.shapes("softmax_fused")
                                 if s not in FIXED_SHAPES and s not in sweep]
        self.sections.append(("softmax_fused", "Persistent fused softmax (Triton: the tutorial's "
                              "occupancy-sized grid); torch is torch.softmax. Bytes: 8·M·N.",
                              *self.bandwidth_table("softmax_fused", shapes, fused_target)))
        self.sections.append(self.sweep_section())
        self.sections += self.transpose_sections()
        shapes = [s for s in res.shapes("copy") if s not in sweep]
        self.sections.append(("copy", "b.copy_(a) of float32 (torch), or a provider's own copy kernel; "
                              "the sweep's copies are in the sweep table. Bytes: 8·M·N.",
                              *self.bandwidth_table("copy", shapes, lambda *_: None)))
        self.sections.append(self.launch_section())
        self.sections.append(self.cold_jit_section())
        self.sections += report_matmul.sections(self, self.meta)

    def transpose_sections(self):
        """transpose: targets against Triton and the copy, ktc's own copy of
        the same tiles beside; copy2d: that copy, no target."""
        res = self.res

        def transpose_target(M, N, k, t, r):
            conditions = [("ktc÷triton", r["triton"], TRANSPOSE_VS_TRITON, ">=")]
            text = f"≥ {TRANSPOSE_VS_TRITON:.2f}× triton"
            if (M, N) == TRANSPOSE_COPY_SHAPE:
                conditions.append(("ktc÷copy", r["copy"], TRANSPOSE_VS_COPY, ">="))
                text += f", ≥ {TRANSPOSE_VS_COPY:.2f}× copy"
            return text, conditions
        shapes = TRANSPOSE_SHAPES + [s for s in res.shapes("transpose") if s not in TRANSPOSE_SHAPES]
        own = [f"{shape_name(M, N)} {fmt(ratio(res.value('transpose', 'ktc', M, N), res.value('copy2d', 'ktc', M, N)), '.3f')}"
               for M, N in shapes]
        transpose = ("transpose", "out = inᵀ, one 64×64 tile a program, stored through the transposed "
                     "pointers (examples/kernels/transpose.h; Triton: the same kernel in Triton, "
                     "bench/peer.py); torch is x.t().contiguous(). Bytes: 8·M·N. ktc's transpose ÷ "
                     f"ktc's copy of the same tiles (copy2d): {', '.join(own)}.",
                     *self.bandwidth_table("transpose", shapes, transpose_target))
        shapes = TRANSPOSE_SHAPES + [s for s in res.shapes("copy2d") if s not in TRANSPOSE_SHAPES]
        copy2d = ("copy2d", "The transpose's tiles stored in place, the transpose's own reference "
                  "(ktc and Triton); torch is absent (its copy is the ktc÷copy column). Bytes: 8·M·N.",
                  *self.bandwidth_table("copy2d", shapes, lambda *_: None))
        return [transpose, copy2d]

    def sweep_points(self):
        """[(N, ktc, triton, torch, copy GB/s)] for the sweep Ns with any data."""
        points = []
        for n in SWEEP_NS:
            g = [self.res.value("softmax_fused", p, SWEEP_M, n) for p in PROVIDERS]
            g.append(self.res.copy_gbps(SWEEP_M, n))
            if any(v is not None for v in g):
                points.append((n, *g))
        return points

    def sweep_section(self):
        points = self.sweep_points()
        rows = [[str(n), *(fmt(v, ".0f") for v in (k, t, o, c)),
                 fmt(ratio(k, t), ".3f"), fmt(ratio(k, c), ".3f")] for n, k, t, o, c in points]
        pairs = [(n, k / t) for n, k, t, _, _ in points if k is not None and t]
        if pairs:
            worst = min(pairs, key=lambda p: p[1])
            text = (f"ktc÷triton over {len(pairs)} sizes: geometric mean "
                    f"{statistics.geometric_mean(r for _, r in pairs):.3f}, lowest {worst[1]:.3f} "
                    f"at N = {worst[0]}, ≥ {FUSED_VS_TRITON:.2f} at "
                    f"{sum(r >= FUSED_VS_TRITON for _, r in pairs)}. Plot: sweep.png.")
        else:
            text = "No size has both ktc and Triton numbers."
        headers = ["N", "ktc GB/s", "triton GB/s", "torch GB/s", "copy GB/s", "ktc÷triton", "ktc÷copy"]
        return (f"softmax_fused sweep, M = {SWEEP_M}", "The tutorial's perf_report range, N = 128·i "
                f"for i in 2..99. No target per size. {text}", headers, rows)

    def timing_section(self, bench, title, what, scale, spec, unit, target, text):
        """Times per provider (ms scaled to unit), one target check on ktc:
        target = (label, value in unit or None, limit)."""
        rows = [self.timing_row(p, what(M, N), self.res.get(bench, p, M, N), scale, spec)
                for p in ALL_PROVIDERS for (M, N) in self.res.shapes(bench) if self.res.get(bench, p, M, N)]
        label, value, limit = target
        status, note = self.check(bench, "ktc", [(label, value, limit, "<=")])
        text += f" Target: {label} ≤ {limit:g} {unit}: **{status}**" + (f" ({note})." if note else ".")
        return title, text, ["provider", "kernel", unit, f"p20–p80 {unit}"], rows

    def launch_section(self):
        ktc = [r["ms"] * 1e3 for r in self.res.rows
               if r["bench"] == "launch_overhead" and r["provider"] == "ktc" and r["ms"] is not None]
        return self.timing_section(
            "launch_overhead", "launch overhead", lambda M, N: f"vector_add, N = {M * N}",
            1e3, ".2f", "µs", ("ktc µs/launch", min(ktc, default=None), LAUNCH_MAX_US),
            "Host wall time per launch of a tiny kernel: many back-to-back launches, one "
            "synchronize at the end." + self.floor_note())

    def floor_note(self):
        """ktc's own share of a launch, where the driver's floor was measured."""
        k = self.res.value("launch_overhead", "ktc", 1, 1, field="ms")
        d = self.res.value("launch_overhead", FLOOR, 1, 1, field="ms")
        if k is None or d is None:
            return ""
        return (f" `{FLOOR}` is the same kernel launched with cuLaunchKernel alone in the same "
                f"process (bench/driver_floor.h), the floor under any launcher on this host: "
                f"ktc adds {(k - d) * 1e3:.2f} µs to it.")

    def cold_jit_section(self):
        ms = self.res.value("cold_jit", "ktc", *COLD_JIT_SOFTMAX, field="ms")
        return self.timing_section(
            "cold_jit", "cold JIT",
            lambda M, N: f"vector_add, N = {N}" if M == 1 else f"online softmax {M}×{N}",
            1.0, ".1f", "ms", (f"ktc online softmax {shape_name(*COLD_JIT_SOFTMAX)}", ms, COLD_JIT_MAX_MS),
            "Wall time from a kernel never compiled in the process (empty caches) to its first "
            "launch completing.")

    @staticmethod
    def timing_row(provider, what, row, scale, spec):
        lo, hi = row["ms_p20"], row["ms_p80"]
        spread = f"{lo * scale:{spec}}–{hi * scale:{spec}}" if lo is not None and hi is not None else DASH
        value = row["ms"] * scale if row["ms"] is not None else None
        return [provider, what, fmt(value, spec), spread]


# --- Output -----------------------------------------------------------------

def md_table(headers, rows):
    """A markdown table; numeric columns aligned right."""
    numeric = lambda h: h == "N" or any(u in h for u in ("GB/s", "TFLOP/s", "÷", "µs", "ms"))
    lines = ["| " + " | ".join(headers) + " |",
             "|" + "|".join(" ---: " if numeric(h) else " --- " for h in headers) + "|"]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def markdown(report, meta, date, sources, notes):
    res = report.res
    checks = report.checks.items()
    misses = [(k, v) for k, v in checks if v[0] == "MISS"]
    ceiling = res.value("copy", "torch", 1, 1 << 28)
    out = [f"# ktc vs Triton and torch on {meta.get('gpu', 'an unnamed GPU')}", "",
           f"Measured {date}; torch {meta.get('torch', '?')}, Triton {meta.get('triton', '?')}, "
           f"CUDA {meta.get('cuda', '?')}, {meta.get('sms', '?')} SMs. Generated by `bench/report.py` "
           f"from {', '.join(sources)}.", "",
           "GB/s = bytes / median time (CUDA events, L2 flushed before each call); ktc÷copy divides by "
           "the bandwidth of torch's copy of the same shape (b.copy_(a), float32, 8 bytes an element). "
           "Copy ceiling (torch, 2^28 floats): "
           f"{fmt(ceiling, '.0f')} GB/s.", "",
           f"**Targets: {len(checks) - len(misses)} PASS, {len(misses)} MISS.**", ""]
    out += [f"- MISS {bench} {item}: {note}" for (bench, item), (_, note) in misses]
    for title, text, headers, rows in report.sections:
        out += ["", f"## {title}", "", text, "", md_table(headers, rows) if rows else "_No rows._"]
    if notes:
        out += ["", "## Input notes", ""] + [f"- {n}" for n in notes]
    return "\n".join(out) + "\n"


def write_results_csv(path, rows):
    order = lambda r: (BENCHES.index(r["bench"]), r["M"], r["N"], ALL_PROVIDERS.index(r["provider"]))
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(FIELDS)
        for r in sorted(rows, key=order):
            w.writerow([r["raw"][k] for k in FIELDS])


def write_sweep(out_dir, points, title, plot):
    """sweep.dat and sweep.gp; runs gnuplot for sweep.png when asked and present."""
    with open(os.path.join(out_dir, "sweep.dat"), "w") as f:
        f.write("# N ktc triton torch copy (GB/s; '-' = not measured)\n")
        for n, *values in points:
            f.write(" ".join([str(n)] + [fmt(v, ".1f") if v is not None else "-" for v in values]) + "\n")
    title = title.replace('"', "'")
    with open(os.path.join(out_dir, "sweep.gp"), "w") as f:
        f.write(f"""# Written by bench/report.py: softmax GB/s against N (M = {SWEEP_M}).
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {{
  set terminal pngcairo size 1100,650 noenhanced
}} else {{
  set terminal png size 1100,650 noenhanced
}}
set output "sweep.png"
set title "{title}" noenhanced
set xlabel "N (columns), M = {SWEEP_M} rows" noenhanced
set ylabel "GB/s (8*M*N bytes / median time)" noenhanced
set key bottom right noenhanced
set grid
set datafile missing "-"
plot "sweep.dat" using 1:2 with linespoints pt 7 ps 0.6 lw 2 title "ktc fused", \\
     "" using 1:3 with linespoints pt 5 ps 0.6 lw 2 title "Triton fused (tutorial)", \\
     "" using 1:4 with linespoints pt 9 ps 0.6 lw 2 title "torch.softmax", \\
     "" using 1:5 with lines dt 2 lw 1 lc "gray40" title "torch copy, same bytes"
""")
    if not plot:
        return
    if not points:
        print("report: no sweep data, sweep.png not drawn")
    elif shutil.which("gnuplot"):
        subprocess.run(["gnuplot", "sweep.gp"], cwd=out_dir, check=False)
    else:
        print("report: gnuplot not on PATH; sweep.gp and sweep.dat written, sweep.png not drawn")


def median_of_runs(rows, notes):
    """Rows of several runs of the same benchmarks (bench/device-run.sh
    --runs=K) -> one row per (bench, provider, M, N): the run whose median
    time is the median of the runs' (the lower one of an even count), so
    that its quantiles stay its own. A note says how many keys had several."""
    groups = {}
    for r in rows:
        groups.setdefault((r["bench"], r["provider"], r["M"], r["N"]), []).append(r)
    out, repeated = [], {}
    for key, group in groups.items():
        timed = sorted((r for r in group if r["ms"] is not None), key=lambda r: r["ms"])
        pick = timed[(len(timed) - 1) // 2] if timed else group[-1]
        out.append(pick)
        if len(group) > 1:
            repeated[len(group)] = repeated.get(len(group), 0) + 1
    for runs, count in sorted(repeated.items()):
        notes.append(f"{count} rows were measured in {runs} runs: each shows the run with "
                     f"the median time")
    return out


def build(ktc_csv, peer_csv, meta_json, out_dir, date=None, plot=True):
    """The whole report; returns the analysed Report. ktc_csv and peer_csv
    may name several runs' files, comma-separated (median_of_runs)."""
    notes = []
    rows = []
    for paths in (ktc_csv, peer_csv):
        for path in (paths or "").split(",") if paths else [paths]:
            rows += read_rows(path, notes)
    rows = median_of_runs(rows, notes)
    meta = {}
    for path in (meta_json or "").split(",") if meta_json else [meta_json]:
        try:
            with open(path) as f:
                meta.update(json.load(f))
        except (OSError, ValueError, TypeError) as e:
            notes.append(f"{path}: unreadable ({e}); GPU and versions unknown")
    date = date or meta.get("date") or datetime.date.today().isoformat()
    report = Report(Results(rows, notes))
    report.meta = meta
    report.analyse()
    os.makedirs(out_dir, exist_ok=True)
    write_results_csv(os.path.join(out_dir, "results.csv"), rows)
    sources = [os.path.relpath(p, out_dir) for group in (ktc_csv, peer_csv, meta_json) if group
               for p in group.split(",")]
    with open(os.path.join(out_dir, "ratios.md"), "w") as f:
        f.write(markdown(report, meta, date, sources, notes))
    write_sweep(out_dir, report.sweep_points(),
                f"Softmax, M = {SWEEP_M}: GB/s vs N - {meta.get('gpu', 'GPU ?')}, {date}", plot)
    report.notes = notes
    return report


# --- Self-test --------------------------------------------------------------

def synth(bench, provider, M, N, value, block=0, warps=0, gbps=True):
    """A CSV line; value is GB/s for bandwidth benches (ms derived), else ms."""
    if bench in BYTES_PER_ELEMENT:
        ms = BYTES_PER_ELEMENT[bench] * M * N / (value * 1e9) * 1e3
        cells = [f"{ms:.9g}", f"{ms * 0.99:.9g}", f"{ms * 1.01:.9g}", f"{value:g}" if gbps else ""]
    else:
        cells = [f"{value:g}", f"{value * 0.9:g}", f"{value * 1.1:g}", ""]
    return ",".join(map(str, [bench, provider, M, N, block, warps] + cells))


def self_test():
    S, T = "softmax_fused", "triton"
    ktc = [synth(S, "ktc", 8192, 8192, 4000, 8192, 8), synth(S, "ktc", 4096, 4096, 3600, 4096, 8),
           synth(S, "ktc", 4096, 12800, 3900, 16384, 8, gbps=False),  # GB/s from ms
           synth(S, "ktc", 64, 2048, 220, 2048, 8), synth(S, "ktc", 4096, 256, 1100, 256, 4),
           synth(S, "ktc", 4096, 1024, 330, 1024, 8),
           synth("softmax_naive", "ktc", 8192, 8192, 1660, 256, 4),
           synth("softmax_online", "ktc", 8192, 8192, 2100, 512, 4),  # BLOCK differs from Triton's
           synth("vector_add", "ktc", 1, 1 << 24, 3800, 1024, 4),
           synth("vector_add", "ktc", 1, 1 << 28, 4300, 1024, 4),
           synth("launch_overhead", "ktc", 1, 1, 0.0025, 1024, 4),
           synth("launch_overhead", "driver", 1, 1, 0.0021, 1024, 4),
           synth("cold_jit", "ktc", 4096, 1024, 40, 256, 4),
           synth("transpose", "ktc", 8192, 8192, 3900, 64, 4),
           synth("transpose", "ktc", 4096, 4096, 3000, 64, 4),
           synth("copy2d", "ktc", 8192, 8192, 4100, 64, 4),
           "softmax_fused,ktc,not-a-number,5,0,0,1,1,1,1"]  # a bad line, skipped
    peer = [synth("copy", "torch", 1, 1 << 28, 4250), synth("copy", "torch", 8192, 8192, 4200),
            synth("copy", "torch", 4096, 4096, 4000), synth("copy", "torch", 4096, 12800, 4200),
            synth("copy", "torch", 4096, 256, 1300), synth("copy", "torch", 1, 1 << 20, 900),
            synth(S, T, 8192, 8192, 3700, 8192, 8), synth(S, T, 4096, 4096, 3400, 4096, 8),
            synth(S, T, 4096, 12800, 3700, 16384, 8), synth(S, T, 64, 2048, 200, 2048, 8),
            synth(S, T, 1823, 781, 1338, 1024, 8), synth(S, T, 4096, 256, 1000, 256, 8),
            synth(S, T, 4096, 1280, 1150, 2048, 8), synth(S, "torch", 4096, 256, 1200),
            synth(S, T, 4096, 1024, 320, 1024, 8),
            synth(S, "torch", 8192, 8192, 2000),
            synth("softmax_naive", T, 8192, 8192, 1650, 256, 4),
            synth("softmax_online", T, 8192, 8192, 2030, 256, 4),
            synth("vector_add", T, 1, 1 << 24, 3797, 1024, 4),
            synth("vector_add", T, 1, 1 << 28, 4344, 1024, 4),
            synth("vector_add", "torch", 1, 1 << 20, 1500),
            synth("launch_overhead", T, 1, 1, 0.011, 1024, 4),
            synth("cold_jit", T, 4096, 1024, 210, 256, 4),
            synth("transpose", T, 8192, 8192, 3800, 64, 4), synth("transpose", T, 4096, 4096, 3300, 64, 4),
            synth("transpose", "torch", 8192, 8192, 2000), synth("copy2d", T, 8192, 8192, 4000, 64, 4)]
    failures = []

    def expect(what, got, want):
        ok = abs(got - want) < 1e-9 if isinstance(want, float) and got is not None else got == want
        if not ok:
            failures.append(f"{what}: got {got!r}, want {want!r}")

    with tempfile.TemporaryDirectory() as tmp:
        for name, lines in (("ktc.csv", ktc), ("peer.csv", peer)):
            with open(os.path.join(tmp, name), "w") as f:
                f.write(",".join(FIELDS) + "\n" + "\n".join(lines) + "\n")
        with open(os.path.join(tmp, "peer.json"), "w") as f:
            json.dump({"gpu": "Test GPU", "date": "2000-01-02", "torch": "t", "triton": "x"}, f)
        out = os.path.join(tmp, "out")
        rep = build(os.path.join(tmp, "ktc.csv"), os.path.join(tmp, "peer.csv"),
                    os.path.join(tmp, "peer.json"), out, plot=False)
        status = lambda bench, item: rep.checks.get((bench, item), ("absent",))[0]
        expect("fused 8192 ÷triton", rep.ratios[("softmax_fused", "8192×8192")]["triton"], 4000 / 3700)
        expect("fused 8192 ÷copy", rep.ratios[("softmax_fused", "8192×8192")]["copy"], 4000 / 4200)
        expect("fused 4096x256 ÷copy (same shape, not 1x2^20)",
               rep.ratios[("softmax_fused", "4096×256")]["copy"], 1100 / 1300)
        expect("fused 8192 ÷torch", rep.ratios[("softmax_fused", "8192×8192")]["torch"], 4000 / 2000)
        expect("fused 8192", status("softmax_fused", "8192×8192"), "PASS")
        expect("fused 4096² (triton 1.059 ok, copy 0.900)", rep.checks[("softmax_fused", "4096×4096")],
               ("MISS", "ktc÷copy 0.900 < 0.95"))
        ratio_12800 = rep.ratios[("softmax_fused", "4096×12800")]["copy"]  # gbps derived from ms
        expect("fused 12800 ÷copy from ms", round(ratio_12800, 6), round(3900 / 4200, 6))
        expect("fused 12800 (copy 0.929)", status("softmax_fused", "4096×12800"), "MISS")
        expect("fused 4096x1024 (1.031 < 1.05)", rep.checks[("softmax_fused", "4096×1024")],
               ("MISS", "ktc÷triton 1.031 < 1.05"))
        expect("fused 64x2048 (no copy target)", status("softmax_fused", "64×2048"), "PASS")
        expect("fused 1823x781 (no ktc)", status("softmax_fused", "1823×781"), "MISS")
        expect("fused 128x4096 (no data)", status("softmax_fused", "128×4096"), "MISS")
        expect("naive 8192", status("softmax_naive", "8192×8192"), "PASS")
        expect("online 8192 (BLOCK differs)", status("softmax_online", "8192×8192"), "MISS")
        expect("add 2^24", status("vector_add", "2^24"), "PASS")
        expect("add 2^28 (0.990)", status("vector_add", "2^28"), "MISS")
        expect("add 2^20 has no target", status("vector_add", "2^20"), "absent")
        expect("add 2^28 ÷copy", rep.ratios[("vector_add", "2^28")]["copy"], 4300 / 4250)
        expect("transpose 8192 ÷triton", rep.ratios[("transpose", "8192×8192")]["triton"], 3900 / 3800)
        expect("transpose 8192 ÷copy (torch's copy)", rep.ratios[("transpose", "8192×8192")]["copy"],
               3900 / 4200)
        expect("transpose 8192 (triton 1.026, copy 0.929)", status("transpose", "8192×8192"), "PASS")
        expect("transpose 4096² (triton 0.909, no copy target)", rep.checks[("transpose", "4096×4096")],
               ("MISS", "ktc÷triton 0.909 < 1"))
        expect("copy2d has no target", status("copy2d", "8192×8192"), "absent")
        expect("launch", status("launch_overhead", "ktc"), "PASS")
        expect("cold jit", status("cold_jit", "ktc"), "PASS")
        expect("sweep", rep.sweep_points()[:3], [(256, 1100.0, 1000.0, 1200.0, 1300.0),
                                                 (1024, 330.0, 320.0, None, None),
                                                 (1280, None, 1150.0, None, None)])
        md = open(os.path.join(out, "ratios.md")).read()
        for text in ("# ktc vs Triton and torch on Test GPU", "Measured 2000-01-02",
                     "| 8192×8192 | 8192/8 | 8192/8 | 4000 | 3700 | 2000 | 1.081 | 2.000 | 0.952 |",
                     "| 1823×781 | — | 1024/8 | — | 1338 | — | — | — | — |", "no ktc÷triton",
                     "same BLOCK (ktc, triton): 512 ≠ 256", "| ktc | vector_add, N = 1 | 2.50 | 2.25–2.75 |",
                     "| driver | vector_add, N = 1 | 2.10 | 1.89–2.31 |", "ktc adds 0.40 µs to it.",
                     "| triton | online softmax 4096×1024 | 210.0 | 189.0–231.0 |",
                     "| 8192×8192 | 64/4 | 64/4 | 3900 | 3800 | 2000 | 1.026 | 1.950 | 0.929 |",
                     "copy of the same tiles (copy2d): 8192×8192 0.951, 4096×4096 —.",
                     "| 8192×8192 | 64/4 | 64/4 | 4100 | 4000 | — | 1.025 | — | 0.976 |",
                     "Targets: 8 PASS, 22 MISS.", "not-a-number"):
            if text not in md:
                failures.append(f"ratios.md lacks {text!r}")
        dat = open(os.path.join(out, "sweep.dat")).read().splitlines()
        expect("sweep.dat", dat[1:4], ["256 1100.0 1000.0 1200.0 1300.0", "1024 330.0 320.0 - -",
                                       "1280 - 1150.0 - -"])
        with open(os.path.join(out, "results.csv")) as f:
            expect("results.csv rows", len(f.read().splitlines()), 1 + len(ktc) - 1 + len(peer))
        expect("sweep.gp written", os.path.exists(os.path.join(out, "sweep.gp")), True)
        # Three runs of ktc's side: each row is the run with the median time.
        for name, value in (("ktc2.csv", 3000), ("ktc3.csv", 4500)):
            with open(os.path.join(tmp, name), "w") as f:
                f.write(",".join(FIELDS) + "\n" + synth(S, "ktc", 8192, 8192, value, 8192, 8) + "\n")
        runs = build(",".join(os.path.join(tmp, n) for n in ("ktc.csv", "ktc2.csv", "ktc3.csv")),
                     os.path.join(tmp, "peer.csv"), os.path.join(tmp, "peer.json"),
                     os.path.join(tmp, "runs"), plot=False)
        expect("median of 3 runs", runs.ratios[("softmax_fused", "8192×8192")]["triton"], 4000 / 3700)
        expect("runs noted", any("measured in 3 runs" in n for n in runs.notes), True)
        # Nothing but a missing file: every target a MISS, no exception.
        empty = build(os.path.join(tmp, "none.csv"), None, os.path.join(tmp, "none.json"),
                      os.path.join(tmp, "empty"), plot=False)
        expect("empty: no PASS", sum(s == "PASS" for s, _ in empty.checks.values()), 0)
    failures += report_matmul.self_test(build, FIELDS)
    for f in failures:
        print(f"self-test FAILED: {f}", file=sys.stderr)
    print(f"report.py self-test: {'FAILED' if failures else 'passed'}")
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ktc", help="ktc's CSV (from the C++ benchmark); several runs' "
                    "comma-separated: each row is the run with the median time")
    ap.add_argument("--peer", help="Triton's and torch's CSV (from bench/peer.py); "
                    "several runs' comma-separated, as --ktc")
    ap.add_argument("--meta", help="peer.json from bench/peer.py")
    ap.add_argument("--out", help="output directory, e.g. docs/bench/h200")
    ap.add_argument("--date", help="date of the measurement (default: peer.json's, else today)")
    ap.add_argument("--no-plot", action="store_true", help="write sweep.gp but do not run gnuplot")
    ap.add_argument("--self-test", action="store_true", help="check the report on synthetic data")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    if not args.out:
        ap.error("--out is required (or --self-test)")
    report = build(args.ktc, args.peer, args.meta, args.out, args.date, plot=not args.no_plot)
    for note in report.notes:
        print(f"report: {note}", file=sys.stderr)
    misses = sum(s == "MISS" for s, _ in report.checks.values())
    print(f"report: {len(report.checks) - misses} PASS, {misses} MISS -> {args.out}/ratios.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
