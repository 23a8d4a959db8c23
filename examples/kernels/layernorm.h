//===- layernorm.h - Triton's layer-norm tutorial with ktc's C++ API -*- C++ -*-===//
//
// The kernels of Triton's 05-layer-norm tutorial, written for ktc: the
// forward pass with the mean and 1/std of each row as outputs, the backward
// pass's dx with the partial sums of dw and db, and the kernel that adds the
// partials up. f16 in and out, f32 statistics and arithmetic. Shared by
// examples/layernorm and the tests.
//
// The forward pass takes BLOCK_M rows per program as one BLOCK_M x BLOCK_N
// tile. When a row fits in the tile (N <= BLOCK_N, ONE_PASS) it is read
// once, kept in registers, and normalised from there; longer rows are read
// three times in BLOCK_N-wide chunks (the sum, the squared deviations, the
// output), as the tutorial does.
//
// The backward pass adds each row's dy * xhat and dy into one of GROUP_M
// rows of f32 partial sums with atomic_add (the tutorial's alternative to
// its spin lock), and layernorm_bwd_dwdb sums the GROUP_M partials per
// column.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_EXAMPLES_KERNELS_LAYERNORM_H
#define KTC_EXAMPLES_KERNELS_LAYERNORM_H

#include "ktc/ktc.h"

#include <algorithm>

namespace ktc::layernorm {

/// y = (x - mean) * rstd * w + b per row of an M x N matrix (row stride
/// `stride`), mean and rstd = 1 / sqrt(var + eps) written per row.
inline void forward(Ptr<half> x, Ptr<half> y, Ptr<half> w, Ptr<half> b,
                    Ptr<float> mean_out, Ptr<float> rstd_out, Int stride,
                    Int m, Int n, Float eps, int BLOCK_M, int BLOCK_N,
                    bool ONE_PASS) {
  auto rows = program_id(0) * BLOCK_M + arange(0, BLOCK_M);
  auto rowMask = expand_dims(rows < m, 1);
  auto rowX = x + expand_dims(rows * stride, 1);
  auto rowY = y + expand_dims(rows * stride, 1);
  auto cols = expand_dims(arange(0, BLOCK_N), 0);
  auto fn = n.to(DType::f32);
  if (ONE_PASS) {
    // The whole row in registers: one read of x.
    auto mask = rowMask & (cols < n);
    auto xs = load(rowX + cols, mask, 0.0f).to(DType::f32);
    auto mean = sum(xs, 1) / fn;
    auto xc = where(mask, xs - expand_dims(mean, 1), 0.0f);
    auto rstd = rsqrt(sum(xc * xc, 1) / fn + eps);
    auto ws = load(w + cols, cols < n).to(DType::f32);
    auto bs = load(b + cols, cols < n).to(DType::f32);
    store(rowY + cols, xc * expand_dims(rstd, 1) * ws + bs, mask);
    store(mean_out + rows, mean, rows < m);
    store(rstd_out + rows, rstd, rows < m);
    return;
  }
  // Rows longer than the tile: three passes over BLOCK_N-wide chunks.
  Var acc = zeros({BLOCK_M, BLOCK_N}, DType::f32);
  for_range(0, n, BLOCK_N, [&](Value off) {
    auto c = off + cols;
    acc = acc + load(rowX + c, rowMask & (c < n), 0.0f).to(DType::f32);
  });
  auto mean = sum(acc, 1) / fn;
  auto mean2 = expand_dims(mean, 1);
  Var sq = zeros({BLOCK_M, BLOCK_N}, DType::f32);
  for_range(0, n, BLOCK_N, [&](Value off) {
    auto c = off + cols;
    auto mask = rowMask & (c < n);
    auto xc = where(mask, load(rowX + c, mask, 0.0f).to(DType::f32) - mean2,
                    0.0f);
    sq = sq + xc * xc;
  });
  auto rstd = rsqrt(sum(sq, 1) / fn + eps);
  auto rstd2 = expand_dims(rstd, 1);
  for_range(0, n, BLOCK_N, [&](Value off) {
    auto c = off + cols;
    auto mask = rowMask & (c < n);
    auto xs = load(rowX + c, mask, 0.0f).to(DType::f32);
    auto ws = load(w + c, c < n).to(DType::f32);
    auto bs = load(b + c, c < n).to(DType::f32);
    store(rowY + c, (xs - mean2) * rstd2 * ws + bs, mask);
  });
  store(mean_out + rows, mean, rows < m);
  store(rstd_out + rows, rstd, rows < m);
}

/// dx of one row per program, from x, dy, w and the forward pass's mean and
/// rstd; adds dy * xhat and dy of the row into row (row % GROUP_M) of the
/// f32 partial sums dw_part and db_part (GROUP_M x N, zeroed first).
/// Rows longer than BLOCK_N are read twice, in chunks.
inline void backward_dx(Ptr<half> dx, Ptr<half> dy, Ptr<half> x, Ptr<half> w,
                        Ptr<float> mean_in, Ptr<float> rstd_in,
                        Ptr<float> dw_part, Ptr<float> db_part, Int stride,
                        Int n, int GROUP_M, int BLOCK_N) {
  auto row = program_id(0);
  auto rowX = x + row * stride, rowDy = dy + row * stride,
       rowDx = dx + row * stride;
  auto part = (row % GROUP_M) * n;
  auto cols = arange(0, BLOCK_N);
  auto mean = load(mean_in + row);
  auto rstd = load(rstd_in + row);
  auto fn = n.to(DType::f32);
  // c1 = sum(xhat * w * dy) / N, c2 = sum(w * dy) / N.
  Var s1 = zeros({BLOCK_N}, DType::f32);
  Var s2 = zeros({BLOCK_N}, DType::f32);
  for_range(0, n, BLOCK_N, [&](Value off) {
    auto c = off + cols;
    auto mask = c < n;
    auto xhat = (load(rowX + c, mask, 0.0f).to(DType::f32) - mean) * rstd;
    auto wdy = load(w + c, mask, 0.0f).to(DType::f32) *
               load(rowDy + c, mask, 0.0f).to(DType::f32);
    s1 = s1 + where(mask, xhat * wdy, 0.0f);
    s2 = s2 + wdy;
  });
  auto c1 = sum(s1.get()) / fn, c2 = sum(s2.get()) / fn;
  for_range(0, n, BLOCK_N, [&](Value off) {
    auto c = off + cols;
    auto mask = c < n;
    auto xhat = (load(rowX + c, mask, 0.0f).to(DType::f32) - mean) * rstd;
    auto dys = load(rowDy + c, mask, 0.0f).to(DType::f32);
    auto wdy = load(w + c, mask, 0.0f).to(DType::f32) * dys;
    store(rowDx + c, (wdy - (xhat * c1 + c2)) * rstd, mask);
    atomic_add(dw_part + part + c, dys * xhat, mask, MemSem::relaxed);
    atomic_add(db_part + part + c, dys, mask, MemSem::relaxed);
  });
}

/// dw[j] = sum of dw_part[i][j] over the GROUP_M rows i (db likewise), for
/// BLOCK_N columns per program, BLOCK_M partial rows at a time.
inline void backward_dwdb(Ptr<float> dw_part, Ptr<float> db_part,
                          Ptr<half> dw, Ptr<half> db, Int group, Int n,
                          int BLOCK_M, int BLOCK_N) {
  auto cols = program_id(0) * BLOCK_N + arange(0, BLOCK_N);
  auto cols2 = expand_dims(cols, 0);
  Var accW = zeros({BLOCK_M, BLOCK_N}, DType::f32);
  Var accB = zeros({BLOCK_M, BLOCK_N}, DType::f32);
  for_range(0, group, BLOCK_M, [&](Value i) {
    auto rows = expand_dims(i + arange(0, BLOCK_M), 1);
    auto mask = (rows < group) & (cols2 < n);
    auto offs = rows * n + cols2;
    accW = accW + load(dw_part + offs, mask, 0.0f);
    accB = accB + load(db_part + offs, mask, 0.0f);
  });
  store(dw + cols, sum(accW.get(), 0), cols < n);
  store(db + cols, sum(accB.get(), 0), cols < n);
}

/// The forward pass's tile for N columns of f16 when no config is given:
/// whole rows up to 8192 columns (16 KiB), else 4096-wide chunks; several
/// rows per program for short rows, so that a program holds at least 2048
/// elements; a wave for every 512 of them (16 halves, two 16-byte loads, a
/// thread), from 1 to 16 waves, and for rows of 4096 columns or more a
/// wave for every 1024 (32 halves, four loads, a thread: more bytes in
/// flight a thread; on the H200, session 13, 4096 and 8192 columns ran
/// 10-25 % faster so, docs/bench/h200/issue19/s13).
struct ForwardConfig {
  int block_m, block_n, num_warps;
  bool one_pass;
};
inline ForwardConfig forwardConfig(int64_t n) {
  int64_t block = next_pow2(n);
  if (block > 8192)
    return {1, 4096, 8, false};
  int block_m = int(std::clamp<int64_t>(2048 / block, 1, 16));
  int64_t perWave = block >= 4096 ? 1024 : 512;
  int warps = int(std::clamp<int64_t>(block * block_m / perWave, 1, 16));
  return {block_m, int(block), warps, true};
}

} // namespace ktc::layernorm

#endif // KTC_EXAMPLES_KERNELS_LAYERNORM_H
