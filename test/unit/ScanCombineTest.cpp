//===- ScanCombineTest.cpp - scans with combines of the user's own ---------===//
//
// Like ScanTest.cpp (and on the same device): associative_scan with a pair
// combine (a first-order linear recurrence, as Triton's tests), a NaN-
// ignoring max, scans of a dot's result and of a reduction, the errors at
// the caller's line, and boolean and bf16 combines.
//
//===----------------------------------------------------------------------===//


#include "ExpectError.h"
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

int at = 0; // the line an error must point to (set while tracing)

void expectErrorAt(const std::function<void()> &f, const std::string &message) {
  test::expectErrorAt(f, message, __FILE__, at);
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
