//===- MathTestUtil.h - inputs, formats and ulps for MathTest ---*- C++ -*-===//
//
// The device (KTC_SHAPES_DEVICE or the CPU), the 16-bit formats through
// APFloat, ulp errors in each format against a float64 reference, and the
// argument sets (edges, random bit patterns, uniform ranges) of
// MathTest.cpp and MathBitsTest.cpp. The bounds are docs/numerics.md's.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_TEST_UNIT_MATHTESTUTIL_H
#define KTC_TEST_UNIT_MATHTESTUTIL_H

#include "ktc/ktc.h"

#include "llvm/ADT/APFloat.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <random>
#include <vector>

namespace ktc::mathtest {

constexpr int kBlock = 256;
/// The documented bounds (f32, ulps), a little above what was measured.
constexpr double kTanhUlp = 2, kErfUlp = 2, kSinCosUlp = 2, kPowUlp = 2,
                 kRsqrtUlp = 1.5;
/// sin and cos keep their bound for |x| up to this.
constexpr float kTrigRange = 105615.0f;

inline Device &testDevice() {
  const char *name = std::getenv("KTC_SHAPES_DEVICE");
  return Device::get(name && *name ? name : "cpu");
}

template <typename T> const llvm::fltSemantics &semantics() {
  if constexpr (std::is_same_v<T, half>)
    return llvm::APFloat::IEEEhalf();
  else if constexpr (std::is_same_v<T, bfloat16>)
    return llvm::APFloat::BFloat();
  else
    return llvm::APFloat::IEEEsingle();
}
template <typename T> const char *typeName() {
  return std::is_same_v<T, half> ? "f16"
         : std::is_same_v<T, bfloat16> ? "bf16" : "f32";
}

inline uint32_t bitsOf(float f) { return std::bit_cast<uint32_t>(f); }
inline uint32_t bitsOf(half h) { return h.bits; }
inline uint32_t bitsOf(bfloat16 b) { return b.bits; }

/// Floats rounded to T (to nearest even), and back (exact).
template <typename T> std::vector<T> toType(const std::vector<float> &x) {
  if constexpr (std::is_same_v<T, float>) {
    return x;
  } else {
    std::vector<T> out;
    for (float f : x) {
      llvm::APFloat v(f);
      bool lost;
      v.convert(semantics<T>(), llvm::APFloat::rmNearestTiesToEven, &lost);
      out.push_back(T{uint16_t(v.bitcastToAPInt().getZExtValue())});
    }
    return out;
  }
}
template <typename T> std::vector<float> toFloat(const std::vector<T> &x) {
  if constexpr (std::is_same_v<T, float>) {
    return x;
  } else {
    std::vector<float> out;
    for (T h : x) {
      llvm::APFloat v(semantics<T>(), llvm::APInt(16, h.bits));
      bool lost;
      v.convert(llvm::APFloat::IEEEsingle(),
                llvm::APFloat::rmNearestTiesToEven, &lost);
      out.push_back(v.convertToFloat());
    }
    return out;
  }
}
/// A double rounded once to T, as a float.
template <typename T> float roundTo(double d) {
  llvm::APFloat v(d);
  bool lost;
  v.convert(semantics<T>(), llvm::APFloat::rmNearestTiesToEven, &lost);
  v.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven,
            &lost);
  return v.convertToFloat();
}

/// |got - ref| in ulps of T at ref (NaN must meet NaN, inf the same inf;
/// an infinite got counts as 2^(emax + 1)).
template <typename T> double ulpError(float got, double ref) {
  constexpr bool f16 = std::is_same_v<T, half>;
  constexpr bool bf16 = std::is_same_v<T, bfloat16>;
  const int precision = f16 ? 11 : bf16 ? 8 : 24;
  const int emin = f16 ? -13 : -125, emax = f16 ? 15 : 127;
  if (std::isnan(ref) || std::isnan(got))
    return std::isnan(ref) && std::isnan(got) ? 0 : INFINITY;
  if (std::isinf(roundTo<T>(ref))) // the result overflows T
    return double(got) == std::copysign(INFINITY, ref) ? 0 : INFINITY;
  if (got == 0 && ref == 0 && std::signbit(got) != std::signbit(ref))
    return INFINITY; // the sign of a zero result is part of the contract
  double g = std::isinf(got) ? std::copysign(std::ldexp(1.0, emax + 1), got)
                             : double(got);
  int e;
  std::frexp(ref, &e);
  return std::fabs(g - ref) / std::ldexp(1.0, std::max(e, emin) - precision);
}

/// +-0, +-inf, NaNs (signalling too), subnormals, the extremes, ones.
inline std::vector<float> edges() {
  std::vector<float> x;
  for (uint32_t b : {0x00000000u, 0x7f800000u, 0x7fc00000u, 0x7f800001u,
                     0x7fbfffffu, 0x00000001u, 0x007fffffu, 0x00800000u,
                     0x00400000u, 0x7f7fffffu, 0x3f800000u, 0x3f000000u,
                     0x33800000u, 0x39800000u, 0x3f7fffffu, 0x3f800001u,
                     0x38800000u, 0x477fe000u, 0x41200000u, 0x4b000000u})
    for (uint32_t s : {0u, 0x80000000u})
      x.push_back(std::bit_cast<float>(b | s));
  return x;
}
/// KTC_MATH_SWEEP=k multiplies the random arguments by k (a longer
/// measurement than ctest's; docs/numerics.md's table used k = 50).
inline int sweep() {
  const char *k = std::getenv("KTC_MATH_SWEEP");
  return k && std::atoi(k) > 0 ? std::atoi(k) : 1;
}
/// n random bit patterns; with maxAbs > 0, only those of |x| <= maxAbs.
inline void addRandomBits(std::vector<float> &x, int n, float maxAbs) {
  std::mt19937 gen(2026 + n);
  n *= sweep();
  for (int i = 0; i < n;) {
    float f = std::bit_cast<float>(uint32_t(gen()));
    if (maxAbs > 0 && !(std::fabs(f) <= maxAbs))
      continue;
    x.push_back(f);
    ++i;
  }
}
inline void addUniform(std::vector<float> &x, int n, double lo, double hi) {
  std::mt19937_64 gen(int64_t(lo * 7 + hi) + n);
  std::uniform_real_distribution<double> d(lo, hi);
  n *= sweep();
  for (int i = 0; i < n; ++i)
    x.push_back(float(d(gen)));
}
/// An odd count (the last block partly masked), the same for each vector.
template <typename... V> void makeOdd(std::vector<float> &x, V &...more) {
  if (x.size() % 2 == 0)
    x.push_back(0.75f);
  (more.resize(x.size(), 0.75f), ...);
}

/// fma(a, b, c) rounded once to T: for f16/bf16, a b + c rounded to odd in
/// float64 (a b is exact there; two-sum gives the error), then to T.
template <typename T> float fmaRef(float a, float b, float c) {
  if constexpr (std::is_same_v<T, float>) {
    return std::fma(a, b, c);
  } else {
    double p = double(a) * double(b), s = p + double(c);
    double pp = s - double(c), cc = s - pp;
    double err = (p - pp) + (double(c) - cc);
    uint64_t bits = std::bit_cast<uint64_t>(s);
    if (std::isfinite(s) && err != 0 && (bits & 1) == 0)
      s = std::bit_cast<double>(bits + ((err > 0) == (s > 0) ? 1 : -1));
    return roundTo<T>(s);
  }
}

} // namespace ktc::mathtest

#endif // KTC_TEST_UNIT_MATHTESTUTIL_H
