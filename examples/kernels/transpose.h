//===- transpose.h - a 2-D tiled transpose and copy -------------*- C++ -*-===//
//
// The transpose of an M x N row-major matrix into an N x M one, one
// BLOCK_M x BLOCK_N tile a program, and the plain 2-D copy of the same tiles
// (the transpose's bandwidth reference: the same loads, the stores to the
// same place instead of the transposed one). Shared by examples/transpose,
// ktc-bench and the tests; bench/peer.py has Triton's spelling of both.
//
// There is no trans op: the transpose is pointer arithmetic. The tile is
// loaded along its rows (offs_n contiguous in `in`) and stored along its
// columns (offs_m contiguous in `out`), so on a GPU the compiler moves the
// tile between the two layouts (through shared memory) in between.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_EXAMPLES_KERNELS_TRANSPOSE_H
#define KTC_EXAMPLES_KERNELS_TRANSPOSE_H

#include "ktc/ktc.h"

namespace ktc::seeds {

/// The tile the benchmarks and the example use by default, and its waves
/// (Triton's spelling in bench/peer.py uses the same).
constexpr int kTransposeBlockM = 64, kTransposeBlockN = 64;
constexpr int kTransposeWarps = 4;

// [transpose]
/// out[n, m] = in[m, n]: `in` is M x N (row stride in_stride), `out` is
/// N x M (row stride out_stride). The grid is cdiv(M, BLOCK_M) x
/// cdiv(N, BLOCK_N) programs.
inline void transpose(Ptr<float> out, Ptr<float> in, Int M, Int N,
                      Int in_stride, Int out_stride, int BLOCK_M, int BLOCK_N) {
  auto offs_m = program_id(0) * BLOCK_M + arange(0, BLOCK_M);
  auto offs_n = program_id(1) * BLOCK_N + arange(0, BLOCK_N);
  auto rows = expand_dims(offs_m, 1); // offs_m[:, None]
  auto cols = expand_dims(offs_n, 0); // offs_n[None, :]
  auto mask = (rows < M) & (cols < N);
  auto tile = load(in + rows * in_stride + cols, mask);
  store(out + cols * out_stride + rows, tile, mask);
}
// [end transpose]

/// out[m, n] = in[m, n], tile by tile as transpose() goes: both M x N.
inline void copy2d(Ptr<float> out, Ptr<float> in, Int M, Int N, Int in_stride,
                   Int out_stride, int BLOCK_M, int BLOCK_N) {
  auto offs_m = program_id(0) * BLOCK_M + arange(0, BLOCK_M);
  auto offs_n = program_id(1) * BLOCK_N + arange(0, BLOCK_N);
  auto rows = expand_dims(offs_m, 1);
  auto cols = expand_dims(offs_n, 0);
  auto mask = (rows < M) & (cols < N);
  store(out + rows * out_stride + cols,
        load(in + rows * in_stride + cols, mask), mask);
}

} // namespace ktc::seeds

#endif // KTC_EXAMPLES_KERNELS_TRANSPOSE_H
