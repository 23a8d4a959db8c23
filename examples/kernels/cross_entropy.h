//===- cross_entropy.h - per-row cross-entropy loss with ktc -----*- C++ -*-===//
//
// loss[r] = -log softmax(x[r])[target[r]] = logsumexp(x[r]) - x[r][target[r]]
// for the rows of an M x N matrix of logits (f32 or f16, computed in f32),
// 0 where target[r] == ignore_index; the mean over the rows not ignored;
// and the backward pass, dx = (softmax(x) - onehot(target)) * scale.
// Shared by examples/cross_entropy and its tests.
//
// The log-sum-exp subtracts the row's max before exponentiating, so no
// exponential overflows (x1000 logits are fine). A row that fits the tile
// (ONE_PASS: N <= BLOCK_N) is read once. Longer rows are read in
// BLOCK_N-wide chunks with the online algorithm kept per lane: each lane
// carries its running max and its sum of exp(x - max), rescaled when its
// max grows; the lanes are combined once at the end (no reduction per
// chunk).
//
// A target outside [0, N) that is not ignore_index gives a NaN loss (the
// logit is not read). A row of -inf logits but one finite value has that
// value's probability 1: loss 0 at it, +inf at any other target.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_EXAMPLES_KERNELS_CROSS_ENTROPY_H
#define KTC_EXAMPLES_KERNELS_CROSS_ENTROPY_H

#include "ktc/ktc.h"

#include <algorithm>
#include <cmath>

namespace ktc::cross_entropy {

/// The row maxima (BLOCK_M) and sums of exp(x - max) of a BLOCK_M-row tile
/// starting at `rowX` (a BLOCK_M x 1 block of row pointers).
struct RowStats {
  Value max, sum;
};
inline RowStats rowStats(const Value &rowX, const Value &rowMask, Int n,
                         int BLOCK_M, int BLOCK_N, bool ONE_PASS) {
  auto cols = expand_dims(arange(0, BLOCK_N), 0);
  if (ONE_PASS) {
    auto xs = load(rowX + cols, rowMask & (cols < n), -INFINITY).to(DType::f32);
    auto m = max(xs, 1);
    // A row of -inf: m = -inf and x - m NaN; its sum is 0 instead.
    auto e = fast_exp(xs - expand_dims(m, 1));
    return {m, sum(where(xs == -INFINITY, 0.0f, e), 1)};
  }
  Var mv = full({BLOCK_M, BLOCK_N}, -INFINITY, DType::f32);
  Var sv = zeros({BLOCK_M, BLOCK_N}, DType::f32);
  for_range(0, n, BLOCK_N, [&](Value off) {
    auto c = off + cols;
    auto xs = load(rowX + c, rowMask & (c < n), -INFINITY).to(DType::f32);
    auto mNew = maximum(mv, xs);
    // exp(-inf - -inf) is NaN: a lane that has seen only -inf sums 0.
    auto live = mNew != -INFINITY;
    sv = where(live, sv * fast_exp(mv - mNew) + fast_exp(xs - mNew), 0.0f);
    mv = mNew;
  });
  auto m = max(mv.get(), 1);
  auto scaled = sv * fast_exp(mv - expand_dims(m, 1));
  return {m, sum(where(sv.get() == 0.0f, 0.0f, scaled), 1)};
}

/// loss[r] for BLOCK_M rows per program (0 where target == ignore_index).
template <typename T>
void forward(Ptr<T> x, Ptr<int32_t> target, Ptr<float> loss, Int stride,
             Int m, Int n, Int ignore_index, int BLOCK_M, int BLOCK_N,
             bool ONE_PASS) {
  auto rows = program_id(0) * BLOCK_M + arange(0, BLOCK_M);
  auto inRows = rows < m;
  auto rowX = x + expand_dims(rows * stride, 1);
  RowStats st = rowStats(rowX, expand_dims(inRows, 1), n, BLOCK_M, BLOCK_N,
                         ONE_PASS);
  auto lse = st.max + log(st.sum);
  auto t = load(target + rows, inRows, 0);
  auto ignored = t == ignore_index;
  auto valid = inRows & (t >= 0) & (t < n);
  auto xt = load(x + rows * stride + t, valid, NAN).to(DType::f32);
  store(loss + rows, where(ignored, 0.0f, lse - xt), inRows);
}

/// out[0] = the mean of loss over the rows whose target is not
/// ignore_index (0 / 0 = NaN when every row is ignored, as torch's mean
/// reduction gives); one program.
inline void mean_loss(Ptr<float> loss, Ptr<int32_t> target, Ptr<float> out,
                      Int m, Int ignore_index, int BLOCK) {
  Var total = zeros({BLOCK}, DType::f32);
  Var count = zeros({BLOCK}, DType::i32);
  for_range(0, m, BLOCK, [&](Value off) {
    auto rows = off + arange(0, BLOCK);
    auto mask = rows < m;
    auto kept = mask & (load(target + rows, mask, ignore_index) != ignore_index);
    total = total + where(kept, load(loss + rows, mask, 0.0f), 0.0f);
    count = count + where(kept, 1, 0);
  });
  store(out, sum(total.get()) / sum(count.get()).to(DType::f32));
}

/// dx[r] = (softmax(x[r]) - onehot(target[r])) * scale, 0 for ignored rows;
/// one row per program, BLOCK_N columns at a time (a second read of the
/// row when it is longer than one tile).
template <typename T>
void backward(Ptr<T> x, Ptr<int32_t> target, Ptr<T> dx, Int stride, Int n,
              Int ignore_index, Float scale, int BLOCK_N, bool ONE_PASS) {
  auto row = program_id(0);
  auto rowX = x + row * stride;
  auto rows1 = expand_dims(rowX + zeros({1}, DType::i32), 1);
  RowStats st = rowStats(rows1, full({1, 1}, true, DType::i1), n, 1, BLOCK_N,
                         ONE_PASS);
  auto m = sum(st.max), inv = 1.0f / sum(st.sum);
  auto t = load(target + row);
  auto g = where(t == ignore_index, 0.0f, scale);
  auto cols = arange(0, BLOCK_N);
  for_range(0, n, BLOCK_N, [&](Value off) {
    auto c = off + cols;
    auto mask = c < n;
    auto p = fast_exp(load(rowX + c, mask, -INFINITY).to(DType::f32) - m) * inv;
    store(dx + row * stride + c, (p - where(c == t, 1.0f, 0.0f)) * g, mask);
  });
}

/// The tile when none is given: whole rows up to 8192 columns, else
/// 4096-wide chunks; rows per program so that a program holds at least 2048
/// elements; a wave per 512 of them, 1 to 16.
struct Config {
  int block_m, block_n, num_warps;
  bool one_pass;
};
inline Config defaultConfig(int64_t n) {
  int64_t block = next_pow2(n);
  if (block > 8192)
    return {1, 4096, 8, false};
  int block_m = int(std::clamp<int64_t>(2048 / block, 1, 16));
  int warps = int(std::clamp<int64_t>(block * block_m / 512, 1, 16));
  return {block_m, int(block), warps, true};
}

} // namespace ktc::cross_entropy

#endif // KTC_EXAMPLES_KERNELS_CROSS_ENTROPY_H
