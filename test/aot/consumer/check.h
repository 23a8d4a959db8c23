// The checks test/aot's two programs share: random inputs, the float64
// references, outputs poisoned with NaN first, and a tolerance check.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

namespace check {

inline std::vector<float> random(size_t n, unsigned seed, float lo, float hi) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(gen);
  return v;
}

inline void poison(std::vector<float> &v) {
  for (float &x : v)
    x = std::numeric_limits<float>::quiet_NaN();
}

/// The largest error relative to atol + rtol * |ref|; <= 1 passes.
inline bool close(const char *what, const std::vector<float> &got,
                  const std::vector<double> &ref, double atol, double rtol) {
  double worst = 0;
  size_t at = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    double err = std::abs(double(got[i]) - ref[i]) / (atol + rtol * std::abs(ref[i]));
    if (!(err <= worst)) { // NaN too
      worst = std::isnan(err) ? INFINITY : err;
      at = i;
      if (std::isnan(err))
        break;
    }
  }
  bool ok = worst <= 1;
  std::printf("%s %s: worst error %.3g of the tolerance at %zu (got %g, want %g)\n",
              ok ? "PASS" : "FAIL", what, worst, at, double(got[at]), ref[at]);
  return ok;
}

inline std::vector<double> vectorAddRef(const std::vector<float> &x,
                                        const std::vector<float> &y) {
  std::vector<double> r(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    r[i] = double(x[i]) + double(y[i]);
  return r;
}

inline std::vector<double> softmaxRef(const std::vector<float> &in, int rows,
                                      int cols, int stride) {
  std::vector<double> r(size_t(rows) * stride, 0.0);
  for (int i = 0; i < rows; ++i) {
    double m = -INFINITY, s = 0;
    for (int j = 0; j < cols; ++j)
      m = std::max(m, double(in[size_t(i) * stride + j]));
    for (int j = 0; j < cols; ++j)
      s += std::exp(double(in[size_t(i) * stride + j]) - m);
    for (int j = 0; j < cols; ++j)
      r[size_t(i) * stride + j] = std::exp(double(in[size_t(i) * stride + j]) - m) / s;
  }
  return r;
}

using Clock = std::chrono::steady_clock;

/// Milliseconds since KTC_T0_NS (nanoseconds since the epoch, set by the
/// shell just before it started this program: run.cmake), or -1.
inline double msSinceExec() {
  const char *t0 = std::getenv("KTC_T0_NS");
  if (!t0)
    return -1;
  long long now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  return double(now - std::atoll(t0)) / 1e6;
}
inline double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

} // namespace check
