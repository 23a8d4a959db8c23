"""The matmul tables of bench/report.py: TFLOP/s per provider and ktc's ratios.

Rows come from ktc-bench --matmul (ktc-matmul.csv) and bench/peer.py
--matmul (peer-matmul.csv): bench matmul_f16 / matmul_bf16, M and N (K is
the shape's: SHAPES, the list bench/peer_matmul.py and bench/matmul_rows.h
time), and TFLOP/s in the rate column (named gbps for the other rows; where
it is empty, TFLOP/s comes from the median time and 2·M·N·K). Provider
torch is torch.matmul, cuBLAS. No targets: the tables give ktc÷Triton and
ktc÷cuBLAS per shape. Python standard library only.
"""
import json
import os
import tempfile

BENCHES = ["matmul_f16", "matmul_bf16"]
SHAPES = [(1024, 1024, 1024), (4096, 4096, 4096), (8192, 8192, 8192), (1000, 1000, 1000),
          (3001, 517, 2049)]
K_OF = {(M, N): K for M, N, K in SHAPES}
DASH = "—"


def tflops(row):
    """TFLOP/s of a matmul row: its rate column, else from its time and K."""
    if row is None:
        return None
    if row["gbps"] is not None:
        return row["gbps"]
    K = K_OF.get((row["M"], row["N"]))
    return 2.0 * row["M"] * row["N"] * K / (row["ms"] * 1e-3) / 1e12 if K and row["ms"] else None


def shape_name(M, N):
    return f"{M}×{N}×{K_OF.get((M, N), '?')}"


def sections(report, meta):
    """One table per dtype with rows (none when no matmul rows were read)."""
    res = report.res
    configs = meta.get("matmul_configs", {})
    out = []
    for bench in BENCHES:
        shapes = [(M, N) for M, N, _ in SHAPES]
        shapes += [s for s in res.shapes(bench) if s not in shapes]
        if not res.shapes(bench):
            continue
        rows = []
        for M, N in shapes:
            t = {p: tflops(res.get(bench, p, M, N)) for p in ("ktc", "triton", "torch")}
            r = {"triton": ratio(t["ktc"], t["triton"]), "torch": ratio(t["ktc"], t["torch"])}
            report.ratios[(bench, shape_name(M, N))] = r
            k_row = res.get(bench, "ktc", M, N)
            key = f"{bench} {M}x{N}x{K_OF.get((M, N), '?')}"
            rows.append([shape_name(M, N),
                         f"{k_row['block']}/{k_row['num_warps']}" if k_row else DASH,
                         configs.get(key, DASH)]
                        + [fmt(t[p], ".4g") for p in ("ktc", "triton", "torch")]
                        + [fmt(r["triton"], ".3f"), fmt(r["torch"], ".3f"),
                           fmt(ratio(t["triton"], t["torch"]), ".3f")])
        dtype = bench.split("_")[1]
        text = (f"c = a @ b, {dtype} operands and result, f32 accumulation; TFLOP/s = 2·M·N·K / "
                "median time. ktc: examples/kernels/matmul.h autotuned over the same CUDA "
                "configurations (the block_m/warps of the config it chose; bench/matmul_rows.h); "
                "Triton: its tutorial matmul autotuned over the tutorial's CUDA "
                "configurations (the config it chose: BLOCK_M×BLOCK_N×BLOCK_K, GROUP_M, warps, "
                "stages); cuBLAS: torch.matmul. Each result was checked against float64 first.")
        reduced = meta.get("matmul_torch_reduced_precision_off", [])
        if any(name.startswith(bench + " ") for name in reduced):
            text += (" cuBLAS was measured with torch's reduced-precision reductions off at "
                     + ", ".join(n.split(" ")[1] for n in reduced if n.startswith(bench + " "))
                     + " (with them on, its result was outside the f32 bound).")
        headers = ["shape (M×N×K)", "ktc block/warps", "triton config", "ktc TFLOP/s",
                   "triton TFLOP/s", "cuBLAS TFLOP/s", "ktc÷triton", "ktc÷cuBLAS", "triton÷cuBLAS"]
        out.append((bench, text, headers, rows))
    return out


def ratio(a, b):
    return a / b if a is not None and b else None


def fmt(value, spec):
    return DASH if value is None else format(value, spec)


def self_test(build, fields):
    """report.py --self-test's matmul part: synthetic CSVs through build().
    Returns the failures."""
    failures = []

    def expect(what, got, want):
        if (abs(got - want) > 1e-9 if isinstance(want, float) and got is not None else got != want):
            failures.append(f"matmul {what}: got {got!r}, want {want!r}")

    def row(bench, provider, M, N, tf, block=0, warps=0, rate=True):
        K = K_OF[(M, N)]
        ms = 2.0 * M * N * K / (tf * 1e12) * 1e3
        return ",".join(map(str, [bench, provider, M, N, block, warps, f"{ms:.9g}", f"{ms * 0.99:.9g}",
                                  f"{ms * 1.01:.9g}", f"{tf:g}" if rate else ""]))
    F, B = "matmul_f16", "matmul_bf16"
    ktc = [row(F, "ktc", 4096, 4096, 600, 128, 4), row(F, "ktc", 3001, 517, 200, 128, 4, rate=False),
           row(B, "ktc", 8192, 8192, 500, 128, 4)]
    peer = [row(F, "triton", 4096, 4096, 650, 128, 8), row(F, "torch", 4096, 4096, 700),
            row(F, "triton", 3001, 517, 250, 64, 4), row(F, "torch", 3001, 517, 400),
            row(B, "torch", 8192, 8192, 625)]
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for name, lines in (("ktc-matmul.csv", ktc), ("peer-matmul.csv", peer)):
            paths[name] = os.path.join(tmp, name)
            with open(paths[name], "w") as f:
                f.write(",".join(fields) + "\n" + "\n".join(lines) + "\n")
        metas = [os.path.join(tmp, "peer.json"), os.path.join(tmp, "peer-matmul.json")]
        json.dump({"gpu": "Test GPU", "date": "2000-01-02"}, open(metas[0], "w"))
        json.dump({"matmul_configs": {"matmul_f16 4096x4096x4096": "128x256x64 g8 w8 s3"},
                   "matmul_torch_reduced_precision_off": ["matmul_bf16 8192x8192x8192"]},
                  open(metas[1], "w"))
        out = os.path.join(tmp, "out")
        rep = build(paths["ktc-matmul.csv"], paths["peer-matmul.csv"], ",".join(metas), out, plot=False)
        r = rep.ratios
        expect("f16 4096 ÷triton", round(r[(F, "4096×4096×4096")]["triton"], 9), round(600 / 650, 9))
        expect("f16 4096 ÷cuBLAS", round(r[(F, "4096×4096×4096")]["torch"], 9), round(600 / 700, 9))
        expect("f16 3001 ÷triton (ktc from ms)", round(r[(F, "3001×517×2049")]["triton"], 6),
               round(200 / 250, 6))
        expect("f16 1000 absent", r[(F, "1000×1000×1000")], {"triton": None, "torch": None})
        expect("bf16 8192 ÷cuBLAS", round(r[(B, "8192×8192×8192")]["torch"], 9), round(500 / 625, 9))
        expect("no matmul targets", [k for k in rep.checks if k[0] in BENCHES], [])
        md = open(os.path.join(out, "ratios.md")).read()
        for text in ("## matmul_f16", "## matmul_bf16",
                     "| 4096×4096×4096 | 128/4 | 128x256x64 g8 w8 s3 | 600 | 650 | 700 | 0.923 | 0.857 | 0.929 |",
                     "| 3001×517×2049 | 128/4 | — | 200 | 250 | 400 | 0.800 | 0.500 | 0.625 |",
                     "| 1000×1000×1000 | — | — | — | — | — | — | — | — |",
                     "reductions off at 8192x8192x8192", "Measured 2000-01-02", "Test GPU"):
            if text not in md:
                failures.append(f"matmul: ratios.md lacks {text!r}")
        if "## softmax_fused\n" in md and "## matmul_f16" not in md:
            failures.append("matmul: tables missing")
    return failures
