"""One launch of Triton's tutorial matmul at one config (for Nsight Compute).

    python3 bench/peer_matmul_one.py f16|bf16 M N K BM BN BK warps stages [launches]

bench/peer_matmul.py's kernel without its autotuner: the config's kernel is
compiled, launched `launches` times (default 3), and checked against torch.
"""
import sys

import torch

import peer_matmul  # bench/, beside this file


def main():
    dtype = {"f16": torch.float16, "bf16": torch.bfloat16}[sys.argv[1]]
    M, N, K, BM, BN, BK, W, S = (int(x) for x in sys.argv[2:10])
    launches = int(sys.argv[10]) if len(sys.argv) > 10 else 3
    a = torch.randn(M, K, device="cuda", dtype=dtype)
    b = torch.randn(K, N, device="cuda", dtype=dtype)
    c = torch.empty(M, N, device="cuda", dtype=dtype)
    grid = ((M + BM - 1) // BM * ((N + BN - 1) // BN),)
    for _ in range(launches):
        peer_matmul.matmul_kernel.fn[grid](
            a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
            c.stride(1), BLOCK_SIZE_M=BM, BLOCK_SIZE_N=BN, BLOCK_SIZE_K=BK, GROUP_SIZE_M=8,
            num_warps=W, num_stages=S)
    torch.cuda.synchronize()
    err = (c.float() - (a.float() @ b.float())).abs().max().item()
    print(f"triton {sys.argv[1]} {M}x{N}x{K} {BM}x{BN}x{BK} w{W} s{S}: max |c - ref| {err:.3g}")


if __name__ == "__main__":
    main()
