//===- matmul_check.h - f16/bf16 inputs and the matmul's check ---*- C++ -*-===//
//
// What examples/matmul and the tutorial's step 10 share: f16 and bf16 on the
// host (their bits, their values as doubles), random matrices of them, and
// the check of C = A x B against float64.
//
// The check's bound, per element: the f32 sum of K products (exact in f32,
// as products of f16 or bf16 are) is within (K + 1) 2^-24 sum_k |a_ik b_kj|
// of the exact sum, whatever the order of the additions; the leaky ReLU's
// 0.01 x adds one f32 rounding; the output's rounding half an ulp of the
// output type, relative (plus half its smallest subnormal). On top, K 2^-122
// for a GPU that flushes f32 subnormal products to zero. A NaN or an
// infinity in the reference must come out the same; an element still
// holding the poison was never written.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_EXAMPLES_COMMON_MATMUL_CHECK_H
#define KTC_EXAMPLES_COMMON_MATMUL_CHECK_H

#include "examples/common/example.h"

#include <atomic>

namespace example {

template <typename T> struct Format;
template <> struct Format<ktc::half> {
  static constexpr const char *name = "f16";
  static constexpr int mantissa = 10, bias = 15, expMask = 31;
  /// A signalling NaN that no input or result is: what outputs start as.
  static constexpr uint16_t poison = 0x7dad;
};
template <> struct Format<ktc::bfloat16> {
  static constexpr const char *name = "bf16";
  static constexpr int mantissa = 7, bias = 127, expMask = 255;
  static constexpr uint16_t poison = 0x7fad;
};

/// The value of an f16 or bf16 (exact).
template <typename T> double toDouble(T x) {
  using F = Format<T>;
  int exp = (x.bits >> F::mantissa) & F::expMask;
  int man = x.bits & ((1 << F::mantissa) - 1);
  double sign = x.bits >> 15 ? -1.0 : 1.0;
  if (exp == F::expMask)
    return man ? NAN : sign * INFINITY;
  if (exp == 0) // subnormal or zero
    return sign * std::ldexp(man, 1 - F::bias - F::mantissa);
  return sign *
         std::ldexp(man + (1 << F::mantissa), exp - F::bias - F::mantissa);
}

/// n random elements: both signs, magnitudes from 2^-8 to just under 4 (so
/// that sums stay far below f16's largest, 65504), one in 64 a subnormal
/// and one in 64 a zero of either sign.
template <typename T> std::vector<T> randomMatrix(size_t n, uint64_t seed) {
  using F = Format<T>;
  std::mt19937_64 gen(seed);
  std::vector<T> v(n);
  for (T &x : v) {
    uint64_t r = gen();
    uint16_t sign = r & 1, man = (r >> 1) & ((1 << F::mantissa) - 1);
    uint16_t exp = F::bias - 8 + (r >> 16) % 10;
    if ((r >> 32) % 64 == 0)
      exp = 0, man |= 1; // subnormal
    else if ((r >> 32) % 64 == 1)
      exp = 0, man = 0; // +0 or -0
    x = T{uint16_t(sign << 15 | exp << F::mantissa | man)};
  }
  return v;
}

/// NaN, +inf or -inf (which % 3) of T.
template <typename T> T special(int which) {
  using F = Format<T>;
  uint16_t inf = uint16_t(F::expMask << F::mantissa);
  const uint16_t bits[] = {uint16_t(inf | 1 << (F::mantissa - 1)), inf,
                           uint16_t(0x8000 | inf)};
  return T{bits[which % 3]};
}

/// A matrix stored with strides: element (i, j) at i * rows + j * cols.
struct Strides {
  int64_t rows, cols;
};

struct MatmulCheck {
  int64_t bad = 0;      // elements outside the bound
  int64_t written = 0;  // elements after the output that lost the poison
  double worst = 0;     // the largest error of a finite element / its bound
};

/// Checks got (M x N, row-major, then a guard) against a (M x K) @ b
/// (K x N) in float64, leaky ReLU'd if `leakyRelu`; prints the first few
/// elements off.
template <typename T>
MatmulCheck checkMatmul(const std::vector<T> &a, Strides sa,
                        const std::vector<T> &b, Strides sb,
                        const std::vector<T> &got, int64_t M, int64_t N,
                        int64_t K, bool leakyRelu) {
  using F = Format<T>;
  std::vector<double> da(M * K), db(K * N);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t k = 0; k < K; ++k)
      da[i * K + k] = toDouble(a[i * sa.rows + k * sa.cols]);
  for (int64_t k = 0; k < K; ++k)
    for (int64_t j = 0; j < N; ++j)
      db[k * N + j] = toDouble(b[k * sb.rows + j * sb.cols]);
  const double u32 = std::ldexp(1.0, -24),
               uOut = std::ldexp(1.0, -1 - F::mantissa),
               subnormal = std::ldexp(1.0, -F::bias - F::mantissa),
               flushed = K * std::ldexp(1.0, -122);
  std::vector<MatmulCheck> rows(M);
  std::atomic<int> printed = 0;
  forRows(M, [&](int64_t begin, int64_t end) {
    std::vector<double> sum(N), mag(N);
    for (int64_t i = begin; i < end; ++i) {
      std::fill(sum.begin(), sum.end(), 0.0);
      std::fill(mag.begin(), mag.end(), 0.0);
      for (int64_t k = 0; k < K; ++k) { // float64: exact products
        double x = da[i * K + k];
        const double *row = &db[k * N];
        for (int64_t j = 0; j < N; ++j) {
          sum[j] += x * row[j];
          mag[j] += std::fabs(x * row[j]);
        }
      }
      for (int64_t j = 0; j < N; ++j) {
        T g = got[i * N + j];
        double y = sum[j], bound = (K + 1) * u32 * mag[j] + flushed;
        if (leakyRelu && y < 0) { // 0.01f * acc, rounded to f32
          y *= double(0.01f);
          bound += u32 * (std::fabs(y) + bound);
        }
        bound += uOut * (std::fabs(y) + bound) + subnormal;
        double v = toDouble(g);
        bool ok = g.bits != F::poison &&
                  (std::isnan(y)   ? std::isnan(v)
                   : std::isinf(y) ? v == y
                                   : std::fabs(v - y) <= bound);
        if (std::isfinite(y) && std::isfinite(v))
          rows[i].worst = std::max(rows[i].worst, std::fabs(v - y) / bound);
        if (!ok && rows[i].bad++ == 0 && printed++ < 5) // a row's first
          std::printf("c[%lld][%lld]: got %.9g%s, want %.9g (bound %.3g)\n",
                      (long long)i, (long long)j, v,
                      g.bits == F::poison ? " (never written)" : "", y, bound);
      }
    }
  });
  MatmulCheck all;
  for (const MatmulCheck &r : rows)
    all.bad += r.bad, all.worst = std::max(all.worst, r.worst);
  for (size_t e = M * N; e < got.size(); ++e)
    all.written += got[e].bits != F::poison;
  return all;
}

/// Prints the check's lines and the last one, PASS or FAIL; returns the
/// exit code.
inline int reportMatmul(const MatmulCheck &c, int64_t elements,
                        int64_t guard, const std::string &what) {
  std::printf("max error: %.3g of the bound\n", c.worst);
  if (c.written)
    std::printf("%lld of the %lld elements after the output were written\n",
                (long long)c.written, (long long)guard);
  if (c.bad || c.written) {
    std::printf("FAIL %s: %lld of %lld elements off\n", what.c_str(),
                (long long)c.bad, (long long)elements);
    return 1;
  }
  std::printf("PASS %s: %lld elements within the f32 bound\n", what.c_str(),
              (long long)elements);
  return 0;
}

} // namespace example

#endif // KTC_EXAMPLES_COMMON_MATMUL_CHECK_H
