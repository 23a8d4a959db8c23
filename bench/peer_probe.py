#!/usr/bin/env python3
"""Triton's side of two questions docs/bench/README.md answers, on the GPU
machine (device tool), next to bench/peer.py whose seed kernels it imports:

  python3 bench/peer_probe.py hints   # vector-add with cache/eviction hints
  python3 bench/peer_probe.py warps   # naive/online softmax at 1, 2, 4 waves
  python3 bench/peer_probe.py fused M N   # one fused launch (for ncu)
  python3 bench/peer_probe.py naive M N   # one naive launch (for ncu)

hints: Triton's vector-add (BLOCK 1024, 4 warps) on 2^24 and 2^28 floats,
with no hint, evict-first or .cg/.cv loads, .cs or evict-first stores, four
rounds in alternation (GB/s of triton.testing.do_bench's median, L2 flushed).
warps: the seeds' naive and online softmax (BLOCK 256) on the benchmark
shapes at 1, 2 and 4 waves, two rounds. Every configuration is checked
against torch before it is timed. Output: text on stdout
(docs/bench/h200/triton-probe.txt).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer  # noqa: E402  (sets a fresh TRITON_CACHE_DIR)
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.runtime import driver  # noqa: E402
from triton.testing import do_bench  # noqa: E402


@triton.jit
def add_hinted(x_ptr, y_ptr, o_ptr, n, BLOCK: tl.constexpr, LEV: tl.constexpr, LCM: tl.constexpr,
               SCM: tl.constexpr, SEV: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, eviction_policy=LEV, cache_modifier=LCM)
    y = tl.load(y_ptr + offs, mask=m, eviction_policy=LEV, cache_modifier=LCM)
    tl.store(o_ptr + offs, x + y, mask=m, cache_modifier=SCM, eviction_policy=SEV)


HINTS = {"plain": ("", "", "", ""), "ld_evict_first": ("evict_first", "", "", ""),
         "st_cs": ("", "", ".cs", ""), "ld_ef+st_cs": ("evict_first", "", ".cs", ""),
         "ld_cg": ("", ".cg", "", ""), "st_evict_first": ("", "", "", "evict_first"),
         "ld_cv": ("", ".cv", "", "")}


def hints():
    for n in (1 << 24, 1 << 28):
        x = torch.rand(n, device="cuda")
        y = torch.rand(n, device="cuda")
        o = torch.empty_like(x)
        res = {k: [] for k in HINTS}
        for _ in range(4):
            for k, (lev, lcm, scm, sev) in HINTS.items():
                def f():
                    add_hinted[(triton.cdiv(n, 1024),)](x, y, o, n, BLOCK=1024, LEV=lev, LCM=lcm,
                                                        SCM=scm, SEV=sev, num_warps=4)
                o.fill_(float("nan"))
                f()
                torch.cuda.synchronize()
                assert torch.equal(o, x + y), k
                res[k].append(do_bench(f, return_mode="median"))
        for k, v in res.items():
            print(f"add n=2^{n.bit_length() - 1} {k:16s} " +
                  " ".join(f"{12 * n / t / 1e6:7.1f}" for t in v) + " GB/s", flush=True)


def warps():
    for (M, N) in peer.FIXED_SHAPES:
        a = torch.randn(M, N, device="cuda")
        o = torch.empty_like(a)
        for name, kern in (("naive", peer.softmax_kernel_naive), ("online", peer.softmax_kernel_online)):
            line = []
            for _ in range(2):
                for w in (1, 2, 4):
                    def f():
                        kern[(M,)](a, o, a.stride(0), N, BLOCK_SIZE=256, num_warps=w)
                    o.fill_(float("nan"))
                    f()
                    torch.cuda.synchronize()
                    assert torch.allclose(o, torch.softmax(a, 1), rtol=1e-4, atol=1e-6), (name, M, N, w)
                    t = do_bench(f, return_mode="median")
                    line.append(f"w{w}:{8 * M * N / t / 1e6:7.1f}")
            print(f"triton {name} {M}x{N} " + " ".join(line), flush=True)


def once(variant, M, N):
    x = torch.randn(M, N, device="cuda")
    y = torch.full_like(x, float("nan"))
    if variant == "fused":
        props = driver.active.utils.get_device_properties(torch.cuda.current_device())
        run, _ = peer.prepare_fused(props, x, y)
    else:
        def run():
            peer.launch_rowwise(peer.softmax_kernel_naive, x, y)
    for _ in range(3):
        run()
    torch.cuda.synchronize()
    assert torch.allclose(y, torch.softmax(x, 1), rtol=1e-4, atol=1e-6)


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else ""
    if what == "hints":
        hints()
    elif what == "warps":
        warps()
    elif what in ("fused", "naive") and len(sys.argv) == 4:
        once(what, int(sys.argv[2]), int(sys.argv[3]))
    else:
        sys.exit(__doc__)
