//===- TypesTest.cpp - unsigned, 8/16-bit and f64 element types ----------===//
//
// The public API on Device("cpu") (or KTC_SHAPES_DEVICE's device): kernels
// on u32, i8/u8/i16 and f64 data checked exactly (integers) or to the last
// bits (f64) against references computed here, at odd sizes, outputs
// poisoned first. Unsigned values must divide, compare, shift, extend,
// convert and reduce as unsigned; mixed types promote as Triton does.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"
#include "ktc/ktc.h"
#include "TestDevice.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

using namespace ktc;

namespace {

using test::testDevice;

const int kSizes[] = {1, 37, 1000};

template <typename T> std::vector<T> poison(size_t n) {
  std::vector<T> v(n);
  std::memset(v.data(), 0x5A, n * sizeof(T));
  return v;
}

void unsignedOps(Ptr<uint32_t> x, Ptr<uint32_t> y, Ptr<uint32_t> q,
                 Ptr<uint32_t> r, Ptr<int32_t> lt, Ptr<uint32_t> mx,
                 Ptr<uint32_t> mn, Ptr<uint32_t> sh, Ptr<float> f,
                 Ptr<uint64_t> wide, Ptr<int32_t> big, Int n, int BLOCK) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  Value a = load(x + offs, mask);
  Value b = load(y + offs, mask);
  if (a.dtype() != DType::u32 || (a / b).dtype() != DType::u32 ||
      (a + 1).dtype() != DType::u32 || a.to(DType::i32).dtype() != DType::i32)
    throw Error("u32 lost its signedness");
  store(q + offs, a / b, mask);
  store(r + offs, a % b, mask);
  store(lt + offs, (a < b).to(DType::i32), mask);
  store(mx + offs, maximum(a, b), mask);
  store(mn + offs, minimum(a, b), mask);
  store(sh + offs, a >> (b % 40), mask);
  store(f + offs, a.to(DType::f32), mask);
  store(wide + offs, a.to(DType::u64), mask);
  store(big + offs, (a > 3000000000u).to(DType::i32), mask);
}

TEST(Types, UnsignedArithmeticCompareShiftConvert) {
  static auto kernel = Kernel("types_unsigned", unsignedOps);
  for (int n : kSizes) {
    SCOPED_TRACE("n " + std::to_string(n));
    std::mt19937 gen(n);
    std::vector<uint32_t> hx(n), hy(n);
    for (int i = 0; i < n; ++i) {
      hx[i] = gen();
      hy[i] = i % 7 == 0 ? 0 : i % 5 == 0 ? gen() >> (gen() % 32) : gen();
    }
    Device &d = testDevice();
    Buffer<uint32_t> x(d, hx), y(d, hy);
    Buffer<uint32_t> q(d, poison<uint32_t>(n)), r(d, poison<uint32_t>(n)),
        mx(d, poison<uint32_t>(n)), mn(d, poison<uint32_t>(n)),
        sh(d, poison<uint32_t>(n));
    Buffer<int32_t> lt(d, poison<int32_t>(n)), big(d, poison<int32_t>(n));
    Buffer<float> f(d, poison<float>(n));
    Buffer<uint64_t> wide(d, poison<uint64_t>(n));
    kernel.launch({unsigned(cdiv(n, 256))}, x, y, q, r, lt, mx, mn, sh, f,
                  wide, big, n, 256);
    auto hq = q.to_host(), hr = r.to_host(), hmx = mx.to_host(),
         hmn = mn.to_host(), hsh = sh.to_host();
    auto hlt = lt.to_host(), hbig = big.to_host();
    auto hf = f.to_host();
    auto hw = wide.to_host();
    for (int i = 0; i < n; ++i) {
      uint32_t a = hx[i], b = hy[i];
      SCOPED_TRACE(std::to_string(a) + ", " + std::to_string(b));
      EXPECT_EQ(hq[i], b ? a / b : UINT32_MAX);
      EXPECT_EQ(hr[i], b ? a % b : a);
      EXPECT_EQ(hlt[i], a < b ? 1 : 0);
      EXPECT_EQ(hmx[i], std::max(a, b));
      EXPECT_EQ(hmn[i], std::min(a, b));
      EXPECT_EQ(hsh[i], b % 40 < 32 ? a >> (b % 40) : 0u);
      EXPECT_EQ(hf[i], float(a));
      EXPECT_EQ(hw[i], uint64_t(a));
      EXPECT_EQ(hbig[i], a > 3000000000u ? 1 : 0);
    }
  }
}

void unsignedReduce(Ptr<uint32_t> x, Ptr<uint32_t> mx, Ptr<uint32_t> mn,
                    Ptr<int32_t> amx, Ptr<uint8_t> bytes, Ptr<uint32_t> bsum,
                    Int n, int BLOCK) {
  auto offs = arange(0, BLOCK);
  auto mask = offs < n;
  Value a = load(x + offs, mask, 0);
  store(mx, max(where(mask, a, 0u)));
  store(mn, min(where(mask, a, UINT32_MAX)));
  store(amx, argmax(where(mask, a, 0u)));
  Value s = sum(load(bytes + offs, mask, 0));
  if (s.dtype() != DType::u32)
    throw Error("a sum of u8 is u32");
  store(bsum, s);
}

TEST(Types, UnsignedReductions) {
  static auto kernel = Kernel("types_unsigned_reduce", unsignedReduce);
  for (int n : {1, 37, 1000}) {
    SCOPED_TRACE("n " + std::to_string(n));
    std::mt19937 gen(n + 5);
    std::vector<uint32_t> hx(n);
    std::vector<uint8_t> hb(n);
    for (int i = 0; i < n; ++i)
      hx[i] = gen() | (i % 3 ? 0x80000000u : 0), hb[i] = uint8_t(gen());
    Device &d = testDevice();
    Buffer<uint32_t> x(d, hx), mx(d, poison<uint32_t>(1)),
        mn(d, poison<uint32_t>(1)), bsum(d, poison<uint32_t>(1));
    Buffer<int32_t> amx(d, poison<int32_t>(1));
    Buffer<uint8_t> bytes(d, hb);
    kernel.launch({1}, x, mx, mn, amx, bytes, bsum, n, 1024);
    EXPECT_EQ(mx.to_host()[0], *std::max_element(hx.begin(), hx.end()));
    EXPECT_EQ(mn.to_host()[0], *std::min_element(hx.begin(), hx.end()));
    EXPECT_EQ(amx.to_host()[0],
              std::max_element(hx.begin(), hx.end()) - hx.begin());
    uint32_t total = 0;
    for (uint8_t b : hb)
      total += b;
    EXPECT_EQ(bsum.to_host()[0], total);
  }
}

void narrowOps(Ptr<int8_t> x, Ptr<uint8_t> u, Ptr<int16_t> h, Ptr<int32_t> w,
               Ptr<int32_t> mixed, Ptr<int8_t> prod, Ptr<int8_t> quot,
               Ptr<int32_t> ext, Ptr<uint8_t> umix, Ptr<int16_t> hs,
               Int n, int BLOCK) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  Value a = load(x + offs, mask);
  Value c = load(u + offs, mask);
  Value e = load(h + offs, mask);
  Value b = load(w + offs, mask);
  if ((a + b).dtype() != DType::i32 || (a * a).dtype() != DType::i8 ||
      (a + c).dtype() != DType::u8 || (c + b).dtype() != DType::i32 ||
      (a + e).dtype() != DType::i16)
    throw Error("promotion of narrow integers");
  store(mixed + offs, a + b, mask);
  store(prod + offs, a * a, mask);
  store(quot + offs, a / 3 + (a >> 1), mask);
  store(ext + offs, c.to(DType::i32) * 1000 + a.to(DType::i32), mask);
  store(umix + offs, a + c, mask);
  store(hs + offs, e * 3 - (e >> 2), mask);
}

TEST(Types, NarrowIntegersPromoteAsTriton) {
  static auto kernel = Kernel("types_narrow", narrowOps);
  for (int n : kSizes) {
    SCOPED_TRACE("n " + std::to_string(n));
    std::mt19937 gen(n + 11);
    std::vector<int8_t> hx(n);
    std::vector<uint8_t> hu(n);
    std::vector<int16_t> hh(n);
    std::vector<int32_t> hw(n);
    for (int i = 0; i < n; ++i)
      hx[i] = int8_t(gen()), hu[i] = uint8_t(gen()), hh[i] = int16_t(gen()),
      hw[i] = int32_t(gen());
    hx[0] = -128;
    Device &d = testDevice();
    Buffer<int8_t> x(d, hx), prod(d, poison<int8_t>(n)),
        quot(d, poison<int8_t>(n));
    Buffer<uint8_t> u(d, hu), umix(d, poison<uint8_t>(n));
    Buffer<int16_t> h(d, hh), hs(d, poison<int16_t>(n));
    Buffer<int32_t> w(d, hw), mixed(d, poison<int32_t>(n)),
        ext(d, poison<int32_t>(n));
    kernel.launch({unsigned(cdiv(n, 128))}, x, u, h, w, mixed, prod, quot,
                  ext, umix, hs, n, 128);
    auto rm = mixed.to_host(), re = ext.to_host();
    auto rp = prod.to_host(), rq = quot.to_host();
    auto ru = umix.to_host();
    auto rh = hs.to_host();
    for (int i = 0; i < n; ++i) {
      int8_t a = hx[i];
      uint8_t c = hu[i];
      EXPECT_EQ(rm[i], int32_t(uint32_t(a) + uint32_t(hw[i])));
      EXPECT_EQ(rp[i], int8_t(a * a));
      EXPECT_EQ(rq[i], int8_t(a / 3 + (a >> 1)));
      EXPECT_EQ(re[i], int32_t(c) * 1000 + a);
      EXPECT_EQ(ru[i], uint8_t(uint8_t(a) + c));
      EXPECT_EQ(rh[i], int16_t(hh[i] * 3 - (hh[i] >> 2)));
    }
  }
}

/// exp/log of f64 (on the GPUs too since issue 19's ExpandMathF64; this
/// test keeps its host-only check, MathF64Test measures them everywhere).
void f64Ops(Ptr<double> x, Ptr<double> y, Ptr<double> out, Ptr<double> ex,
            Ptr<double> total, Ptr<float> narrow, Int n, int BLOCK,
            bool HOST) {
  auto offs = arange(0, BLOCK);
  auto mask = offs < n;
  Value a = load(x + offs, mask, 1.0);
  Value b = load(y + offs, mask, 1.0);
  if ((a + b.to(DType::f32)).dtype() != DType::f64)
    throw Error("f64 with f32 is f64");
  store(out + offs, a * b + a / b - sqrt(b), mask);
  store(ex + offs, HOST ? exp(a) + log(b) : Value(a + b), mask);
  store(total, sum(where(mask, a * b, 0.0)));
  store(narrow + offs, a, mask);
}

TEST(Types, Float64) {
  static auto kernel = Kernel("types_f64", f64Ops);
  for (int n : {1, 37, 1000}) {
    SCOPED_TRACE("n " + std::to_string(n));
    std::mt19937_64 gen(n + 3);
    std::uniform_real_distribution<double> dist(0.001, 5.0);
    std::vector<double> hx(n), hy(n);
    for (int i = 0; i < n; ++i)
      hx[i] = dist(gen), hy[i] = dist(gen);
    Device &d = testDevice();
    Buffer<double> x(d, hx), y(d, hy), out(d, poison<double>(n)),
        ex(d, poison<double>(n)), total(d, poison<double>(1));
    Buffer<float> narrow(d, poison<float>(n));
    bool host = d.kind() == DeviceKind::CPU;
    kernel.launch({1}, x, y, out, ex, total, narrow, n, 1024, host);
    auto ho = out.to_host(), he = ex.to_host();
    auto hn = narrow.to_host();
    long double ref = 0, absSum = 0;
    for (int i = 0; i < n; ++i) {
      double a = hx[i], b = hy[i];
      EXPECT_EQ(ho[i], a * b + a / b - std::sqrt(b)); // each op rounded once
      if (host)
        EXPECT_NEAR(he[i], std::exp(a) + std::log(b),
                    4e-16 * (std::exp(a) + std::fabs(std::log(b))));
      else
        EXPECT_EQ(he[i], a + b);
      EXPECT_EQ(hn[i], float(a));
      ref += (long double)(a * b);
      absSum += std::fabs(a * b);
    }
    EXPECT_NEAR(total.to_host()[0], double(ref), 2e-16 * n * double(absSum));
  }
}

TEST(Types, BoolBuffersRoundTrip) {
  std::vector<bool> v = {true, false, false, true, true};
  Buffer<bool> b(testDevice(), v);
  EXPECT_EQ(b.to_host(), v);
}

} // namespace
