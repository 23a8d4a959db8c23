"""Triton's tutorial matmul, every config's time (bench/peer_matmul.py's kernel).

    python3 bench/peer_matmul_configs.py f16|bf16 M N K [M N K ...]

Prints, per shape, each of the tutorial's 16 CUDA configs with the median
time its autotuner measured (Triton's Autotuner.configs_timings) and TFLOP/s,
then the one it picked: the peer side of examples/matmul's
KTC_AUTOTUNE_LOG=1 --autotune lines, in the same device call.
"""
import sys

import torch
import triton

import peer_matmul  # bench/, beside this file


def main():
    dtype = {"f16": torch.float16, "bf16": torch.bfloat16}[sys.argv[1]]
    dims = [int(x) for x in sys.argv[2:]]
    for M, N, K in zip(dims[0::3], dims[1::3], dims[2::3]):
        a = torch.randn(M, K, device="cuda", dtype=dtype)
        b = torch.randn(K, N, device="cuda", dtype=dtype)
        c = torch.empty(M, N, device="cuda", dtype=dtype)
        peer_matmul.launch(a, b, c)
        torch.cuda.synchronize()
        tuner = peer_matmul.matmul_kernel
        for config, ms in tuner.configs_timings.items():
            ms = ms[0] if isinstance(ms, (list, tuple)) else ms
            print(f"triton {sys.argv[1]} {M}x{N}x{K} {peer_matmul.describe(config)}: "
                  f"{ms:.4f} ms {2.0 * M * N * K / (ms * 1e9):.1f} TFLOP/s", flush=True)
        print(f"triton {sys.argv[1]} {M}x{N}x{K} best {peer_matmul.describe(tuner.best_config)}",
              flush=True)


if __name__ == "__main__":
    main()
