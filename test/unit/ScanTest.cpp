//===- ScanTest.cpp - cumsum, cumprod, associative_scan end to end --------===//
//
// The public API only, on Device("cpu") (or KTC_SHAPES_DEVICE's device, as
// HostShapeTest and DotTest): random data of odd sizes in power-of-two
// blocks (masked), outputs poisoned first. Integers are checked exactly
// against a sequential scan; floats bit for bit against the association
// order every target promises (canonicalScan, the butterfly of
// docs/builder.md#scans), and against a float64 reference within the bound
// that order gives.
//
//===----------------------------------------------------------------------===//

#include "ScanTestUtil.h"
#include "ktc/ktc.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

using namespace ktc;
using namespace ktc::scantest;

namespace {

void checkInt1d(int n, int block, Kind kind, bool reverse) {
  SCOPED_TRACE("n " + std::to_string(n) + " block " + std::to_string(block) +
               " kind " + std::to_string(kind) + (reverse ? " reverse" : ""));
  std::vector<int32_t> hx = randomData<int32_t>(n, n * 31 + kind);
  if (kind == Prod)
    for (int32_t &v : hx)
      v = v % 7; // some zeros, small products that still wrap
  const int32_t poison = 0x7eadbeef;
  Buffer<int32_t> x(testDevice(), hx),
      y(testDevice(), std::vector<int32_t>(block + 16, poison));
  static auto kernel = Kernel("scan_int1d", scan1d<int32_t>);
  kernel.launch({1}, x, y, n, block, int(kind), int(reverse));
  std::vector<int32_t> got = y.to_host();
  for (int i = 0; i < n; ++i) {
    int32_t ref = kind == Prod ? 1 : kind == Max ? INT32_MIN : 0;
    for (int j = reverse ? n - 1 : 0; reverse ? j >= i : j <= i;
         j += reverse ? -1 : 1)
      ref = kind == Sum    ? wrapAdd(ref, hx[j])
            : kind == Prod ? wrapMul(ref, hx[j])
                           : std::max(ref, hx[j]);
    ASSERT_EQ(got[i], ref) << "at " << i;
  }
  for (size_t e = n; e < got.size(); ++e)
    ASSERT_EQ(got[e], poison) << "written past n at " << e;
}

TEST(Scan, IntegerOddSizes1d) {
  for (Kind kind : {Sum, Prod, Max})
    for (bool reverse : {false, true}) {
      checkInt1d(1, 1024, kind, reverse);
      checkInt1d(17, 1024, kind, reverse);
      checkInt1d(1000, 1024, kind, reverse);
      checkInt1d(1, 1, kind, reverse);
      checkInt1d(29, 32, kind, reverse);
    }
}

/// f32 cumsum: the documented order's bits, and the float64 sum within
/// (2 log2(block) + 1) u of the sum of magnitudes (each prefix is a tree of
/// that depth at most).
void checkFloat1d(int n, int block, bool reverse, int warps = 4) {
  SCOPED_TRACE("n " + std::to_string(n) + " block " + std::to_string(block) +
               (reverse ? " reverse" : "") + " warps " + std::to_string(warps));
  std::vector<float> hx = randomData<float>(n, n * 17 + reverse);
  const float poison = 1234.5f;
  Buffer<float> x(testDevice(), hx),
      y(testDevice(), std::vector<float>(block + 16, poison));
  static auto kernel = Kernel("scan_f32_1d", scan1d<float>);
  kernel.launch({1}, x, y, n, block, int(Sum), int(reverse),
                Options{.num_warps = warps});
  std::vector<float> got = y.to_host();
  std::vector<float> order = canonicalScan(
      padded(hx, block, 0.0f), reverse, [](float a, float b) { return a + b; });
  double depth = 2 * std::log2(double(block)) + 1;
  for (int i = 0; i < n; ++i) {
    double ref = 0, magnitude = 0;
    for (int j = reverse ? i : 0; j < (reverse ? n : i + 1); ++j)
      ref += hx[j], magnitude += std::fabs(hx[j]);
    ASSERT_LE(std::fabs(got[i] - ref), depth * std::ldexp(magnitude, -24))
        << "at " << i << ": " << got[i] << " for " << ref;
    ASSERT_EQ(bitsOf(got[i]), bitsOf(order[i]))
        << "at " << i << ": " << got[i] << " for " << order[i];
  }
  for (size_t e = n; e < got.size(); ++e)
    ASSERT_EQ(bitsOf(got[e]), bitsOf(poison)) << "written past n at " << e;
}

TEST(Scan, FloatCumsum1d) {
  for (bool reverse : {false, true}) {
    checkFloat1d(1, 1024, reverse);
    checkFloat1d(17, 1024, reverse);
    checkFloat1d(1000, 1024, reverse);
    checkFloat1d(100, 128, reverse);
  }
  // The same bits whatever the waves (and on GPUs, the lanes) hold.
  for (int warps : {1, 2, 8})
    checkFloat1d(1000, 1024, true, warps);
}

template <typename T>
void check2d(int R, int C, int BR, int BC, int axis, Kind kind, bool reverse) {
  SCOPED_TRACE(std::to_string(R) + "x" + std::to_string(C) + " in " +
               std::to_string(BR) + "x" + std::to_string(BC) + " axis " +
               std::to_string(axis) + " kind " + std::to_string(kind) +
               (reverse ? " reverse" : ""));
  std::vector<T> hx = randomData<T>(size_t(R) * C, R * 7 + C + axis);
  if constexpr (!std::is_same_v<T, float>)
    if (kind == Prod)
      for (T &v : hx)
        v = v % 5;
  const T poison = T(0x5eadbeef);
  Buffer<T> x(testDevice(), hx),
      y(testDevice(), std::vector<T>(size_t(R) * C + 16, poison));
  static auto kernel = Kernel("scan_2d", scan2d<T>);
  kernel.launch({1}, x, y, R, C, BR, BC, axis, int(kind), int(reverse));
  std::vector<T> got = y.to_host();
  // Lines along the axis, padded to the block as the kernel pads them.
  int lines = axis == 0 ? C : R, len = axis == 0 ? R : C;
  int blockLen = axis == 0 ? BR : BC;
  for (int l = 0; l < lines; ++l) {
    auto idx = [&](int k) {
      return axis == 0 ? size_t(k) * C + l : size_t(l) * C + k;
    };
    std::vector<T> line;
    for (int k = 0; k < len; ++k)
      line.push_back(hx[idx(k)]);
    T fill = kind == Prod ? T(1) : T(0);
    std::vector<T> order = canonicalScan(
        padded(line, blockLen, fill), reverse, [&](T a, T b) {
          if constexpr (std::is_same_v<T, float>)
            return kind == Sum ? a + b : a * b;
          else
            return kind == Sum ? wrapAdd(a, b) : wrapMul(a, b);
        });
    for (int k = 0; k < len; ++k) {
      if constexpr (std::is_same_v<T, float>) {
        ASSERT_EQ(bitsOf(got[idx(k)]), bitsOf(order[k]))
            << "line " << l << " at " << k;
      } else {
        // Integers: a plain sequential scan (wrapping is associative).
        T ref = fill;
        for (int j = reverse ? len - 1 : 0; reverse ? j >= k : j <= k;
             j += reverse ? -1 : 1)
          ref = kind == Sum ? wrapAdd(ref, line[j]) : wrapMul(ref, line[j]);
        ASSERT_EQ(got[idx(k)], ref) << "line " << l << " at " << k;
        ASSERT_EQ(order[k], ref) << "line " << l << " at " << k;
      }
    }
  }
  for (size_t e = size_t(R) * C; e < got.size(); ++e)
    ASSERT_EQ(got[e], poison) << "written past the end at " << e;
}

TEST(Scan, TwoDimensionsEachAxis) {
  for (int axis : {0, 1})
    for (bool reverse : {false, true}) {
      check2d<int32_t>(13, 50, 16, 64, axis, Sum, reverse);
      check2d<int64_t>(5, 3, 8, 4, axis, Prod, reverse);
      check2d<float>(13, 50, 16, 64, axis, Sum, reverse);
      check2d<float>(31, 7, 32, 8, axis, Prod, reverse);
      check2d<int32_t>(1, 1, 1, 256, axis, Sum, reverse);
      check2d<int32_t>(100, 3, 128, 4, axis, Sum, reverse);
    }
}

/// cumsum along AXIS of a 4 x 8 x 16 block over a 3 x 5 x 11 array.
void scan3d(Ptr<int32_t> x, Ptr<int32_t> y, int AXIS, int REVERSE) {
  auto i = expand_dims(expand_dims(arange(0, 4), 1), 2);
  auto j = expand_dims(expand_dims(arange(0, 8), 0), 2);
  auto k = expand_dims(expand_dims(arange(0, 16), 0), 0);
  auto m = (i < 3) & (j < 5) & (k < 11);
  auto offs = i * 55 + j * 11 + k;
  store(y + offs, cumsum(load(x + offs, m, 0), AXIS, REVERSE), m);
}

TEST(Scan, ThreeDimensionsEachAxis) {
  const int dims[3] = {3, 5, 11};
  std::vector<int32_t> hx = randomData<int32_t>(3 * 5 * 11, 3);
  static auto kernel = Kernel("scan_3d", scan3d);
  for (int axis : {0, 1, 2})
    for (bool reverse : {false, true}) {
      SCOPED_TRACE("axis " + std::to_string(axis) + (reverse ? " reverse" : ""));
      Buffer<int32_t> x(testDevice(), hx),
          y(testDevice(), std::vector<int32_t>(3 * 5 * 11 + 16, -7));
      kernel.launch({1}, x, y, axis, int(reverse));
      std::vector<int32_t> got = y.to_host();
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 5; ++b)
          for (int c = 0; c < 11; ++c) {
            int at[3] = {a, b, c};
            int32_t ref = 0;
            for (int q = 0; q < dims[axis]; ++q) {
              if (reverse ? q < at[axis] : q > at[axis])
                continue;
              int p[3] = {a, b, c};
              p[axis] = q;
              ref = wrapAdd(ref, hx[p[0] * 55 + p[1] * 11 + p[2]]);
            }
            ASSERT_EQ(got[a * 55 + b * 11 + c], ref) << a << "," << b << "," << c;
          }
      for (size_t e = 3 * 5 * 11; e < got.size(); ++e)
        ASSERT_EQ(got[e], -7) << "written past the end at " << e;
    }
}

/// cumsum of booleans counts (i32); of bf16, in f32 rounded once an element.
void countAndHalf(Ptr<int32_t> x, Ptr<int32_t> count, Ptr<bfloat16> h,
                  Ptr<bfloat16> hs, Int n, int BLOCK) {
  auto offs = arange(0, BLOCK);
  auto m = offs < n;
  store(count + offs, cumsum(load(x + offs, m, 0) > 0), m);
  store(hs + offs, cumsum(load(h + offs, m, 0)), m);
}

TEST(Scan, BooleansCountAndBf16RoundsOnce) {
  const int n = 300, block = 512;
  std::vector<int32_t> hx = randomData<int32_t>(n, 9);
  std::vector<float> hf = randomData<float>(n, 10);
  std::vector<bfloat16> hh(n);
  for (int i = 0; i < n; ++i)
    hh[i].bits = bf16Round(hf[i]);
  Buffer<int32_t> x(testDevice(), hx),
      count(testDevice(), std::vector<int32_t>(block, -1));
  Buffer<bfloat16> h(testDevice(), hh),
      hs(testDevice(), std::vector<bfloat16>(block, bfloat16{0x7fc1}));
  static auto kernel = Kernel("scan_count_bf16", countAndHalf);
  kernel.launch({1}, x, count, h, hs, n, block);
  std::vector<int32_t> gotCount = count.to_host();
  std::vector<bfloat16> gotHalf = hs.to_host();
  std::vector<float> wide(block, 0.0f);
  for (int i = 0; i < n; ++i)
    wide[i] = bf16Value(hh[i]);
  std::vector<float> order =
      canonicalScan(wide, false, [](float a, float b) { return a + b; });
  int32_t c = 0;
  for (int i = 0; i < n; ++i) {
    c += hx[i] > 0;
    ASSERT_EQ(gotCount[i], c) << "at " << i;
    ASSERT_EQ(gotHalf[i].bits, bf16Round(order[i])) << "at " << i;
  }
  for (int i = n; i < block; ++i) {
    ASSERT_EQ(gotCount[i], -1);
    ASSERT_EQ(gotHalf[i].bits, 0x7fc1);
  }
}

} // namespace
