//===- reference.h - layer norm in float64, and the checks ---------*- C++ -*-===//
//
// The inputs of examples/layernorm (random f16, optionally with the special
// rows), the forward and backward passes in float64 from those same f16
// values, and the checks of a kernel's outputs against them. A bound per
// element scales with the magnitudes that went into it: the f32 sums' error
// (a few ulps of f32 times the sum of absolute terms) and the output's
// rounding to f16 (half an ulp, 2^-11 relative). Where the reference is NaN
// the result must be NaN too; elsewhere it must be finite.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_EXAMPLES_LAYERNORM_REFERENCE_H
#define KTC_EXAMPLES_LAYERNORM_REFERENCE_H

#include "examples/common/f16.h"
#include "examples/common/tolerance.h"
#include "ktc/ktc.h"

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

namespace reference {

using example::f16::kPoison;
using example::f16::toDouble;
using example::f16::toHalf;

struct Inputs {
  int64_t m, n;
  std::vector<ktc::half> x, w, b, dy;
};

/// x uniform in [-4, 4], w and b in [-2, 2], dy in [-1, 1], all rounded to
/// f16. `specials`: row 0 all one value, row 1 times 1000, a NaN in row 2
/// (the rows that exist).
inline Inputs makeInputs(int64_t m, int64_t n, uint64_t seed, bool specials) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> dist(-1, 1);
  Inputs in{m, n, {}, {}, {}, {}};
  auto fill = [&](std::vector<ktc::half> &v, size_t count, double scale) {
    v.resize(count);
    for (ktc::half &h : v)
      h = toHalf(scale * dist(gen));
  };
  fill(in.x, m * n, 4);
  fill(in.w, n, 2);
  fill(in.b, n, 2);
  fill(in.dy, m * n, 1);
  if (specials) {
    for (int64_t c = 0; c < n; ++c)
      in.x[c] = in.x[0];
    for (int64_t c = 0; m > 1 && c < n; ++c)
      in.x[n + c] = toHalf(1000 * toDouble(in.x[n + c]));
    if (m > 2)
      in.x[2 * n + n / 2] = toHalf(NAN);
  }
  return in;
}

/// f32 sums of n terms are within sumTol(n) * 2^-24 of the sum of their
/// absolute values (n - 1 roundings of at most 2^-24 each, in any order,
/// plus a few for the other operations).
inline double sumTol(int64_t n) { return 8 + double(n); }

/// How far the kernel's xhat = (x - mean) * rstd may be from float64's
/// through its f32 mean: the mean's error bound times rstd. Small unless
/// the variance is far below eps, where rstd ~ 1/sqrt(eps) amplifies it
/// (a row of one value over 2^13 columns, whose f32 sum is not exact).
inline double xhatError(double rstd, double absMean, int64_t n) {
  return rstd * sumTol(n) * 0x1p-24 * absMean;
}

struct Forward {
  std::vector<double> mean, rstd, absMean, y, yScale, wAbs;
  /// Rows of one value (variance exactly 0): y must be b, bit for bit.
  std::vector<bool> constant;
};

inline Forward forward(const Inputs &in, double eps) {
  int64_t m = in.m, n = in.n;
  Forward f{std::vector<double>(m), std::vector<double>(m),
            std::vector<double>(m), std::vector<double>(m * n),
            std::vector<double>(m * n)};
  for (int64_t r = 0; r < m; ++r) {
    double s = 0, a = 0;
    for (int64_t c = 0; c < n; ++c) {
      s += toDouble(in.x[r * n + c]);
      a += std::fabs(toDouble(in.x[r * n + c]));
    }
    f.absMean[r] = a / double(n);
    double mean = s / double(n), var = 0;
    for (int64_t c = 0; c < n; ++c) {
      double d = toDouble(in.x[r * n + c]) - mean;
      var += d * d;
    }
    double rstd = 1 / std::sqrt(var / double(n) + eps);
    f.constant.push_back(var == 0);
    if (r == 0)
      for (int64_t c = 0; c < n; ++c)
        f.wAbs.push_back(std::fabs(toDouble(in.w[c])));
    f.mean[r] = mean;
    f.rstd[r] = rstd;
    for (int64_t c = 0; c < n; ++c) {
      double xhat = (toDouble(in.x[r * n + c]) - mean) * rstd;
      double w = toDouble(in.w[c]), b = toDouble(in.b[c]);
      f.y[r * n + c] = xhat * w + b;
      f.yScale[r * n + c] = std::fabs(xhat * w) + std::fabs(b);
    }
  }
  return f;
}

/// Checks against float64 (examples/common/tolerance.h).
using example::Counter;


inline int checkForward(const Forward &want, const std::vector<ktc::half> &y,
                        const std::vector<float> &mean,
                        const std::vector<float> &rstd) {
  int64_t m = int64_t(want.mean.size()), n = int64_t(y.size()) / m;
  Counter cy{"y"}, cm{"mean"}, cr{"rstd"};
  for (int64_t r = 0; r < m; ++r) {
    // mean: an f32 sum, against the mean of |x|; rstd: relative.
    cm(r, mean[r], want.mean[r], want.absMean[r] + 1e-30,
       sumTol(n) * 0x1p-24);
    cr(r, rstd[r], want.rstd[r], want.rstd[r], 1e-5 + sumTol(n) * 0x1p-22);
    double xhatErr = xhatError(want.rstd[r], want.absMean[r], n);
    for (int64_t c = 0; c < n; ++c) {
      int64_t i = r * n + c;
      // A row of one value: x - mean is 0 exactly (its f32 sum is exact
      // below 2^13 columns, and the division correctly rounded), y = b.
      if (want.constant[r] && n < 8192)
        cy(i, toDouble(y[i]), want.y[i], 0, 0);
      else
        cy(i, toDouble(y[i]), want.y[i],
           2e-3 * (std::fabs(want.y[i]) + want.yScale[i] + 1e-6) +
               want.wAbs[c] * xhatErr,
           1);
    }
  }
  return cy.done() + cm.done() + cr.done();
}

/// dx, dw and db in float64 from the inputs and the float64 mean and rstd,
/// checked against the kernel's.
inline int checkBackward(const Inputs &in, const Forward &f,
                         const std::vector<ktc::half> &dx,
                         const std::vector<ktc::half> &dw,
                         const std::vector<ktc::half> &db) {
  int64_t m = in.m, n = in.n;
  std::vector<double> dwWant(n, 0), dbWant(n, 0), dwScale(n, 0), dbScale(n, 0);
  Counter cdx{"dx"}, cdw{"dw"}, cdb{"db"};
  std::vector<double> xhat(n), wdy(n);
  for (int64_t r = 0; r < m; ++r) {
    double c1 = 0, c2 = 0, s1 = 0, s2 = 0;
    double xhatErr = xhatError(f.rstd[r], f.absMean[r], n);
    for (int64_t c = 0; c < n; ++c) {
      int64_t i = r * n + c;
      double dy = toDouble(in.dy[i]);
      xhat[c] = (toDouble(in.x[i]) - f.mean[r]) * f.rstd[r];
      wdy[c] = toDouble(in.w[c]) * dy;
      c1 += xhat[c] * wdy[c];
      c2 += wdy[c];
      s1 += std::fabs(xhat[c] * wdy[c]);
      s2 += std::fabs(wdy[c]);
      dwWant[c] += dy * xhat[c];
      dbWant[c] += dy;
      dwScale[c] += std::fabs(dy * xhat[c]) + std::fabs(dy) * xhatErr / 2e-3;
      dbScale[c] += std::fabs(dy);
    }
    c1 /= double(n);
    c2 /= double(n);
    double tol = 2e-3 + sumTol(n) * 0x1p-24;
    for (int64_t c = 0; c < n; ++c) {
      int64_t i = r * n + c;
      double want = (wdy[c] - (xhat[c] * c1 + c2)) * f.rstd[r];
      double scale = (std::fabs(wdy[c]) + std::fabs(xhat[c]) * (std::fabs(c1) +
                      s1 / double(n)) + std::fabs(c2) + s2 / double(n)) *
                     f.rstd[r];
      // xhat's error, through xhat * c1 and through c1.
      scale += xhatErr * (std::fabs(c1) + s1 / double(n) +
                          std::fabs(xhat[c]) * s2 / double(n)) *
               f.rstd[r] / tol;
      cdx(i, toDouble(dx[i]), want, std::fabs(want) + scale, tol);
    }
  }
  double tol = 2e-3 + sumTol(m) * 0x1p-24;
  for (int64_t c = 0; c < n; ++c) {
    cdw(c, toDouble(dw[c]), dwWant[c], std::fabs(dwWant[c]) + dwScale[c], tol);
    cdb(c, toDouble(db[c]), dbWant[c], std::fabs(dbWant[c]) + dbScale[c], tol);
  }
  return cdx.done() + cdw.done() + cdb.done();
}

} // namespace reference

#endif // KTC_EXAMPLES_LAYERNORM_REFERENCE_H
