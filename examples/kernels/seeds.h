//===- seeds.h - the seeds' kernels, written with ktc's C++ API -*- C++ -*-===//
//
// Vector-add and the three softmax variants of the Triton workshop seeds.
// Shared by the examples and the tests, so that what is tested is what is
// shipped.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_EXAMPLES_KERNELS_SEEDS_H
#define KTC_EXAMPLES_KERNELS_SEEDS_H

#include "ktc/ktc.h"

#include <cmath>

namespace ktc::seeds {

/// The softmaxes' exponential and division: fast_exp and fdiv, the hardware
/// approximations that Triton's tl.exp and f32 `/` are (ex2.approx and
/// div.full on NVIDIA, v_exp_f32 and v_rcp_f32 on AMD). Softmax is checked
/// against float64 to 1e-5, far above their error. bench/CMakeLists.txt
/// builds probes of the benchmark with exp (KTC_SEEDS_EXACT_EXP) and with
/// the correctly rounded `/` (KTC_SEEDS_EXACT_DIV): on an H100 they cost
/// 7.5% and 1.5% of the softmaxes' speed against Triton (docs/bench).
inline Value seed_exp(const Operand &x) {
#ifdef KTC_SEEDS_EXACT_EXP
  return exp(x);
#else
  return fast_exp(x);
#endif
}
inline Value seed_div(const Operand &a, const Operand &b) {
#ifdef KTC_SEEDS_EXACT_DIV
  return a / b;
#else
  return fdiv(a, b);
#endif
}

/// out[i] = x[i] + y[i], BLOCK elements per program.
inline void vector_add(Ptr<float> x, Ptr<float> y, Ptr<float> out, Int n,
                       int BLOCK) {
  auto pid = program_id(0);
  auto offs = pid * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  store(out + offs, load(x + offs, mask) + load(y + offs, mask), mask);
}

/// Softmax of one row per program, three passes over the columns: the max,
/// the sum of exponentials, the output.
inline void softmax_naive(Ptr<float> in, Ptr<float> out, Int row_stride,
                          Int n_cols, int BLOCK) {
  auto row_in = in + program_id(0) * row_stride;
  auto row_out = out + program_id(0) * row_stride;
  Var m = -INFINITY;
  for_range(0, n_cols, BLOCK, [&](Value col) {
    auto offs = col + arange(0, BLOCK);
    m = maximum(m, max(load(row_in + offs, offs < n_cols, -INFINITY), 0));
  });
  Var s = 0.0f;
  for_range(0, n_cols, BLOCK, [&](Value col) {
    auto offs = col + arange(0, BLOCK);
    auto x = load(row_in + offs, offs < n_cols, -INFINITY);
    s = s + sum(seed_exp(x - m), 0); // exp(-inf - m) = 0 off the row
  });
  for_range(0, n_cols, BLOCK, [&](Value col) {
    auto offs = col + arange(0, BLOCK);
    auto mask = offs < n_cols;
    store(row_out + offs, seed_div(seed_exp(load(row_in + offs, mask) - m), s),
          mask);
  });
}

/// Softmax of one row per program, two passes: the running max and sum
/// carried together (the online algorithm), then the output.
inline void softmax_online(Ptr<float> in, Ptr<float> out, Int row_stride,
                           Int n_cols, int BLOCK) {
  auto row_in = in + program_id(0) * row_stride;
  auto row_out = out + program_id(0) * row_stride;
  Var m = -INFINITY;
  Var s = 0.0f;
  for_range(0, n_cols, BLOCK, [&](Value col) {
    auto offs = col + arange(0, BLOCK);
    auto mask = offs < n_cols;
    auto x = load(row_in + offs, mask, -INFINITY);
    auto m_new = maximum(m, max(x, 0));
    s = s * seed_exp(m - m_new) +
        sum(where(mask, seed_exp(x - m_new), 0.0f), 0);
    m = m_new;
  });
  for_range(0, n_cols, BLOCK, [&](Value col) {
    auto offs = col + arange(0, BLOCK);
    auto mask = offs < n_cols;
    store(row_out + offs, seed_div(seed_exp(load(row_in + offs, mask) - m), s),
          mask);
  });
}

/// The persistent fused softmax: each program loads whole rows
/// (BLOCK >= n_cols) and strides over the rows by the number of programs.
inline void softmax_fused(Ptr<float> out, Ptr<float> in, Int in_stride,
                          Int out_stride, Int n_rows, Int n_cols, int BLOCK) {
  auto cols = arange(0, BLOCK);
  auto mask = cols < n_cols;
  for_range(program_id(0), n_rows, num_programs(0), [&](Value row) {
    auto x = load(in + row * in_stride + cols, mask, -INFINITY);
    auto num = seed_exp(x - max(x, 0));
    store(out + row * out_stride + cols, seed_div(num, sum(num, 0)), mask);
  });
}

/// Softmax of BLOCK_M rows per program as one 2-D tile (BLOCK_M x BLOCK_N,
/// BLOCK_N >= n_cols): row maxima and sums are reductions along axis 1,
/// broadcast back over the tile.
inline void softmax_tiled(Ptr<float> out, Ptr<float> in, Int in_stride,
                          Int out_stride, Int n_rows, Int n_cols, int BLOCK_M,
                          int BLOCK_N) {
  auto rows = expand_dims(program_id(0) * BLOCK_M + arange(0, BLOCK_M), 1);
  auto cols = expand_dims(arange(0, BLOCK_N), 0);
  auto mask = (rows < n_rows) & (cols < n_cols);
  auto x = load(in + rows * in_stride + cols, mask, -INFINITY);
  auto num = seed_exp(x - expand_dims(max(x, 1), 1));
  store(out + rows * out_stride + cols,
        seed_div(num, expand_dims(sum(num, 1), 1)),
        mask);
}

} // namespace ktc::seeds

#endif // KTC_EXAMPLES_KERNELS_SEEDS_H
