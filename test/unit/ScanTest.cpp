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

#include "ExpectError.h"
#include "ktc/ktc.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

using namespace ktc;

namespace {

Device &testDevice() {
  const char *name = std::getenv("KTC_SHAPES_DEVICE");
  return Device::get(name && *name ? name : "cpu");
}

int at = 0; // the line an error must point to (set while tracing)

void expectErrorAt(const std::function<void()> &f, const std::string &message) {
  test::expectErrorAt(f, message, __FILE__, at);
}

uint32_t bitsOf(float f) {
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

float bf16Value(bfloat16 b) {
  uint32_t u = uint32_t(b.bits) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint16_t bf16Round(float f) { // nearest even; finite values
  uint32_t u = bitsOf(f);
  return uint16_t((u + 0x7fff + ((u >> 16) & 1)) >> 16);
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

/// A first-order linear recurrence h[i] = a[i] h[i-1] + b[i] as a scan of
/// pairs (Triton's test): (a1, b1) then (a2, b2) is (a1 a2, b1 a2 + b2).
void recurrence(Ptr<float> a, Ptr<float> b, Ptr<float> h, Int n, int BLOCK,
                int REVERSE) {
  auto offs = arange(0, BLOCK);
  auto m = offs < n;
  auto r = associative_scan(
      {load(a + offs, m, 1.0f), load(b + offs, m, 0.0f)}, 0,
      [](const std::vector<Value> &l, const std::vector<Value> &r) {
        return std::vector<Value>{l[0] * r[0], l[1] * r[0] + r[1]};
      },
      REVERSE);
  store(h + offs, r[1], m);
}

TEST(Scan, LinearRecurrencePairs) {
  for (bool reverse : {false, true})
    for (int n : {1, 17, 1000}) {
      SCOPED_TRACE("n " + std::to_string(n) + (reverse ? " reverse" : ""));
      const int block = 1024;
      std::vector<float> ha = randomData<float>(n, n), hb = randomData<float>(n, n + 1);
      for (float &v : ha)
        v = v / 4; // |a| <= 1: the recurrence stays bounded
      Buffer<float> a(testDevice(), ha), b(testDevice(), hb),
          h(testDevice(), std::vector<float>(block + 16, 99.0f));
      static auto kernel = Kernel("scan_recurrence", recurrence);
      kernel.launch({1}, a, b, h, n, block, int(reverse));
      std::vector<float> got = h.to_host();
      using P = std::pair<float, float>;
      std::vector<P> line(block, P{1.0f, 0.0f});
      for (int i = 0; i < n; ++i)
        line[i] = {ha[i], hb[i]};
      std::vector<P> order = canonicalScan(line, reverse, [](P l, P r) {
        float x = l.first * r.first, y = l.second * r.first;
        return P{x, y + r.second};
      });
      for (int i = 0; i < n; ++i) {
        // The recurrence in float64, sequentially.
        double ref = 0;
        for (int j = reverse ? n - 1 : 0; reverse ? j >= i : j <= i;
             j += reverse ? -1 : 1)
          ref = double(ha[j]) * ref + hb[j];
        ASSERT_NEAR(got[i], ref, 1e-4 * (1 + std::fabs(ref))) << "at " << i;
        ASSERT_EQ(bitsOf(got[i]), bitsOf(order[i].second)) << "at " << i;
      }
      for (size_t e = n; e < got.size(); ++e)
        ASSERT_EQ(got[e], 99.0f) << "written past n at " << e;
    }
}

TEST(Scan, FloatMaxScanIgnoresNaN) {
  const int n = 77, block = 128;
  std::vector<float> hx = randomData<float>(n, 5);
  hx[3] = NAN;
  Buffer<float> x(testDevice(), hx), y(testDevice(), std::vector<float>(block, 7.0f));
  static auto kernel = Kernel("scan_fmax", scan1d<float>);
  kernel.launch({1}, x, y, n, block, int(Max), 0);
  std::vector<float> got = y.to_host();
  float m = -INFINITY;
  for (int i = 0; i < n; ++i) {
    m = std::fmax(m, hx[i]);
    ASSERT_EQ(bitsOf(got[i]), bitsOf(m)) << "at " << i;
  }
}

/// Scans of a dot's result (the matrix cores' layouts on GPUs) along each
/// axis, and of its column sums (a slice layout): small integers in f16,
/// so every sum is exact and the reference is too.
void dotScans(Ptr<half> a, Ptr<float> rows, Ptr<float> cols, Ptr<float> tot) {
  auto r = expand_dims(arange(0, 32), 1), c = expand_dims(arange(0, 32), 0);
  auto x = load(a + r * 32 + c);
  auto d = dot(x, x);
  store(rows + r * 32 + c, cumsum(d, 1));
  store(cols + r * 32 + c, cumsum(d, 0, true));
  store(tot + arange(0, 32), cumsum(sum(d, 0), 0));
}

TEST(Scan, OfADotAndOfASlice) {
  std::mt19937_64 gen(11);
  std::vector<half> ha(32 * 32);
  std::vector<int> v(32 * 32);
  for (int i = 0; i < 32 * 32; ++i) {
    v[i] = int(gen() % 7) - 3; // f16 bits of -3 .. 3
    float f = float(v[i]);
    uint32_t u = bitsOf(f);
    ha[i].bits = f == 0 ? 0 : uint16_t((u >> 16 & 0x8000) | (((u >> 23 & 255) - 112) << 10) | (u >> 13 & 1023));
  }
  Buffer<half> a(testDevice(), ha);
  Buffer<float> rows(testDevice(), 32 * 32), cols(testDevice(), 32 * 32), tot(testDevice(), 32);
  static auto kernel = Kernel("scan_dot", dotScans);
  kernel.launch({1}, a, rows, cols, tot);
  std::vector<float> gr = rows.to_host(), gc = cols.to_host(), gt = tot.to_host();
  std::vector<long> d(32 * 32, 0);
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j)
      for (int k = 0; k < 32; ++k)
        d[i * 32 + j] += long(v[i * 32 + k]) * v[k * 32 + j];
  long running = 0;
  for (int j = 0; j < 32; ++j) {
    long col = 0;
    for (int i = 31; i >= 0; --i) {
      col += d[i * 32 + j];
      ASSERT_EQ(gc[i * 32 + j], float(col)) << i << "," << j;
    }
    running += col;
    ASSERT_EQ(gt[j], float(running)) << j;
  }
  for (int i = 0; i < 32; ++i) {
    long row = 0;
    for (int j = 0; j < 32; ++j) {
      row += d[i * 32 + j];
      ASSERT_EQ(gr[i * 32 + j], float(row)) << i << "," << j;
    }
  }
}

/// Errors at the user's line.
void badScans(Ptr<float> x, Ptr<int32_t> y, int WHICH) {
  auto v = load(x + arange(0, 16));
  auto w = load(y + arange(0, 16));
  auto add = [](Value a, Value b) { return a + b; };
  // clang-format off
  switch (WHICH) {
  case 0: at = __LINE__; cumsum(v, 1); break;
  case 1: at = __LINE__; cumprod(v, -1); break;
  case 2: at = __LINE__; cumsum(load(x)); break;
  case 3: at = __LINE__; cumsum(x + arange(0, 16)); break;
  case 4: at = __LINE__; associative_scan(v, 0, [](Value a, Value) { return a.to(DType::i32); }); break;
  case 5: at = __LINE__; associative_scan(v, 0, [&](Value a, Value) { return a + v; }); break;
  case 6: at = __LINE__; associative_scan(v, 0, [&](Value a, Value b) { return a + load(x); }); break;
  case 7: at = __LINE__; associative_scan({v, w}, 0, [](const std::vector<Value> &a, const std::vector<Value> &) { return std::vector<Value>{a[0]}; }); break;
  case 8: at = __LINE__; associative_scan({v, load(x + arange(0, 32))}, 0, [](const std::vector<Value> &a, const std::vector<Value> &) { return a; }); break;
  case 9: at = __LINE__; associative_scan(v, 2, add); break;
  }
  // clang-format on
  store(x + arange(0, 16), v);
}

TEST(Scan, ErrorsAtTheCallersLine) {
  auto k = Kernel("bad_scans", badScans);
  auto expect = [&](int which, const std::string &message) {
    expectErrorAt([&] { k.mlir(which); }, message);
  };
  expect(0, "cumsum() axis 1 is out of range for a rank-1 block");
  expect(1, "cumprod() axis -1 is out of range for a rank-1 block");
  expect(2, "cumsum() scans a block, got the scalar f32");
  expect(3, "cumsum() cannot scan pointers");
  expect(4, "associative_scan(): the combine function must return f32 (a "
            "scalar of the element type), got i32");
  expect(5, "associative_scan(): the combine function must return f32 (a "
            "scalar of the element type), got tensor<16xf32>");
  expect(6, "associative_scan(): the combine function may use only its "
            "arguments and literals, not a value of the kernel "
            "(!ktc.ptr<f32>)");
  expect(7, "associative_scan(): the combine function returned 1 values for "
            "2 blocks");
  expect(8, "associative_scan() scans blocks of one shape, got "
            "tensor<16xf32> and tensor<32xf32>");
  expect(9, "associative_scan() axis 2 is out of range for a rank-1 block");
}

/// Without promotion: a running "or" of booleans (i1 moved between lanes
/// and waves) and a running maximum of bf16 (16-bit moves). Last in the
/// file: the gfx942 emulator stops on its s_bitcmp1_b32 (an instruction it
/// lacks), and a stopped kernel fails the launches after it in the process.
void orAndHalfMax(Ptr<int32_t> x, Ptr<bfloat16> h, Ptr<int32_t> any,
                  Ptr<bfloat16> hmax, Int n, int BLOCK) {
  auto offs = arange(0, BLOCK);
  auto m = offs < n;
  auto big = load(x + offs, m, 0) > 2000000000;
  store(any + offs,
        associative_scan(big, 0, [](Value a, Value b) { return a | b; }), m);
  store(hmax + offs,
        associative_scan(load(h + offs, m, 0), 0,
                         [](Value a, Value b) { return maximum(a, b); }),
        m);
}

TEST(Scan, BooleanOrAndBf16Max) {
  const int n = 300, block = 512;
  std::vector<int32_t> hx = randomData<int32_t>(n, 9);
  std::vector<float> hf = randomData<float>(n, 10);
  std::vector<bfloat16> hh(n);
  for (int i = 0; i < n; ++i)
    hh[i].bits = bf16Round(hf[i]);
  Buffer<int32_t> x(testDevice(), hx),
      any(testDevice(), std::vector<int32_t>(block, -1));
  Buffer<bfloat16> h(testDevice(), hh),
      hmax(testDevice(), std::vector<bfloat16>(block, bfloat16{0x7fc1}));
  static auto kernel = Kernel("scan_or_bf16max", orAndHalfMax);
  kernel.launch({1}, x, h, any, hmax, n, block);
  std::vector<int32_t> gotAny = any.to_host();
  std::vector<bfloat16> gotMax = hmax.to_host();
  int32_t seen = 0;
  float hm = -INFINITY;
  for (int i = 0; i < n; ++i) {
    seen |= hx[i] > 2000000000;
    hm = std::fmax(hm, bf16Value(hh[i]));
    ASSERT_EQ(gotAny[i], seen) << "at " << i;
    ASSERT_EQ(bf16Value(gotMax[i]), hm) << "at " << i;
  }
  for (int i = n; i < block; ++i) {
    ASSERT_EQ(gotAny[i], -1);
    ASSERT_EQ(gotMax[i].bits, 0x7fc1);
  }
}

} // namespace
