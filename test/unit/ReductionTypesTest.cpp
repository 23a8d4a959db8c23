//===- ReductionTypesTest.cpp - reductions of other types, errors ---------===//
//
// The public API only, on Device("cpu") (or KTC_SHAPES_DEVICE's device, as
// ReductionsTest): argmax/argmin of f16 and bf16 blocks (ties, a NaN, all
// NaN), argmax/xor_sum/a custom sum of i64 blocks (64-bit values between
// threads on GPUs), several blocks reduced together with a user's combine,
// the shapes keep_dims and all_axes give, and the misuse errors pinned at
// the user's line.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"
#include "ktc/ktc.h"
#include "TestDevice.h"

#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <cstring>
#include <random>

using namespace ktc;

namespace {

using test::testDevice;

int at = 0;

/// argmax's (greater) or argmin's choice between (a, ia) and (b, ib): NaN
/// beats numbers, NaNs tie, ties go to the first index.
bool firstWins(bool greater, float a, int ia, float b, int ib) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && (!std::isnan(b) || ia < ib);
  if (a == b)
    return ia < ib;
  return greater ? a > b : a < b;
}

/// Two blocks reduced together: a user's argmin of |x| with its index and
/// the count of elements (a wrapping sum of ones).
void minAbs(Ptr<float> x, Ptr<float> outv, Ptr<int32_t> outi, Int n, int B) {
  auto offs = arange(0, B);
  auto mask = offs < n;
  auto v = abs(load(x + offs, mask, INFINITY));
  auto ones = where(mask, 1, 0);
  std::vector<Value> r = reduce(
      {v, offs, ones}, 0,
      [](const std::vector<Value> &a, const std::vector<Value> &b) {
        Value take = (a[0] < b[0]) | ((a[0] == b[0]) & (a[1] < b[1]));
        return std::vector<Value>{where(take, a[0], b[0]),
                                  where(take, a[1], b[1]), a[2] + b[2]};
      });
  store(outv, r[0]);
  store(outi, r[1]);
  store(outi + 1, r[2]);
}

TEST(Reductions, SeveralBlocksTogether) {
  for (auto nb : std::vector<std::pair<int, int>>{
           {1000, 1024}, {1, 1}, {33, 64}}) {
    int n = nb.first, B = nb.second;
    std::mt19937_64 gen(n);
    std::vector<float> hx(n);
    for (float &f : hx)
      f = float(int(gen() % 41) - 20) * 0.25f;
    Buffer<float> x(testDevice(), hx);
    Buffer<float> ov(testDevice(), std::vector<float>(17, -99.0f));
    Buffer<int32_t> oi(testDevice(), std::vector<int32_t>(18, -99));
    static auto k = Kernel("min_abs", minAbs);
    k.launch({1}, x, ov, oi, n, B);
    int best = 0;
    for (int i = 1; i < n; ++i)
      if (std::fabs(hx[i]) < std::fabs(hx[best]))
        best = i;
    std::vector<float> gv = ov.to_host();
    std::vector<int32_t> gi = oi.to_host();
    EXPECT_EQ(gv[0], std::fabs(hx[best])) << n;
    EXPECT_EQ(gi[0], best) << n;
    EXPECT_EQ(gi[1], n) << n;
    for (int e = 1; e < 17; ++e)
      EXPECT_EQ(gv[e], -99.0f);
    for (int e = 2; e < 18; ++e)
      EXPECT_EQ(gi[e], -99);
  }
}

/// argmax/argmin of a 16-bit float block, and argmax/xor_sum/max of an
/// i64 one (values moved between threads as 32-bit halves on GPUs).
template <typename T>
void argmax16(Ptr<T> x, Ptr<int32_t> outi, Int n, int B) {
  auto offs = arange(0, B);
  auto mask = offs < n;
  auto v = load(x + offs, mask);
  store(outi, argmax(where(mask, v, -INFINITY)));
  store(outi + 1 + arange(0, 1), argmin(where(mask, v, INFINITY), 0, true));
}
void wide(Ptr<int64_t> x, Ptr<int64_t> outv, Ptr<int32_t> outi, Int n,
          int B) {
  auto offs = arange(0, B);
  auto mask = offs < n;
  auto v = load(x + offs, mask, 0);
  store(outi, argmax(where(mask, v, INT64_MIN)));
  store(outv, xor_sum(v));
  store(outv + 1, reduce(v, 0, [](Value a, Value b) { return a + b; }));
}

float valueOf(half h) {
  uint32_t sign = uint32_t(h.bits >> 15) << 31, exp = (h.bits >> 10) & 31,
           man = h.bits & 1023, bits;
  if (exp == 31)
    bits = sign | 0x7f800000 | man << 13;
  else if (exp == 0)
    return (sign ? -1 : 1) * std::ldexp(float(man), -24);
  else
    bits = sign | (exp + 112) << 23 | man << 13;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
float valueOf(bfloat16 b) {
  uint32_t bits = uint32_t(b.bits) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

template <typename T> void check16(uint16_t nanBits) {
  static auto k = Kernel("argmax16", argmax16<T>);
  for (int n : {1000, 31, 1}) {
    int B = int(next_pow2(n));
    std::mt19937_64 gen(n);
    for (int variant = 0; variant < 3; ++variant) {
      std::vector<T> hx(n);
      for (T &x : hx) // few distinct values: ties
        x = T{uint16_t((gen() % 2) << 15 | (std::is_same_v<T, half>
                                                ? 0x3c00 + (gen() % 4) * 0x100
                                                : 0x3f80 + (gen() % 4) * 0x10))};
      if (variant == 1 && n > 3)
        hx[n / 3].bits = hx[n - 1].bits = nanBits; // the first NaN wins
      if (variant == 2)
        for (T &x : hx)
          x.bits = uint16_t(nanBits | 0x8000) ; // all NaN (negative)
      Buffer<T> x(testDevice(), hx);
      Buffer<int32_t> oi(testDevice(), std::vector<int32_t>(18, -5));
      k.launch({1}, x, oi, n, B);
      std::vector<int32_t> got = oi.to_host();
      int best[2] = {0, 0};
      for (int i = 1; i < n; ++i)
        for (int g = 0; g < 2; ++g)
          if (firstWins(g == 0, valueOf(hx[i]), i, valueOf(hx[best[g]]),
                        best[g]))
            best[g] = i;
      EXPECT_EQ(got[0], best[0]) << n << " variant " << variant;
      EXPECT_EQ(got[1], best[1]) << n << " variant " << variant;
      for (int e = 2; e < 18; ++e)
        EXPECT_EQ(got[e], -5);
    }
  }
}

TEST(Reductions, SixteenBitFloatsAndI64) {
  check16<half>(0x7e00);
  check16<bfloat16>(0x7fc0);
  static auto k = Kernel("wide", wide);
  for (int n : {1000, 5}) {
    int B = int(next_pow2(n));
    std::mt19937_64 gen(n + 1);
    std::vector<int64_t> hx(n);
    for (int64_t &x : hx)
      x = int64_t(gen() % 7) << 40 | int64_t(gen() % 3) << 33 | int64_t(gen() % 5);
    hx[n / 2] = INT64_MAX, hx[n - 1] = INT64_MAX; // a tie at the top
    Buffer<int64_t> x(testDevice(), hx);
    Buffer<int64_t> ov(testDevice(), std::vector<int64_t>(18, -9));
    Buffer<int32_t> oi(testDevice(), std::vector<int32_t>(17, -9));
    k.launch({1}, x, ov, oi, n, B);
    int64_t xr = 0;
    uint64_t sum = 0;
    int best = 0;
    for (int i = 0; i < n; ++i) {
      xr ^= hx[i], sum += uint64_t(hx[i]);
      if (hx[i] > hx[best])
        best = i;
    }
    std::vector<int64_t> gv = ov.to_host();
    std::vector<int32_t> gi = oi.to_host();
    EXPECT_EQ(gi[0], best) << n;
    EXPECT_EQ(gv[0], xr) << n;
    EXPECT_EQ(gv[1], int64_t(sum)) << n;
    for (int e = 2; e < 18; ++e)
      EXPECT_EQ(gv[e], -9);
    for (int e = 1; e < 17; ++e)
      EXPECT_EQ(gi[e], -9);
  }
}

TEST(Reductions, OtherTypesCompileForGpus) {
  auto k16 = Kernel("argmax16_gpu", argmax16<bfloat16>);
  auto k64 = Kernel("wide_gpu", wide);
  for (const char *target : {"sm_90", "gfx942"}) {
    EXPECT_FALSE(k16.emit("asm", target, 1024).empty());
    EXPECT_FALSE(k64.emit("asm", target, 1024).empty());
  }
}

TEST(Reductions, KeepDimsShapes) {
  auto k = Kernel("shapes", [](Ptr<float> p) {
    auto t = load(p + expand_dims(arange(0, 4), 1) * 8 +
                  expand_dims(arange(0, 8), 0));
    auto expect = [](Value v, std::vector<int64_t> s) {
      if (v.shape() != s)
        throw Error("wrong shape " + v.type_str());
    };
    expect(sum(t), {});
    expect(sum(t, all_axes, true), {1, 1});
    expect(max(t, 1, true), {4, 1});
    expect(argmin(t, 0, true), {1, 8});
    expect(argmax(t), {});
    expect(xor_sum(t.to(DType::i32), 0), {8});
    expect(reduce(t, all_axes, [](Value a, Value b) { return a + b; }, true),
           {1, 1});
    if (argmax(t, 1).dtype() != DType::i32)
      throw Error("argmax is not i32");
  });
  EXPECT_NO_THROW(k.mlir());
}

void expectError(const std::function<void()> &trace,
                 const std::string &message) {
  test::expectErrorAt(trace, message, __FILE__, at);
}
template <typename F> void expectKernelError(F fn, const std::string &msg) {
  expectError([&] { Kernel("k", fn).mlir(); }, msg);
}

TEST(Reductions, Errors) {
  expectKernelError([](Ptr<float> p) {
    auto x = load(p + arange(0, 8));
    at = __LINE__; argmax(x, 1);
  }, "argmax() axis 1 is out of range for a rank-1 block");
  expectKernelError([](Ptr<float> p) {
    auto x = load(p + arange(0, 8));
    at = __LINE__; sum(x, -1, true);
  }, "sum() axis -1 is out of range for a rank-1 block");
  expectKernelError([](Ptr<float> p) {
    auto x = load(p + arange(0, 8));
    at = __LINE__; xor_sum(x);
  }, "xor_sum() needs an integer block, got tensor<8xf32>");
  expectKernelError([](Ptr<float> p) {
    at = __LINE__; argmin(load(p));
  }, "argmin() reduces a block, got the scalar f32");
  expectKernelError([](Ptr<float> p) {
    auto x = load(p + arange(0, 8));
    at = __LINE__; reduce(x, 0, [](Value a, Value) { return a.to(DType::i32); });
  }, "reduce(): the combine function must return f32 (the block's element "
     "type), got i32");
  expectKernelError([](Ptr<float> p) {
    auto x = load(p + arange(0, 8));
    at = __LINE__; reduce({x, x}, 0, [](const std::vector<Value> &a,
                                        const std::vector<Value> &) {
      return std::vector<Value>{a[0]};
    });
  }, "reduce(): the combine function returns 1 values for 2 reduced blocks");
  expectKernelError([](Ptr<float> p) {
    auto x = load(p + arange(0, 8));
    auto y = load(p);
    at = __LINE__; reduce(x, 0, [&](Value a, Value b) { return a + b * y; });
  }, "reduce(): the combine function uses a value from outside it (f32); it "
     "may only compute from its arguments");
  expectKernelError([](Ptr<float> p) {
    auto x = load(p + arange(0, 8));
    at = __LINE__; reduce(x, 0, [&](Value a, Value) { return x; });
  }, "reduce(): the combine function must return f32 (the block's element "
     "type), got tensor<8xf32>");
  expectKernelError([](Ptr<float> p) {
    auto x = load(p + arange(0, 8));
    auto y = load(p + arange(0, 16));
    at = __LINE__; reduce({x, y}, 0, [](const std::vector<Value> &a,
                                        const std::vector<Value> &) {
      return a;
    });
  }, "reduce() reduces blocks of one shape, got tensor<8xf32> and "
     "tensor<16xf32>");
  expectKernelError([](Ptr<float> p) {
    auto x = load(p + arange(0, 8));
    Var v = 0.0f;
    at = __LINE__; reduce(x, 0, [&](Value a, Value b) {
      v = a;
      return a + b;
    });
  }, "reduce(): the combine function assigns a ktc::Var declared outside "
     "it; a combine computes only from its arguments");
}

} // namespace
