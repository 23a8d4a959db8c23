"""Triton's tutorial matmul and torch.matmul (cuBLAS): bench/peer.py --matmul.

Triton's side is its tutorial matmul (03-matrix-multiplication: grouped
program order, rows and columns wrapped, the K tail masked, an f32
accumulator, the result stored in the operands' type), spelled as the
anchors spell it (shared/anchors/h200-2026-11-25/triton_next_probe.py),
autotuned over the tutorial's CUDA configurations (its
get_cuda_autotune_config: the 8 for f16 and the 8 it calls good for fp8)
on key (M, N, K), as the tutorial does. torch's side is torch.matmul, out=
a preallocated result (cuBLAS), with torch's default reduced-precision
reductions; where that result falls outside the f32 bound below, the row is
measured again with them off (peer-matmul.json says where).

Each (dtype, shape) is checked once, the output poisoned (NaN) first,
against float64 on the GPU: |c - a@b| within the f32 summation bound
(K + 1) 2^-24 sum|a||b| plus the rounding to the result's type; then timed
with triton.testing.do_bench. Rows: bench matmul_f16 / matmul_bf16, M, N
(K is the shape's, SHAPES), block = BLOCK_SIZE_M and num_warps of the
config (peer-matmul.json has the whole config), and TFLOP/s in the rate
column (2·M·N·K / median time).
"""
import traceback

import torch
import triton
import triton.language as tl

# (M, N, K), in bench/matmul_rows.h's and bench/report_matmul.py's order.
SHAPES = [(1024, 1024, 1024), (4096, 4096, 4096), (8192, 8192, 8192), (1000, 1000, 1000),
          (3001, 517, 2049)]
DTYPES = [("matmul_f16", torch.float16, 11, 2.0 ** -25), ("matmul_bf16", torch.bfloat16, 8, 2.0 ** -134)]


def _config(bm, bn, bk, stages, warps):
    return triton.Config({"BLOCK_SIZE_M": bm, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": bk, "GROUP_SIZE_M": 8},
                         num_stages=stages, num_warps=warps)


# The tutorial's get_cuda_autotune_config(), in its order.
CUDA_CONFIGS = [_config(*c) for c in (
    (128, 256, 64, 3, 8), (64, 256, 32, 4, 4), (128, 128, 32, 4, 4), (128, 64, 32, 4, 4),
    (64, 128, 32, 4, 4), (128, 32, 32, 4, 4), (64, 32, 32, 5, 2), (32, 64, 32, 5, 2),
    # "Good config for fp8 inputs."
    (128, 256, 128, 3, 8), (256, 128, 128, 3, 8), (256, 64, 128, 4, 4), (64, 256, 128, 4, 4),
    (128, 128, 128, 4, 4), (128, 64, 64, 4, 4), (64, 128, 64, 4, 4), (128, 32, 64, 4, 4))]


@triton.autotune(configs=CUDA_CONFIGS, key=["M", "N", "K"])
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                  BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                  BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(0)
    npm = tl.cdiv(M, BLOCK_SIZE_M); npn = tl.cdiv(N, BLOCK_SIZE_N)
    per_group = GROUP_SIZE_M * npn; g = pid // per_group; first = g * GROUP_SIZE_M
    gm = min(npm - first, GROUP_SIZE_M)
    pm = first + ((pid % per_group) % gm); pn = (pid % per_group) // gm
    om = (pm * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    on = (pn * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    ok = tl.arange(0, BLOCK_SIZE_K)
    a = a_ptr + om[:, None] * sam + ok[None, :] * sak
    b = b_ptr + ok[:, None] * sbk + on[None, :] * sbn
    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        x = tl.load(a, mask=ok[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        y = tl.load(b, mask=ok[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        acc = tl.dot(x, y, acc)
        a += BLOCK_SIZE_K * sak; b += BLOCK_SIZE_K * sbk
    c = acc.to(c_ptr.dtype.element_ty)
    cm = pm * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M); cn = pn * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    tl.store(c_ptr + cm[:, None] * scm + cn[None, :] * scn, c, mask=(cm[:, None] < M) & (cn[None, :] < N))


def launch(a, b, c):
    M, K = a.shape
    N = b.shape[1]
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_SIZE_M"]) * triton.cdiv(N, meta["BLOCK_SIZE_N"]),)
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                        c.stride(0), c.stride(1))


def describe(config):
    kw = config.kwargs
    return (f"{kw['BLOCK_SIZE_M']}x{kw['BLOCK_SIZE_N']}x{kw['BLOCK_SIZE_K']} g{kw['GROUP_SIZE_M']} "
            f"w{config.num_warps} s{config.num_stages}")


def worst(c, ref, bound):
    """max |c - ref| / bound over all elements (NaN, e.g. the poison, is inf)."""
    ratio = ((c.double() - ref).abs() / bound).max().item()
    return ratio if ratio == ratio else float("inf")


def matmul_benches(peer, quantiles):
    """Triton (autotuned) and torch on every dtype and shape; rows into peer."""
    configs = peer.meta.setdefault("matmul_configs", {})
    errors = peer.meta.setdefault("matmul_err_over_bound", {})
    for bench, dtype, precision, tiny in DTYPES:
        for M, N, K in SHAPES:
            name = f"{bench} {M}x{N}x{K}"
            try:
                torch.manual_seed(M * 7 + N * 3 + K)
                a = torch.randn(M, K, device="cuda", dtype=dtype)
                b = torch.randn(K, N, device="cuda", dtype=dtype)
                ref = a.double() @ b.double()
                bound = (K + 1) * 2.0 ** -24 * (a.double().abs() @ b.double().abs())
                bound += (ref.abs() + bound) * 2.0 ** -precision + tiny
                c = torch.empty(M, N, device="cuda", dtype=dtype)
                flops = 2.0 * M * N * K
                cases = [("triton", lambda: launch(a, b, c)),
                         ("torch", lambda: torch.matmul(a, b, out=c))]
                for provider, fn in cases:
                    what = f"{bench}/{provider} {M}x{N}x{K}"
                    c.fill_(float("nan"))
                    fn()  # Triton autotunes here, on the first call for (M, N, K)
                    torch.cuda.synchronize()
                    err = worst(c, ref, bound)
                    if provider == "torch" and not err <= 1:
                        # Outside the f32 bound: cuBLAS's reduced-precision
                        # reduction; measure with it off instead.
                        peer.meta.setdefault("matmul_torch_reduced_precision_off", []).append(name)
                        with _full_precision_reductions():
                            c.fill_(float("nan"))
                            fn()
                            torch.cuda.synchronize()
                            err = worst(c, ref, bound)
                            if err <= 1:
                                _time(peer, bench, provider, M, N, K, 0, 0, fn, flops, quantiles, err)
                        errors[f"{name} {provider}"] = err
                        if not err <= 1:
                            peer.fail(what, f"error {err:.3g} x the f32 bound")
                        continue
                    errors[f"{name} {provider}"] = err
                    if not err <= 1:
                        peer.fail(what, f"error {err:.3g} x the f32 bound")
                        continue
                    block = warps = 0
                    if provider == "triton":
                        best = matmul_kernel.best_config
                        configs[name] = describe(best)
                        block, warps = best.kwargs["BLOCK_SIZE_M"], best.num_warps
                    _time(peer, bench, provider, M, N, K, block, warps, fn, flops, quantiles, err)
                del a, b, c, ref, bound
                torch.cuda.empty_cache()
            except Exception:
                traceback.print_exc()
                peer.fail(name, "exception (traceback above)")
            peer.save_meta()
    peer.meta["matmul"] = dict(configs="the tutorial's get_cuda_autotune_config (16), key M, N, K",
                               check="float64, within (K + 1) 2^-24 sum|a||b| + the result's rounding",
                               flops="2 M N K")


class _full_precision_reductions:
    """torch's fp16/bf16 reduced-precision reductions off for a while."""

    def __enter__(self):
        m = torch.backends.cuda.matmul
        self.saved = (m.allow_fp16_reduced_precision_reduction, m.allow_bf16_reduced_precision_reduction)
        m.allow_fp16_reduced_precision_reduction = False
        m.allow_bf16_reduced_precision_reduction = False

    def __exit__(self, *exc):
        m = torch.backends.cuda.matmul
        m.allow_fp16_reduced_precision_reduction, m.allow_bf16_reduced_precision_reduction = self.saved


def _time(peer, bench, provider, M, N, K, block, warps, fn, flops, quantiles, err):
    ms, p20, p80 = triton.testing.do_bench(fn, warmup=25, rep=peer.rep, quantiles=quantiles)
    tflops = flops / (ms * 1e-3) / 1e12
    peer.write(bench, provider, M, N, block, warps, ms, p20, p80, rate=tflops)
    print(f"{bench:12} {provider:6} {M:>5}x{N}x{K:<5} block={block:<4} warps={warps} "
          f"ms={ms:.4f} TFLOP/s={tflops:7.1f} err/bound={err:.2f}", flush=True)
