"""torch.matmul (cuBLAS) alone at the matmul shapes, for a ÷ cuBLAS ratio
in the same device call as bench/matmul-ab.sh (which times ktc's and
Triton's every config): python3 bench/cublas_matmul.py f16|bf16 "M N K"...

Each product is checked once against float64 on the GPU (the output
poisoned with NaN first) and timed with triton.testing.do_bench, as
bench/peer_matmul.py does; one line each: cublas DTYPE M N K ms TFLOP/s.
"""
import sys

import torch
import triton


def main():
    dtype = {"f16": torch.float16, "bf16": torch.bfloat16}[sys.argv[1]]
    for shape in sys.argv[2:]:
        m, n, k = (int(x) for x in shape.split())
        g = torch.Generator(device="cuda").manual_seed(0)
        a = torch.randn(m, k, device="cuda", generator=g).to(dtype)
        b = torch.randn(k, n, device="cuda", generator=g).to(dtype)
        c = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
        torch.matmul(a, b, out=c)
        ref = a.double() @ b.double()
        bound = (k + 1) * 2.0**-24 * (a.double().abs() @ b.double().abs())
        bound += ref.abs() * (2.0**-11 if dtype == torch.float16 else 2.0**-8)
        ok = bool(((c.double() - ref).abs() <= bound).all())
        ms = triton.testing.do_bench(lambda: torch.matmul(a, b, out=c))
        print(f"cublas {sys.argv[1]} {m} {n} {k} {ms:.4f} ms "
              f"{2 * m * n * k / (ms * 1e9):.1f} TFLOP/s {'PASS' if ok else 'FAIL'}",
              flush=True)


if __name__ == "__main__":
    main()
