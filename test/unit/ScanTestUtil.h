//===- ScanTestUtil.h - what the scan tests share ----------------*- C++ -*-===//
//
// The device the scan tests run on, the scan order every target computes
// (canonicalScan), the 1-D scan kernel, random data and bf16 helpers:
// shared by ScanTest.cpp and ScanCombineTest.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_TEST_UNIT_SCANTESTUTIL_H
#define KTC_TEST_UNIT_SCANTESTUTIL_H

#include "ktc/ktc.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

namespace ktc::scantest {

inline Device &testDevice() {
  const char *name = std::getenv("KTC_SHAPES_DEVICE");
  return Device::get(name && *name ? name : "cpu");
}


inline uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

/// The scan every target computes, on a power-of-two line: in scan order,
/// for s = 1, 2, 4, ..., the later group of each aligned pair takes the
/// earlier group's total on its left; the pair's total is the earlier's
/// combined with the later's.
template <typename V, typename F>
std::vector<V> canonicalScan(std::vector<V> x, bool reverse, F combine) {
  size_t n = x.size();
  if (reverse)
    std::reverse(x.begin(), x.end());
  std::vector<V> p = x, t = x;
  for (size_t s = 1; s < n; s *= 2)
    for (size_t lo = 0; lo < n; lo += 2 * s) {
      for (size_t j = 0; j < s; ++j)
        p[lo + s + j] = combine(t[lo], p[lo + s + j]);
      t[lo] = combine(t[lo], t[lo + s]);
    }
  if (reverse)
    std::reverse(p.begin(), p.end());
  return p;
}

enum Kind { Sum = 0, Prod = 1, Max = 2 };

/// y = scan(x) over a 1-D block of BLOCK, the first n elements real.
template <typename T>
void scan1d(Ptr<T> x, Ptr<T> y, Int n, int BLOCK, int KIND, int REVERSE) {
  auto offs = arange(0, BLOCK);
  auto m = offs < n;
  Value v;
  if (KIND == Max) {
    if constexpr (std::is_same_v<T, float>)
      v = load(x + offs, m, -INFINITY);
    else
      v = load(x + offs, m, INT32_MIN);
  } else {
    v = load(x + offs, m, KIND == Prod ? 1 : 0);
  }
  Value r = KIND == Sum    ? cumsum(v, 0, REVERSE)
            : KIND == Prod ? cumprod(v, 0, REVERSE)
                           : associative_scan(
                                 v, 0,
                                 [](Value a, Value b) { return maximum(a, b); },
                                 REVERSE);
  store(y + offs, r, m);
}

/// The same along AXIS of a BR x BC block over an R x C row-major array.
template <typename T>
void scan2d(Ptr<T> x, Ptr<T> y, Int R, Int C, int BR, int BC, int AXIS,
            int KIND, int REVERSE) {
  auto r = expand_dims(arange(0, BR), 1);
  auto c = expand_dims(arange(0, BC), 0);
  auto m = (r < R) & (c < C);
  auto v = load(x + r * C + c, m, KIND == Prod ? 1 : 0);
  store(y + r * C + c,
        KIND == Sum ? cumsum(v, AXIS, REVERSE) : cumprod(v, AXIS, REVERSE), m);
}

template <typename T> std::vector<T> randomData(size_t n, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::vector<T> v(n);
  for (T &x : v) {
    if constexpr (std::is_same_v<T, float>)
      x = std::uniform_real_distribution<float>(-4, 4)(gen);
    else
      x = T(gen()); // wraps: the full range
  }
  return v;
}

/// The padded line of BLOCK elements the kernel scans.
template <typename T>
std::vector<T> padded(const std::vector<T> &x, size_t block, T fill) {
  std::vector<T> v(block, fill);
  std::copy(x.begin(), x.end(), v.begin());
  return v;
}

template <typename T> T wrapAdd(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return T(U(a) + U(b));
}
template <typename T> T wrapMul(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return T(U(a) * U(b));
}

inline float bf16Value(bfloat16 b) {
  uint32_t u = uint32_t(b.bits) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline uint16_t bf16Round(float f) { // nearest even; finite values
  uint32_t u = bitsOf(f);
  return uint16_t((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}


} // namespace ktc::scantest

#endif // KTC_TEST_UNIT_SCANTESTUTIL_H
