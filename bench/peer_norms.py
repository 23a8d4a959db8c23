#!/usr/bin/env python3
"""ktc's layer norm and cross-entropy beside Triton's and torch's, same run.

Runs on the GPU machine, after the build (build/bin/layernorm and
build/bin/cross_entropy):

    PYTHONUNBUFFERED=1 python3 bench/peer_norms.py --out DIR [--bin build/bin]
        [--only layernorm|cross_entropy] [--ns 512,1024,4096,8192] [--m 4096]

Layer norm, forward, f16, M x N (default M = 4096, N = 512, 1024, 4096,
8192): ktc's examples/layernorm with its default tile (--bench) and with
--autotune (BLOCK_M and num_warps tuned per N), and Triton's
05-layer-norm tutorial kernel (_layer_norm_fwd_fused, launched as the
tutorial launches it: BLOCK_SIZE = next_pow2(N), num_warps =
min(max(BLOCK_SIZE // 256, 1), 8), one program per row), and
torch.nn.functional.layer_norm. GB/s is the tutorial's: x read and y
written, 2 * M * N * 2 bytes over the median time.

Cross-entropy, per-row loss, M x N logits (f32 and f16, default M = 4096,
N = 1000, 4096, 32000, 50257): ktc's examples/cross_entropy (--bench) and
torch.nn.functional.cross_entropy(reduction="none"); GB/s counts the
logits read, the targets read and the losses written.

Times: ktc's from its own --bench line (ktc::bench::do_bench, Triton's
protocol: L2 flushed before each call, the median), the others from
triton.testing.do_bench; each provider's result is checked first (ktc's by
the example itself, which prints PASS; Triton's and torch's against a
float64 reference). Writes DIR/peer-norms.csv (bench,provider,M,N,config,ms,
gbps) and prints a table with ktc / Triton ratios.
"""
import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile
import traceback

os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="triton-cache-"))

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

BENCH_LINE = re.compile(r"bench: ([0-9.]+) ms median .*?, ([0-9.]+) GB/s")
CONFIG_LINE = re.compile(r"BLOCK_M (\d+), BLOCK_N (\d+), ([a-z ]+), (\d+) warps")


# --- Triton's tutorial kernel (python/tutorials/05-layer-norm.py) ----------

@triton.jit
def _layer_norm_fwd_fused(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


def triton_layernorm(x, w, b, y, mean, rstd, eps):
    M, N = x.shape
    max_fused = 65536 // x.element_size()
    block = min(max_fused, triton.next_power_of_2(N))
    warps = min(max(block // 256, 1), 8)
    _layer_norm_fwd_fused[(M,)](x, y, w, b, mean, rstd, x.stride(0), N, eps,
                                BLOCK_SIZE=block, num_warps=warps)
    return block, warps


# --- ktc's side: the example binaries --------------------------------------

def run_ktc(binary, args):
    """Runs an example with --device=cuda --bench; returns (ms, GB/s, the
    config line) or raises with its output."""
    cmd = [binary, "--device=cuda", "--bench"] + args
    env = dict(os.environ, KTC_AUTOTUNE_LOG="1")  # each config's time, for the log
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
    out = p.stdout + p.stderr
    m = BENCH_LINE.search(out)
    if p.returncode != 0 or "\nPASS " not in "\n" + out or not m:
        raise RuntimeError(f"{' '.join(cmd)} failed (rc {p.returncode}):\n{out}")
    if "--autotune" in args:
        print(out, flush=True)
    c = CONFIG_LINE.search(out)
    config = f"BLOCK_M={c.group(1)} BLOCK_N={c.group(2)} warps={c.group(4)}" if c else ""
    return float(m.group(1)), float(m.group(2)), config


class Table:
    def __init__(self, out_dir):
        os.makedirs(out_dir, exist_ok=True)
        self.file = open(os.path.join(out_dir, "peer-norms.csv"), "w", newline="")
        self.csv = csv.writer(self.file, lineterminator="\n")
        self.csv.writerow(["bench", "provider", "M", "N", "config", "ms", "gbps"])
        self.rows = []

    def add(self, bench, provider, M, N, config, ms, gbps):
        self.csv.writerow([bench, provider, M, N, config, f"{ms:.6g}", f"{gbps:.6g}"])
        self.file.flush()
        self.rows.append((bench, provider, M, N, config, ms, gbps))
        print(f"{bench:22} {provider:12} {M:>5}x{N:<6} ms={ms:.4f} GB/s={gbps:7.1f} {config}",
              flush=True)

    def ratios(self, bench, base):
        print(f"\n{bench}: GB/s, and ratio to {base}")
        shapes = sorted({(r[2], r[3]) for r in self.rows if r[0] == bench})
        for M, N in shapes:
            got = {r[1]: r[6] for r in self.rows if r[0] == bench and (r[2], r[3]) == (M, N)}
            ref = got.get(base)
            cells = [f"{p}={g:.0f}" + (f" ({g / ref:.2f}x)" if ref and p != base else "")
                     for p, g in got.items()]
            print(f"  {M}x{N}: " + ", ".join(cells))


def timed(fn):
    ms = triton.testing.do_bench(fn, warmup=25, rep=100, quantiles=[0.5, 0.2, 0.8])
    return ms[0]


def layernorm_benches(table, binary, M, ns, eps=1e-5):
    for N in ns:
        torch.manual_seed(N)
        x = (torch.rand(M, N, device="cuda") * 8 - 4).half()
        w = torch.rand(N, device="cuda").half()
        b = torch.rand(N, device="cuda").half()
        nbytes = 2 * M * N * x.element_size()
        ref = torch.nn.functional.layer_norm(x.double(), (N,), w.double(), b.double(), eps)
        for provider, extra in (("ktc", []), ("ktc-autotune", ["--autotune"])):
            try:
                ms, gbps, config = run_ktc(binary, [f"--m={M}", f"--n={N}"] + extra)
                table.add("layernorm_fwd_f16", provider, M, N, config, ms, gbps)
            except Exception:
                traceback.print_exc()
        try:
            y = torch.full_like(x, float("nan"))
            mean = torch.empty(M, device="cuda", dtype=torch.float32)
            rstd = torch.empty(M, device="cuda", dtype=torch.float32)
            block, warps = triton_layernorm(x, w, b, y, mean, rstd, eps)
            torch.cuda.synchronize()
            err = (y.double() - ref).abs().max().item()
            if not err <= 1e-2:
                raise RuntimeError(f"Triton's layer norm off by {err}")
            ms = timed(lambda: triton_layernorm(x, w, b, y, mean, rstd, eps))
            table.add("layernorm_fwd_f16", "triton", M, N, f"BLOCK_SIZE={block} warps={warps}",
                      ms, nbytes / ms * 1e-6)
            ms = timed(lambda: torch.nn.functional.layer_norm(x, (N,), w, b, eps))
            table.add("layernorm_fwd_f16", "torch", M, N, "", ms, nbytes / ms * 1e-6)
        except Exception:
            traceback.print_exc()
        del x, w, b, ref
        torch.cuda.empty_cache()
    table.ratios("layernorm_fwd_f16", "triton")


def cross_entropy_benches(table, binary, M, ns):
    for dtype, name in ((torch.float32, "f32"), (torch.float16, "f16")):
        bench = f"cross_entropy_{name}"
        for N in ns:
            torch.manual_seed(N)
            x = (torch.randn(M, N, device="cuda") * 4).to(dtype)
            t = torch.randint(0, N, (M,), device="cuda", dtype=torch.int32)
            nbytes = M * N * x.element_size() + 4 * M + 4 * M
            try:
                ms, gbps, config = run_ktc(binary, [f"--m={M}", f"--n={N}", f"--dtype={name}"])
                table.add(bench, "ktc", M, N, config, ms, gbps)
            except Exception:
                traceback.print_exc()
            try:
                tl_ = t.long()
                ref = torch.nn.functional.cross_entropy(x.double(), tl_, reduction="none")
                got = torch.nn.functional.cross_entropy(x, tl_, reduction="none")
                err = (got.double() - ref).abs().max().item()
                if not err <= 1e-2:
                    raise RuntimeError(f"torch's cross_entropy off by {err}")
                ms = timed(lambda: torch.nn.functional.cross_entropy(x, tl_, reduction="none"))
                table.add(bench, "torch", M, N, "", ms, nbytes / ms * 1e-6)
            except Exception:
                traceback.print_exc()
            del x, t
            torch.cuda.empty_cache()
        table.ratios(bench, "torch")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--only", choices=["layernorm", "cross_entropy"])
    ap.add_argument("--m", type=int, default=4096)
    ap.add_argument("--ns", help="comma-separated N (default per bench)")
    args = ap.parse_args()
    ns = [int(n) for n in args.ns.split(",")] if args.ns else None
    table = Table(args.out)
    print(f"GPU: {torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"triton {triton.__version__}", flush=True)
    if args.only in (None, "layernorm"):
        layernorm_benches(table, os.path.join(args.bin, "layernorm"), args.m,
                          ns or [512, 1024, 4096, 8192])
    if args.only in (None, "cross_entropy"):
        binary = os.path.join(args.bin, "cross_entropy")
        if os.path.exists(binary):
            cross_entropy_benches(table, binary, args.m, ns or [1000, 4096, 32000, 50257])
        else:
            print(f"no {binary}: cross-entropy skipped", file=sys.stderr)


if __name__ == "__main__":
    main()
