#!/usr/bin/env python3
"""Triton's low-memory dropout tutorial beside ktc's examples/dropout.

Runs on the GPU machine (CUDA), after ktc is built there:

    PYTHONUNBUFFERED=1 python3 bench/peer_dropout.py --out DIR \
        [--ktc build/bin/dropout] [--quick]

For each size n (p = 0.5, seed 123, BLOCK_SIZE 1024, 4 warps, as the
tutorial), it
  1. runs Triton's _seeded_dropout (tutorial 04) on poisoned (NaN) outputs
     and checks every element against this file's own Philox in torch int64
     arithmetic (Triton 3.6's random.py written out: the mask bit for bit,
     x / (1 - p) within 1 ulp of float64), so Triton's masks are shown to
     be the ones ktc's test/unit/RandomTest.cpp and examples/dropout check
     against their C++ Philox;
  2. times it with triton.testing.do_bench (L2 flushed, median, p20, p80);
  3. runs `dropout --device=cuda --size=n --bench` (ktc's kernel, checked
     exactly by the program against the same Philox before it is timed with
     ktc::bench::do_bench, Triton's protocol) and parses its
     "bench: X ms median (p20 Y, p80 Z), G GB/s" line.
Writes DIR/peer-dropout.csv (bench,provider,M,N,block,num_warps,ms,ms_p20,
ms_p80,gbps; bytes moved = 8 n: x read, out written) and
DIR/peer-dropout.json (GPU, versions, date, failures), and prints the
ktc / Triton time ratio per size. A failed check skips that row and is
recorded; the CSV is flushed after every row.

Estimated time on an H200: 4 sizes x (1 Triton compile ~1 s, 2 do_bench
~0.15 s each, the torch Philox check ~0.1-2 s, ktc's process ~2-5 s with
its JIT and host-side check of up to 2^28 elements ~20 s): under 1.5 min;
--quick (2 sizes) ~15 s.
"""
import argparse
import csv
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile

os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="triton-cache-"))

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

FIELDS = ["bench", "provider", "M", "N", "block", "num_warps", "ms", "ms_p20", "ms_p80", "gbps"]
SIZES = [98432, 1 << 20, 1 << 24, 1 << 28]
QUICK_SIZES = [98432, 1 << 24]
P, SEED, BLOCK, WARPS = 0.5, 123, 1024, 4
QUANTILES = [0.5, 0.2, 0.8]


@triton.jit
def _seeded_dropout(x_ptr, output_ptr, n_elements, p, seed, BLOCK_SIZE: tl.constexpr):
    # Triton's tutorial 04, unchanged.
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    random = tl.rand(seed, offsets)
    x_keep = random > p
    output = tl.where(x_keep, x / (1 - p), 0.0)
    tl.store(output_ptr + offsets, output, mask=mask)


def seeded_dropout(x, output, p, seed):
    n = x.numel()
    grid = (triton.cdiv(n, BLOCK),)
    _seeded_dropout[grid](x, output, n, p, seed, BLOCK_SIZE=BLOCK, num_warps=WARPS)


M32 = 0xFFFFFFFF


def philox_first(seed, offsets):
    """Philox 4x32-10's first word per offset (int64 tensor of uint32 values)."""
    key = seed & ((1 << 64) - 1)
    k0, k1 = key & M32, key >> 32
    c0 = offsets.to(torch.int64) & M32
    c1 = torch.zeros_like(c0)
    c2 = torch.zeros_like(c0)
    c3 = torch.zeros_like(c0)
    for _ in range(10):
        # 32 x 32 -> 64-bit products in int64: split A*c into 16-bit halves so
        # nothing overflows a signed 64-bit integer.
        def mulhilo(a, c):
            lo16, hi16 = c & 0xFFFF, c >> 16
            p_lo = a * lo16                 # < 2^48
            p_hi = a * hi16                 # < 2^48
            low = (p_lo + ((p_hi & 0xFFFF) << 16))
            hi = (p_hi >> 16) + (low >> 32)
            return hi & M32, low & M32
        hi0, lo0 = mulhilo(0xD2511F53, c0)
        hi2, lo2 = mulhilo(0xCD9E8D57, c2)
        c0, c1, c2, c3 = hi2 ^ c1 ^ k0, lo2, hi0 ^ c3 ^ k1, lo0
        k0, k1 = (k0 + 0x9E3779B9) & M32, (k1 + 0xBB67AE85) & M32
    return c0


def uniform(bits):
    """Triton's uint_to_uniform_float in f32 (each step rounded as Triton does)."""
    x = torch.where(bits >= 1 << 31, bits - (1 << 32), bits)  # as int32
    x = torch.where(x < 0, -x - 1, x)
    return x.to(torch.float32) * torch.tensor(4.6566127342e-10, dtype=torch.float32, device=bits.device)


def check(x, out, n, p, seed):
    """Every element: the mask bit for bit, the kept values in float64."""
    offs = torch.arange(n, device=x.device, dtype=torch.int64)
    keep = uniform(philox_first(seed, offs)) > p
    scale = torch.tensor(1.0, dtype=torch.float32) - torch.tensor(p, dtype=torch.float32)
    want = torch.where(keep, (x.double() / scale.double()).float(), torch.zeros_like(x))
    # The mask exactly (x is never exactly 0 here); the kept values within
    # 1 ulp (Triton's f32 division may not be the correctly rounded one).
    bad = ((out != 0) != keep).sum().item()
    bad += ((out.double() - want.double()).abs() > 2.0 ** -23 * want.double().abs()).sum().item()
    return bad, keep.sum().item()


def run_ktc(binary, n):
    cmd = [binary, "--device=cuda", f"--size={n}", f"--p={P}", f"--dropout-seed={SEED}",
           f"--block={BLOCK}", f"--warps={WARPS}", "--bench"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    text = proc.stdout + proc.stderr
    m = re.search(r"bench: ([0-9.]+) ms median \(p20 ([0-9.]+), p80 ([0-9.]+)\)", text)
    if proc.returncode != 0 or not m or "\nPASS " not in "\n" + text:
        raise RuntimeError(f"ktc dropout failed (rc {proc.returncode}): {text[-2000:]}")
    return float(m.group(1)), float(m.group(2)), float(m.group(3))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--ktc", default="build/bin/dropout")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    meta = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
            "triton": triton.__version__, "date": datetime.datetime.now().isoformat(),
            "p": P, "seed": SEED, "block": BLOCK, "num_warps": WARPS, "failures": {}}
    rows = open(os.path.join(args.out, "peer-dropout.csv"), "w", newline="")
    w = csv.writer(rows)
    w.writerow(FIELDS)

    def write(provider, n, ms, p20, p80):
        gbps = 8.0 * n / (ms * 1e-3) / 1e9
        w.writerow(["dropout", provider, 1, n, BLOCK, WARPS, f"{ms:.6f}", f"{p20:.6f}", f"{p80:.6f}",
                    f"{gbps:.2f}"])
        rows.flush()
        print(f"dropout/{provider:6s} n={n:>10d} ms={ms:.4f} GB/s={gbps:7.1f}", flush=True)

    for n in (QUICK_SIZES if args.quick else SIZES):
        times = {}
        try:
            torch.manual_seed(n)
            x = torch.randn(n, device="cuda", dtype=torch.float32)
            out = torch.full((n + 3,), float("nan"), device="cuda", dtype=torch.float32)
            seeded_dropout(x, out[:n], P, SEED)
            torch.cuda.synchronize()
            bad, kept = check(x, out[:n], n, P, SEED)
            tail_ok = torch.isnan(out[n:]).all().item()
            if bad or not tail_ok:
                raise RuntimeError(f"{bad} elements differ from the Philox reference, tail ok {tail_ok}")
            meta.setdefault("triton_kept", {})[str(n)] = kept
            ms, p20, p80 = triton.testing.do_bench(lambda: seeded_dropout(x, out[:n], P, SEED),
                                                   quantiles=QUANTILES)
            write("triton", n, ms, p20, p80)
            times["triton"] = ms
        except Exception as e:  # noqa: BLE001
            meta["failures"][f"triton {n}"] = repr(e)
            print(f"FAIL triton n={n}: {e!r}", file=sys.stderr, flush=True)
        try:
            ms, p20, p80 = run_ktc(args.ktc, n)
            write("ktc", n, ms, p20, p80)
            times["ktc"] = ms
        except Exception as e:  # noqa: BLE001
            meta["failures"][f"ktc {n}"] = repr(e)
            print(f"FAIL ktc n={n}: {e!r}", file=sys.stderr, flush=True)
        if len(times) == 2:
            ratio = times["triton"] / times["ktc"]
            meta.setdefault("ktc_speed_vs_triton", {})[str(n)] = ratio
            print(f"dropout n={n}: ktc is {ratio:.3f}x Triton's speed", flush=True)
    rows.close()
    with open(os.path.join(args.out, "peer-dropout.json"), "w") as f:
        json.dump(meta, f, indent=1)
    return 1 if meta["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
