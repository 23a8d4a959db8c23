#!/usr/bin/env python3
"""Triton's and torch's numbers for the seed kernels, on the shapes ktc runs.

Runs on the GPU machine, after ktc's own benchmark, in the same device run:

    PYTHONUNBUFFERED=1 python3 bench/peer.py --out DIR [--quick]

Writes DIR/peer.csv (columns bench,provider,M,N,block,num_warps,ms,ms_p20,
ms_p80,gbps: the format ktc's C++ benchmark writes too) and DIR/peer.json
(GPU, versions, SM count, date, the fused kernel's launch configurations,
errors). bench/report.py turns both CSVs into docs/bench/<gpu>/.

The Triton kernels are the seeds' own (AMD's Triton workshop, Triton's
fused-softmax tutorial), the algorithms of examples/kernels/seeds.h, and the
2-D tiled transpose and tile copy of examples/kernels/transpose.h written the
same way (torch's side: x.t().contiguous() and the copy). Times come from
triton.testing.do_bench (CUDA events, L2 flushed before each call, median
with the 20th and 80th percentiles); every result is first checked once
against a float64 reference on poisoned (NaN-filled) outputs. A failed check
or an exception skips that row, prints why on stderr and goes on; the CSV is
flushed after every row, so a timeout leaves what was measured.

Run time on an H200 at the defaults, estimated: each do_bench is about
0.13 s (25 ms warm-up + 100 ms of timed calls, each call behind a 256 MB L2
flush, so the GPU, not the host, sets the pace); 55 of them before the sweep
(6 of them the transposes) and 285 in it (95 shapes x copy, fused, torch) is
~46 s, plus ~22 Triton compilations (~17 s), imports and CUDA start (~10 s),
references and checks (~5 s), launch overhead (~1 s) and cold JIT (~2 s):
about 85 s, 2 minutes at worst, inside the 4 minutes allowed, so the sweep
keeps the default rep.
--quick (3 sweep shapes) takes ~40 s.

--matmul runs only Triton's tutorial matmul (autotuned over the tutorial's
CUDA configurations) and torch.matmul (cuBLAS), f16 and bf16, at 1024,
4096 and 8192 cubed, 1000 cubed and 3001 x 517 x 2049 (bench/peer_matmul.py),
into DIR/peer-matmul.csv and DIR/peer-matmul.json; their rate column holds
TFLOP/s. Estimated: 16 configurations x 3 specialisations x 2 dtypes = 96
Triton compilations (~1-2 s each), 160 autotuning runs (~0.15 s each) and
20 timed rows: 3 to 5 minutes.
"""
import argparse
import csv
import datetime
import json
import os
import sys
import tempfile
import time
import traceback

# A fresh compile cache for this process, so nothing stale is reused.
os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="triton-cache-"))

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.runtime import driver  # noqa: E402

FIELDS = ["bench", "provider", "M", "N", "block", "num_warps", "ms", "ms_p20", "ms_p80", "gbps"]
FIXED_SHAPES = [(8192, 8192), (4096, 256), (4096, 1024), (4096, 4096), (4096, 12800),
                (1823, 781), (64, 2048), (128, 4096)]
SWEEP_M = 4096
VECTOR_NS = [1 << 20, 1 << 24, 1 << 28]
ADD_BLOCK, ADD_WARPS = 1024, 4          # the workshop's vector-add
LOOP_BLOCK, LOOP_WARPS = 256, 4         # the workshop's naive/online softmax (Triton's default warps)
FUSED_WARPS = 8                         # the tutorial's choice
TRANSPOSE_SHAPES = [(8192, 8192), (4096, 4096)]
TRANSPOSE_BLOCK, TRANSPOSE_WARPS = 64, 4  # 64 x 64 tiles, as examples/kernels/transpose.h
QUANTILES = [0.5, 0.2, 0.8]             # median, p20, p80
TOL_ADD, TOL_SOFTMAX = 1e-6, 1e-4       # max elementwise relative error vs float64


# --- The seeds' kernels -----------------------------------------------------

@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


@triton.jit
def softmax_kernel_naive(in_ptr, output_ptr, row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    in_max = -float('inf')
    for offset in range(0, n_cols, BLOCK_SIZE):
        col_range = tl.arange(0, BLOCK_SIZE)
        col_mask = col_range + offset < n_cols
        in_data = tl.load(in_ptr + pid * row_stride + col_range + offset, mask=col_mask, other=-float('inf'))
        in_max = tl.maximum(in_max, tl.max(in_data, axis=-1))
    in_exp_sum = 0.0
    for offset in range(0, n_cols, BLOCK_SIZE):
        col_range = tl.arange(0, BLOCK_SIZE)
        col_mask = col_range + offset < n_cols
        in_data = tl.load(in_ptr + pid * row_stride + col_range + offset, mask=col_mask, other=-float('inf'))
        in_exp_sum = in_exp_sum + tl.sum(tl.exp(in_data - in_max), axis=-1)
    for offset in range(0, n_cols, BLOCK_SIZE):
        col_range = tl.arange(0, BLOCK_SIZE)
        col_mask = col_range + offset < n_cols
        in_data = tl.load(in_ptr + pid * row_stride + col_range + offset, mask=col_mask)
        in_exp = tl.exp(in_data - in_max)
        tl.store(output_ptr + pid * row_stride + col_range + offset, in_exp / in_exp_sum, mask=col_mask)


@triton.jit
def softmax_kernel_online(in_ptr, output_ptr, row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    in_max = -float('inf')
    in_exp_sum = 0.0
    for offset in range(0, n_cols, BLOCK_SIZE):
        col_range = tl.arange(0, BLOCK_SIZE)
        col_mask = col_range + offset < n_cols
        in_data = tl.load(in_ptr + pid * row_stride + col_range + offset, mask=col_mask, other=-float('inf'))
        in_max_new = tl.maximum(in_max, tl.max(in_data, axis=-1))
        in_exp_sum = in_exp_sum * tl.exp(in_max - in_max_new) + tl.sum(tl.exp(in_data - in_max_new), axis=-1)
        in_max = in_max_new
    for offset in range(0, n_cols, BLOCK_SIZE):
        col_range = tl.arange(0, BLOCK_SIZE)
        col_mask = col_range + offset < n_cols
        in_data = tl.load(in_ptr + pid * row_stride + col_range + offset, mask=col_mask)
        in_exp = tl.exp(in_data - in_max)
        tl.store(output_ptr + pid * row_stride + col_range + offset, in_exp / in_exp_sum, mask=col_mask)


@triton.jit
def softmax_kernel_fused(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                         BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        input_ptrs = row_start_ptr + col_offsets
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        output_ptrs = output_row_start_ptr + col_offsets
        tl.store(output_ptrs, softmax_output, mask=mask)


# The 2-D tiled transpose of examples/kernels/transpose.h, in Triton: a tile
# loaded along its rows, stored through the transposed pointers (Triton's
# compiler moves it between the two layouts), and the copy of the same tiles.
@triton.jit
def transpose_kernel(out_ptr, in_ptr, M, N, in_stride, out_stride,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tile = tl.load(in_ptr + offs_m[:, None] * in_stride + offs_n[None, :], mask=mask)
    tl.store(out_ptr + offs_n[None, :] * out_stride + offs_m[:, None], tile, mask=mask)


@triton.jit
def copy2d_kernel(out_ptr, in_ptr, M, N, in_stride, out_stride,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tile = tl.load(in_ptr + offs_m[:, None] * in_stride + offs_n[None, :], mask=mask)
    tl.store(out_ptr + offs_m[:, None] * out_stride + offs_n[None, :], tile, mask=mask)


# --- Launchers --------------------------------------------------------------

def launch_add(x, y, out):
    n = out.numel()
    add_kernel[(triton.cdiv(n, ADD_BLOCK),)](x, y, out, n, BLOCK_SIZE=ADD_BLOCK, num_warps=ADD_WARPS)


def launch_rowwise(kernel, x, y):
    """naive/online: one program per row, as the workshop launches them."""
    kernel[(x.shape[0],)](x, y, x.stride(0), x.shape[1], BLOCK_SIZE=LOOP_BLOCK, num_warps=LOOP_WARPS)


def launch_tiles(kernel, x, y):
    """transpose/copy2d: one program per 64 x 64 tile of x (M x N); y is
    N x M (transpose) or M x N (copy2d)."""
    M, N = x.shape
    grid = (triton.cdiv(M, TRANSPOSE_BLOCK), triton.cdiv(N, TRANSPOSE_BLOCK))
    kernel[grid](y, x, M, N, x.stride(0), y.stride(0), BLOCK_M=TRANSPOSE_BLOCK,
                 BLOCK_N=TRANSPOSE_BLOCK, num_warps=TRANSPOSE_WARPS)


def prepare_fused(props, x, y):
    """The tutorial's launch for NVIDIA: compile first (warmup), read the
    registers and shared memory of the compiled kernel, size the persistent
    grid by occupancy. Returns the launch closure and its configuration."""
    n_rows, n_cols = x.shape
    block = triton.next_power_of_2(n_cols)
    num_stages = 4 if props["max_shared_mem"] > 200000 else 2
    # warmup() compiles for these exact arguments' specialisation (e.g. n_cols
    # divisible by 16), so each shape gets the kernel it may legally run.
    kernel = softmax_kernel_fused.warmup(y, x, x.stride(0), y.stride(0), n_rows, n_cols, BLOCK_SIZE=block,
                                         num_stages=num_stages, num_warps=FUSED_WARPS, grid=(1,))
    kernel._init_handles()
    n_regs, n_spills, shared = kernel.n_regs, kernel.n_spills, kernel.metadata.shared
    occupancy = props["max_num_regs"] // (max(n_regs, 1) * props["warpSize"] * FUSED_WARPS)
    if shared > 0:
        occupancy = min(occupancy, props["max_shared_mem"] // shared)
    occupancy = max(occupancy, 1)
    num_programs = min(props["multiprocessor_count"] * occupancy, n_rows)
    launch = kernel[(num_programs, 1, 1)]
    config = dict(block=block, num_warps=FUSED_WARPS, num_stages=num_stages, n_regs=n_regs,
                  n_spills=n_spills, shared=shared, occupancy=occupancy, num_programs=num_programs)

    def run():
        launch(y, x, x.stride(0), y.stride(0), n_rows, n_cols, block, num_stages)
    return run, config


# --- Measurement ------------------------------------------------------------

class Peer:
    """The CSV, the JSON metadata and the measuring helpers."""

    def __init__(self, out_dir, rep, stem="peer"):
        os.makedirs(out_dir, exist_ok=True)
        self.rep = rep
        self.json_path = os.path.join(out_dir, stem + ".json")
        self.csv_file = open(os.path.join(out_dir, stem + ".csv"), "w", newline="")
        self.csv = csv.writer(self.csv_file, lineterminator="\n")
        self.csv.writerow(FIELDS)
        self.csv_file.flush()
        self.rows = 0
        self.meta = {}

    def save_meta(self):
        with open(self.json_path, "w") as f:
            json.dump(self.meta, f, indent=1, sort_keys=True, default=str)

    def fail(self, what, message):
        print(f"FAILED {what}: {message}", file=sys.stderr, flush=True)
        self.meta.setdefault("failed", []).append(f"{what}: {message}")

    def write(self, bench, provider, M, N, block, warps, ms, p20=None, p80=None, nbytes=None,
              rate=None):
        """One row; the last column is GB/s from nbytes, or `rate` (TFLOP/s
        for the matmul rows)."""
        gbps = nbytes / (ms * 1e-3) / 1e9 if nbytes else rate
        cell = lambda v: "" if v is None else f"{v:.6g}"
        self.csv.writerow([bench, provider, M, N, block, warps, cell(ms), cell(p20), cell(p80), cell(gbps)])
        self.csv_file.flush()
        self.rows += 1
        return gbps

    def measure(self, bench, provider, M, N, block, warps, nbytes, fn, ref, tol, out=None):
        """Check fn once against ref (on `out`, poisoned first, or on fn's
        return value), then time it and write the row."""
        what = f"{bench}/{provider} {M}x{N}"
        try:
            if out is not None:
                out.fill_(float("nan"))
            got = fn()
            torch.cuda.synchronize()
            err = max_rel_err(out if out is not None else got, ref)
            self.meta.setdefault("max_rel_err", {})[what] = err
            if not err <= tol:  # also false for NaN
                self.fail(what, f"max rel err {err:.3e} > {tol:.0e}")
                return
            ms, p20, p80 = triton.testing.do_bench(fn, warmup=25, rep=self.rep, quantiles=QUANTILES)
            gbps = self.write(bench, provider, M, N, block, warps, ms, p20, p80, nbytes)
            print(f"{bench:15} {provider:6} {M:>5}x{N:<9} block={block:<6} warps={warps} "
                  f"ms={ms:.4f} GB/s={gbps:7.1f} err={err:.1e}", flush=True)
        except Exception:
            traceback.print_exc()
            self.fail(what, "exception (traceback above)")


def max_rel_err(got, ref):
    """max |got - ref| / |ref| over all elements, in float64."""
    got, ref = got.double(), ref.double()
    return ((got - ref).abs() / ref.abs().clamp_min(1e-30)).max().item()


def vector_benches(peer):
    for n in VECTOR_NS:
        torch.manual_seed(n)
        x = torch.randn(n, device="cuda")
        y = torch.randn(n, device="cuda")
        out = torch.empty_like(x)
        # copy at N elements: the bandwidth ceiling (N = 2^28) and the ktc/copy ratios
        peer.measure("copy", "torch", 1, n, 0, 0, 8 * n, lambda: out.copy_(x), x, 0.0, out=out)
        ref = x.double() + y.double()
        peer.measure("vector_add", "triton", 1, n, ADD_BLOCK, ADD_WARPS, 12 * n,
                     lambda: launch_add(x, y, out), ref, TOL_ADD, out=out)
        peer.measure("vector_add", "torch", 1, n, 0, 0, 12 * n,
                     lambda: torch.add(x, y, out=out), ref, TOL_ADD, out=out)
        del x, y, out, ref
        torch.cuda.empty_cache()


def softmax_benches(peer, props, shapes, with_loops):
    """Per shape: copy (torch), fused (Triton) and torch.softmax; naive and
    online too where with_loops."""
    for M, N in shapes:
        torch.manual_seed(M * 100003 + N)
        x = torch.randn(M, N, device="cuda")
        y = torch.empty_like(x)
        ref = torch.softmax(x.double(), dim=-1)
        nbytes = 8 * M * N
        peer.measure("copy", "torch", M, N, 0, 0, nbytes, lambda: y.copy_(x), x, 0.0, out=y)
        if with_loops:
            for bench, kernel in (("softmax_naive", softmax_kernel_naive),
                                  ("softmax_online", softmax_kernel_online)):
                peer.measure(bench, "triton", M, N, LOOP_BLOCK, LOOP_WARPS, nbytes,
                             lambda k=kernel: launch_rowwise(k, x, y), ref, TOL_SOFTMAX, out=y)
        try:
            run, config = prepare_fused(props, x, y)
            peer.meta.setdefault("fused", {})[f"{M}x{N}"] = config
            peer.measure("softmax_fused", "triton", M, N, config["block"], FUSED_WARPS, nbytes,
                         run, ref, TOL_SOFTMAX, out=y)
        except Exception:
            traceback.print_exc()
            peer.fail(f"softmax_fused/triton {M}x{N}", "compile/launch setup (traceback above)")
        # torch has one softmax; it is the torch line of the fused table
        peer.measure("softmax_fused", "torch", M, N, 0, 0, nbytes,
                     lambda: torch.softmax(x, dim=-1), ref, TOL_SOFTMAX)
        del x, y, ref
        torch.cuda.empty_cache()
        peer.save_meta()


def transpose_benches(peer, shapes):
    """Per shape: the tiled transpose and copy2d (Triton), torch's
    x.t().contiguous(), and torch's copy where the softmax shapes have not
    measured it. Checked exactly (a transpose moves floats). Bytes: 8·M·N."""
    for M, N in shapes:
        torch.manual_seed(M * 7919 + N)
        x = torch.randn(M, N, device="cuda")
        xt = x.t().contiguous()
        yt = torch.empty(N, M, device="cuda")
        y = torch.empty_like(x)
        nbytes = 8 * M * N
        block, warps = TRANSPOSE_BLOCK, TRANSPOSE_WARPS
        if (M, N) not in FIXED_SHAPES:
            peer.measure("copy", "torch", M, N, 0, 0, nbytes, lambda: y.copy_(x), x, 0.0, out=y)
        peer.measure("transpose", "triton", M, N, block, warps, nbytes,
                     lambda: launch_tiles(transpose_kernel, x, yt), xt, 0.0, out=yt)
        peer.measure("transpose", "torch", M, N, 0, 0, nbytes, lambda: x.t().contiguous(), xt, 0.0)
        peer.measure("copy2d", "triton", M, N, block, warps, nbytes,
                     lambda: launch_tiles(copy2d_kernel, x, y), x, 0.0, out=y)
        del x, xt, y, yt
        torch.cuda.empty_cache()
        peer.save_meta()


def launch_overhead(peer, count=10000, trials=5):
    """Host wall time per launch of a 1-element add, `count` back-to-back
    launches then one synchronize; median (p20, p80) of `trials` trials."""
    torch.manual_seed(1)
    x, y = torch.randn(1, device="cuda"), torch.randn(1, device="cuda")
    out = torch.empty_like(x)
    cases = (("triton", ADD_BLOCK, ADD_WARPS,
              lambda: add_kernel[(1,)](x, y, out, 1, BLOCK_SIZE=ADD_BLOCK, num_warps=ADD_WARPS)),
             ("torch", 0, 0, lambda: torch.add(x, y, out=out)))
    for provider, block, warps, launch in cases:
        what = f"launch_overhead/{provider}"
        try:
            out.fill_(float("nan"))
            for _ in range(100):  # compile (N = 1 is its own specialisation) and warm up
                launch()
            torch.cuda.synchronize()
            err = max_rel_err(out, x.double() + y.double())
            if not err <= TOL_ADD:
                peer.fail(what, f"max rel err {err:.3e}")
                continue
            per_launch = []
            for _ in range(trials):
                t0 = time.perf_counter()
                for _ in range(count):
                    launch()
                torch.cuda.synchronize()
                per_launch.append((time.perf_counter() - t0) / count * 1e3)
            ms, p20, p80 = torch.quantile(torch.tensor(per_launch, dtype=torch.float64),
                                          torch.tensor(QUANTILES, dtype=torch.float64)).tolist()
            peer.write("launch_overhead", provider, 1, 1, block, warps, ms, p20, p80)
            print(f"launch_overhead {provider:6} {ms * 1e3:.2f} us/launch "
                  f"({trials} x {count} launches)", flush=True)
        except Exception:
            traceback.print_exc()
            peer.fail(what, "exception (traceback above)")
    peer.meta["launch_overhead"] = dict(count=count, trials=trials)


def cold_jit(peer, trials=3):
    """Wall time from an uncompiled kernel to its first launch completing: a
    freshly created JIT function (empty in-memory cache) and a fresh, empty
    TRITON_CACHE_DIR each trial, in this already-warm process (CUDA context,
    Triton and torch loaded), so it times what Triton does for a new kernel:
    front end, LLVM, ptxas, any launcher it builds, loading and the launch."""
    cases = (  # bench rows: online softmax on 4096 x 1024, add on 1024 elements
        ("softmax_online", 4096, 1024, LOOP_BLOCK, LOOP_WARPS, softmax_kernel_online),
        ("add", 1, 1024, ADD_BLOCK, ADD_WARPS, add_kernel),
    )
    saved_dir = os.environ["TRITON_CACHE_DIR"]
    for name, M, N, block, warps, jit_fn in cases:
        what = f"cold_jit/triton {name} {M}x{N}"
        try:
            torch.manual_seed(2)
            x = torch.randn(M, N, device="cuda")
            y = torch.randn(M, N, device="cuda")
            out = torch.empty_like(x)
            if name == "add":
                ref = x.double() + y.double()
                grid, kernel_args = (1,), (x, y, out, M * N)
            else:
                ref = torch.softmax(x.double(), dim=-1)
                grid, kernel_args = (M,), (x, out, x.stride(0), N)
            times = []
            for _ in range(trials):
                os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="triton-cold-")
                fresh = triton.jit(jit_fn.fn)  # same source, nothing compiled yet
                out.fill_(float("nan"))
                torch.cuda.synchronize()
                t0 = time.perf_counter()
                fresh[grid](*kernel_args, BLOCK_SIZE=block, num_warps=warps)
                torch.cuda.synchronize()
                times.append((time.perf_counter() - t0) * 1e3)
                err = max_rel_err(out, ref)
                if not err <= (TOL_ADD if name == "add" else TOL_SOFTMAX):
                    raise RuntimeError(f"max rel err {err:.3e}")
            ms, p20, p80 = torch.quantile(torch.tensor(times, dtype=torch.float64),
                                          torch.tensor(QUANTILES, dtype=torch.float64)).tolist()
            peer.write("cold_jit", "triton", M, N, block, warps, ms, p20, p80)
            print(f"cold_jit        triton {name} {M}x{N}: {ms:.1f} ms (trials {times})", flush=True)
        except Exception:
            traceback.print_exc()
            peer.fail(what, "exception (traceback above)")
        finally:
            os.environ["TRITON_CACHE_DIR"] = saved_dir
    peer.meta["cold_jit"] = dict(trials=trials, note="fresh triton.jit function and empty TRITON_CACHE_DIR "
                                 "per trial, in a warm process")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="directory for peer.csv and peer.json")
    ap.add_argument("--quick", action="store_true", help="sweep N = 128 * (2, 10, 40, 99) only")
    ap.add_argument("--rep", type=int, default=100, help="do_bench rep (ms of timed calls)")
    ap.add_argument("--matmul", action="store_true",
                    help="only the matmuls (Triton's tutorial, torch.matmul), into peer-matmul.csv/.json")
    ap.add_argument("--transpose", action="store_true",
                    help="only the transposes and tile copies (Triton, torch), into peer.csv/.json")
    args = ap.parse_args()
    start = time.perf_counter()

    device = torch.cuda.current_device()
    props = driver.active.utils.get_device_properties(device)
    peer = Peer(args.out, args.rep, "peer-matmul" if args.matmul else "peer")
    now = datetime.datetime.now(datetime.timezone.utc)
    peer.meta.update(
        gpu=torch.cuda.get_device_name(device), sms=props["multiprocessor_count"],
        torch=torch.__version__, triton=triton.__version__, cuda=torch.version.cuda,
        date=now.date().isoformat(), time_utc=now.isoformat(timespec="seconds"),
        device_properties={k: props[k] for k in ("max_shared_mem", "max_num_regs", "warpSize")},
        quick=args.quick, do_bench=dict(warmup_ms=25, rep_ms=args.rep, quantiles=QUANTILES),
        configs=dict(add=[ADD_BLOCK, ADD_WARPS], naive_online=[LOOP_BLOCK, LOOP_WARPS],
                     fused_warps=FUSED_WARPS, transpose=[TRANSPOSE_BLOCK, TRANSPOSE_BLOCK,
                                                         TRANSPOSE_WARPS]))
    peer.save_meta()
    print(f"{peer.meta['gpu']}, {peer.meta['sms']} SMs, torch {torch.__version__}, "
          f"triton {triton.__version__}", flush=True)

    if args.matmul:
        import peer_matmul  # bench/, beside this file
        peer.meta["configs"] = dict(matmul=[peer_matmul.describe(c) for c in peer_matmul.CUDA_CONFIGS])
        peer_matmul.matmul_benches(peer, QUANTILES)
        return finish(peer, start)

    if args.transpose:
        transpose_benches(peer, TRANSPOSE_SHAPES)
        return finish(peer, start)

    sweep_is = (2, 10, 40, 99) if args.quick else range(2, 100)
    sweep = [(SWEEP_M, 128 * i) for i in sweep_is if (SWEEP_M, 128 * i) not in FIXED_SHAPES]
    # Most wanted first: a timeout then costs only the tail of the sweep.
    vector_benches(peer)
    softmax_benches(peer, props, FIXED_SHAPES, with_loops=True)
    transpose_benches(peer, TRANSPOSE_SHAPES)
    launch_overhead(peer)
    cold_jit(peer)
    softmax_benches(peer, props, sweep, with_loops=False)
    return finish(peer, start)


def finish(peer, start):
    peer.meta["elapsed_s"] = round(time.perf_counter() - start, 1)
    peer.meta["rows"] = peer.rows
    peer.save_meta()
    failed = peer.meta.get("failed", [])
    print(f"peer.py: {peer.rows} rows, {len(failed)} failed (see stderr), "
          f"{peer.meta['elapsed_s']} s", flush=True)
    peer.csv_file.close()
    return 0 if peer.rows else 1  # failed rows are reported, not fatal


if __name__ == "__main__":
    sys.exit(main())
