"""torch.matmul (cuBLAS) alone at the matmul shapes, for a ÷ cuBLAS ratio
in the same device call as bench/matmul-ab.sh (which times ktc's and
Triton's every config): python3 bench/cublas_matmul.py f16|bf16 "M N K"...

Each product is checked once against float64 on the GPU (the output
poisoned with NaN first), within bench/peer_matmul.py's bound, and timed
with triton.testing.do_bench as there; one line each: cublas DTYPE M N K ms
TFLOP/s PASS|FAIL.
"""
import sys

import torch
import triton

import peer_matmul  # bench/, beside this file


def main():
    _, dtype, precision, tiny = next(
        d for d in peer_matmul.DTYPES if d[0] == "matmul_" + sys.argv[1])
    for shape in sys.argv[2:]:
        m, n, k = (int(x) for x in shape.split())
        g = torch.Generator(device="cuda").manual_seed(0)
        a = torch.randn(m, k, device="cuda", generator=g).to(dtype)
        b = torch.randn(k, n, device="cuda", generator=g).to(dtype)
        c = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
        torch.matmul(a, b, out=c)
        ref = a.double() @ b.double()
        bound = (k + 1) * 2.0**-24 * (a.double().abs() @ b.double().abs())
        bound += (ref.abs() + bound) * 2.0**-precision + tiny
        ok = peer_matmul.worst(c, ref, bound) <= 1
        ms = triton.testing.do_bench(lambda: torch.matmul(a, b, out=c))
        print(f"cublas {sys.argv[1]} {m} {n} {k} {ms:.4f} ms "
              f"{2 * m * n * k / (ms * 1e9):.1f} TFLOP/s {'PASS' if ok else 'FAIL'}",
              flush=True)


if __name__ == "__main__":
    main()
