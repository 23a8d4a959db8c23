//===- DotScaledTest.cpp - dot_scaled of microscaled blocks ---------------===//
//
// dot_scaled (Triton's tl.dot_scaled) end to end, the public API only, on
// Device("cpu") (or KTC_SHAPES_DEVICE's device, as DotTest): a tiled
// matmul with a K loop over odd sizes (masked tails), the output poisoned
// first. The reference decodes every format from the OCP MX spec's
// definitions (sign, exponent, bias, subnormals, NaN codes) in float64,
// independently of the kernel's bit tricks, over random codes of the
// whole code space and scales that include 0, 127, 254 and 255. Without
// fast_math the kernel's dot is an f32 ieee dot, which every target sums
// as acc = fma(x[k], y[k], acc) from k = 0 up (DotTest), so the result must
// equal that, bit for bit, from the reference's scaled operands; and it is
// checked against the float64 sum as well. With fast_math the scaled
// operands are rounded to bf16 (f16) and the result is checked within the
// bound of f32 summation.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"
#include "ktc/ktc.h"
#include "TestDevice.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>

using namespace ktc;

namespace {

using test::testDevice;

int at = 0;

//===----------------------------------------------------------------------===//
// The OCP MX v1.0 element formats, decoded from their definitions
//===----------------------------------------------------------------------===//

double withSign(unsigned sign, double v) { return sign ? -v : v; }

/// FP4 E2M1: S.EE.M, bias 1; E = 0 is subnormal (0, 0.5); no inf or NaN.
double ocpE2M1(unsigned c) {
  unsigned s = c >> 3 & 1, e = c >> 1 & 3, m = c & 1;
  double v = e == 0 ? std::ldexp(m / 2.0, 0) : std::ldexp(1 + m / 2.0, e - 1);
  return withSign(s, v);
}
/// FP8 E4M3: S.EEEE.MMM, bias 7; S.1111.111 is NaN; no infinities.
double ocpE4M3(unsigned c) {
  unsigned s = c >> 7 & 1, e = c >> 3 & 15, m = c & 7;
  if (e == 15 && m == 7)
    return NAN;
  double v = e == 0 ? std::ldexp(m / 8.0, -6) : std::ldexp(1 + m / 8.0, e - 7);
  return withSign(s, v);
}
/// FP8 E5M2: S.EEEEE.MM, bias 15; E = 31: infinity (M = 0) or NaN.
double ocpE5M2(unsigned c) {
  unsigned s = c >> 7 & 1, e = c >> 2 & 31, m = c & 3;
  if (e == 31)
    return m ? NAN : withSign(s, INFINITY);
  double v =
      e == 0 ? std::ldexp(m / 4.0, -14) : std::ldexp(1 + m / 4.0, e - 15);
  return withSign(s, v);
}
/// IEEE-style binary formats of `ebits` exponent and `mbits` mantissa bits.
double ieee(unsigned c, int ebits, int mbits) {
  unsigned s = c >> (ebits + mbits) & 1, e = c >> mbits & ((1u << ebits) - 1),
           m = c & ((1u << mbits) - 1);
  int bias = (1 << (ebits - 1)) - 1;
  if (e == (1u << ebits) - 1)
    return m ? NAN : withSign(s, INFINITY);
  double f = std::ldexp(double(m), -mbits);
  return withSign(s, e == 0 ? std::ldexp(f, 1 - bias)
                            : std::ldexp(1 + f, int(e) - bias));
}
/// E8M0 scale: 2^(s - 127); 0xFF is NaN.
double ocpE8M0(unsigned s) {
  return s == 255 ? NAN : std::ldexp(1.0, int(s) - 127);
}

enum Fmt { E2M1, E4M3, E5M2, BF16, FP16 };
const char *kFormats[] = {"e2m1", "e4m3", "e5m2", "bf16", "fp16"};

double decodeCode(Fmt f, unsigned c) {
  switch (f) {
  case E2M1:
    return ocpE2M1(c);
  case E4M3:
    return ocpE4M3(c);
  case E5M2:
    return ocpE5M2(c);
  case BF16:
    return ieee(c, 8, 7);
  case FP16:
    return ieee(c, 5, 10);
  }
  return NAN;
}

float f32(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

/// Storage elements from their bits.
template <typename T> T fromBits(uint32_t b) {
  if constexpr (std::is_integral_v<T>)
    return T(b);
  else
    return T{decltype(T::bits)(b)};
}

//===----------------------------------------------------------------------===//
// The kernel: c = acc0 + dot_scaled over a K loop, BM x BN tiles a program
//===----------------------------------------------------------------------===//

enum Flags {
  kFast = 1,
  kLhsAlongM = 2, // lhs_k_pack = false
  kRhsAlongN = 4, // rhs_k_pack = false
  kNoLhsScale = 8,
  kNoRhsScale = 16,
};

template <typename TA, typename TB>
void scaledMatmul(Ptr<TA> a, Ptr<uint8_t> as, Ptr<TB> b, Ptr<uint8_t> bs,
                  Ptr<float> c, Int M, Int N, Int K, Float acc0, int fa,
                  int fb, int flags, int BM, int BN, int BK) {
  bool lk = !(flags & kLhsAlongM), rk = !(flags & kRhsAlongN);
  auto pm = program_id(0), pn = program_id(1);
  auto rm = expand_dims(pm * BM + arange(0, BM), 1);
  auto rn = expand_dims(pn * BN + arange(0, BN), 0);
  auto rnCol = expand_dims(pn * BN + arange(0, BN), 1);
  Var acc = full({BM, BN}, acc0, DType::f32);
  for_range(0, K, BK, [&](Value k) {
    Value x, y;
    auto ka = expand_dims(k + arange(0, BK), 0); // 1 x BK
    auto kb = expand_dims(k + arange(0, BK), 1); // BK x 1
    if (fa == E2M1 && lk) { // M x K/2 bytes
      auto kk = expand_dims(k / 2 + arange(0, BK / 2), 0);
      x = load(a + rm * (K / 2) + kk, (rm < M) & (kk < K / 2), 0);
    } else if (fa == E2M1) { // M/2 x K bytes
      auto pr = expand_dims(pm * (BM / 2) + arange(0, BM / 2), 1);
      x = load(a + pr * K + ka, (pr < (M + 1) / 2) & (ka < K), 0);
    } else {
      x = load(a + rm * K + ka, (rm < M) & (ka < K), 0);
    }
    if (fb == E2M1 && rk) { // K/2 x N bytes
      auto kk = expand_dims(k / 2 + arange(0, BK / 2), 1);
      y = load(b + kk * N + rn, (kk < K / 2) & (rn < N), 0);
    } else if (fb == E2M1) { // K x N/2 bytes
      auto pc = expand_dims(pn * (BN / 2) + arange(0, BN / 2), 0);
      y = load(b + kb * ((N + 1) / 2) + pc, (kb < K) & (pc < (N + 1) / 2), 0);
    } else {
      y = load(b + kb * N + rn, (kb < K) & (rn < N), 0);
    }
    // Scales of the masked tail are 127 (1.0), never 0xFF (NaN).
    auto g = expand_dims(k / 32 + arange(0, BK / 32), 0);
    Operand xs, ys;
    if (!(flags & kNoLhsScale))
      xs = load(as + rm * (K / 32) + g, (rm < M) & (g < K / 32), 127);
    if (!(flags & kNoRhsScale))
      ys = load(bs + rnCol * (K / 32) + g, (rnCol < N) & (g < K / 32), 127);
    acc = dot_scaled(x, xs, kFormats[fa], y, ys, kFormats[fb], acc,
                     flags & kFast, lk, rk);
  });
  store(c + rm * N + rn, acc, (rm < M) & (rn < N));
}

struct Case {
  Fmt fa, fb;
  int flags;
  int M, N, K, BM, BN, BK;
  /// Scales: every code (0, 127, 254 and 255 often), or [lo, hi] and now
  /// and then 255.
  int scaleLo = 0, scaleHi = 255;
  /// Codes: every code equally likely, or (rareSpecials) NaN and infinity
  /// codes kept one time in 16 (redrawn otherwise), so that more sums are
  /// finite.
  bool rareSpecials = false;
};

std::string describe(const Case &s) {
  return std::string(kFormats[s.fa]) + " x " + kFormats[s.fb] + " " +
         std::to_string(s.M) + "x" + std::to_string(s.N) + "x" +
         std::to_string(s.K) + " in " + std::to_string(s.BM) + "x" +
         std::to_string(s.BN) + "x" + std::to_string(s.BK) + " flags " +
         std::to_string(s.flags);
}

int codeBits(Fmt f) { return f == E2M1 ? 4 : f == E4M3 || f == E5M2 ? 8 : 16; }

unsigned randomScale(std::mt19937_64 &gen, const Case &s) {
  static const unsigned edges[] = {0, 127, 254, 255};
  if (s.scaleLo == 0 && s.scaleHi == 255)
    return gen() % 4 == 0 ? edges[gen() % 4] : unsigned(gen() % 256);
  if (gen() % 64 == 0)
    return 255;
  return unsigned(s.scaleLo + gen() % (s.scaleHi - s.scaleLo + 1));
}

template <typename TA, typename TB> void check(const Case &s, uint64_t seed) {
  SCOPED_TRACE(describe(s));
  std::mt19937_64 gen(seed);
  const bool fast = s.flags & kFast;
  const bool lk = !(s.flags & kLhsAlongM), rk = !(s.flags & kRhsAlongN);
  const int M = s.M, N = s.N, K = s.K, G = K / 32;
  // Logical codes, every code of each format equally likely.
  std::vector<unsigned> ca(size_t(M) * K), cb(size_t(K) * N);
  auto code = [&](Fmt f) {
    for (;;) {
      unsigned c = unsigned(gen() & ((1u << codeBits(f)) - 1));
      if (!s.rareSpecials || std::isfinite(decodeCode(f, c)) ||
          gen() % 16 == 0)
        return c;
    }
  };
  for (unsigned &c : ca)
    c = code(s.fa);
  for (unsigned &c : cb)
    c = code(s.fb);
  std::vector<uint8_t> sa(size_t(M) * G), sb(size_t(N) * G);
  for (uint8_t &x : sa)
    x = uint8_t(randomScale(gen, s));
  for (uint8_t &x : sb)
    x = uint8_t(randomScale(gen, s));
  // The storage the kernel reads (fp4: two codes a byte, the first low).
  int Mp = (M + 1) / 2, Np = (N + 1) / 2;
  std::vector<TA> ha;
  if (s.fa == E2M1 && lk) {
    std::vector<uint32_t> bytes(size_t(M) * (K / 2), 0);
    for (int m = 0; m < M; ++m)
      for (int k = 0; k < K; ++k)
        bytes[size_t(m) * (K / 2) + k / 2] |= ca[size_t(m) * K + k]
                                              << (4 * (k & 1));
    for (uint32_t x : bytes)
      ha.push_back(fromBits<TA>(x));
  } else if (s.fa == E2M1) {
    std::vector<uint32_t> bytes(size_t(Mp) * K, 0);
    for (int m = 0; m < M; ++m)
      for (int k = 0; k < K; ++k)
        bytes[size_t(m / 2) * K + k] |= ca[size_t(m) * K + k]
                                        << (4 * (m & 1));
    for (uint32_t x : bytes)
      ha.push_back(fromBits<TA>(x));
  } else {
    for (unsigned c : ca)
      ha.push_back(fromBits<TA>(c));
  }
  std::vector<TB> hb;
  if (s.fb == E2M1 && rk) {
    std::vector<uint32_t> bytes(size_t(K / 2) * N, 0);
    for (int k = 0; k < K; ++k)
      for (int n = 0; n < N; ++n)
        bytes[size_t(k / 2) * N + n] |= cb[size_t(k) * N + n] << (4 * (k & 1));
    for (uint32_t x : bytes)
      hb.push_back(fromBits<TB>(x));
  } else if (s.fb == E2M1) {
    std::vector<uint32_t> bytes(size_t(K) * Np, 0);
    for (int k = 0; k < K; ++k)
      for (int n = 0; n < N; ++n)
        bytes[size_t(k) * Np + n / 2] |= cb[size_t(k) * N + n]
                                         << (4 * (n & 1));
    for (uint32_t x : bytes)
      hb.push_back(fromBits<TB>(x));
  } else {
    for (unsigned c : cb)
      hb.push_back(fromBits<TB>(c));
  }

  // The scaled operands as the documented semantics has them: the exact
  // product rounded to f32 (exact unless past f32's range), and with
  // fast_math rounded once more to bf16 (f16 with an fp16 operand), a
  // scale of 0xFF being +inf there.
  auto scale = [&](unsigned e) {
    return fast && e == 255 ? double(INFINITY) : ocpE8M0(e);
  };
  bool narrowHalf = s.fa == FP16 || s.fb == FP16;
  int inexact = 0;
  auto operand = [&](double v, double f) {
    double exact = v * f;
    float x = float(exact);
    if (std::isfinite(exact) && std::fabs(exact) <= FLT_MAX && x != exact)
      ++inexact;
    if (fast)
      x = narrowHalf ? to_float(to_half(x)) : to_float(to_bfloat16(x));
    return x;
  };
  std::vector<float> xa(ca.size()), xb(cb.size());
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k)
      xa[size_t(m) * K + k] =
          operand(decodeCode(s.fa, ca[size_t(m) * K + k]),
                  s.flags & kNoLhsScale ? 1.0 : scale(sa[size_t(m) * G + k / 32]));
  for (int k = 0; k < K; ++k)
    for (int n = 0; n < N; ++n)
      xb[size_t(k) * N + n] =
          operand(decodeCode(s.fb, cb[size_t(k) * N + n]),
                  s.flags & kNoRhsScale ? 1.0 : scale(sb[size_t(n) * G + k / 32]));
  ASSERT_EQ(inexact, 0) << "a scaled element is not exact in f32";

  const float acc0 = 0.375f, poison = f32(0x7fbadbad);
  Buffer<TA> a(testDevice(), ha);
  Buffer<TB> b(testDevice(), hb);
  Buffer<uint8_t> as(testDevice(), sa), bs(testDevice(), sb);
  size_t size = size_t(M) * N;
  Buffer<float> c(testDevice(), std::vector<float>(size + 16, poison));
  static auto kernel = Kernel("dot_scaled_matmul", scaledMatmul<TA, TB>);
  kernel.launch({unsigned(cdiv(M, s.BM)), unsigned(cdiv(N, s.BN))}, a, as, b,
                bs, c, M, N, K, acc0, int(s.fa), int(s.fb), s.flags, s.BM,
                s.BN, s.BK);
  std::vector<float> got = c.to_host();
  int nans = 0, finite = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float ordered = acc0;
      double ref = acc0, magnitude = std::fabs(acc0);
      for (int k = 0; k < K; ++k) {
        float x = xa[size_t(i) * K + k], y = xb[size_t(k) * N + j];
        ordered = std::fma(x, y, ordered);
        ref += double(x) * y;
        magnitude += std::fabs(double(x) * y);
      }
      float g = got[size_t(i) * N + j];
      std::string where = "at " + std::to_string(i) + ", " +
                          std::to_string(j) + ": " + std::to_string(g) +
                          " for " + std::to_string(ref);
      nans += std::isnan(g);
      if (!fast) { // the f32 FMA order on every target: the same bits
        if (std::isnan(ordered))
          ASSERT_TRUE(std::isnan(g)) << where;
        else
          ASSERT_EQ(bitsOf(g), bitsOf(ordered)) << where;
        if (!std::isfinite(ordered))
          continue; // f32 may overflow where float64 does not
      }
      if (std::isnan(ref) || std::isinf(ref)) {
        ASSERT_TRUE(std::isnan(ref) ? std::isnan(g) : g == float(ref))
            << where;
        continue;
      }
      if (!std::isfinite(ordered) || std::fabs(ref) > FLT_MAX)
        continue; // past f32's range
      ++finite;
      double bound = (K + 1) * std::ldexp(magnitude, -24) + 1e-30;
      ASSERT_LE(std::fabs(g - ref), bound) << where;
    }
  for (size_t e = size; e < got.size(); ++e)
    ASSERT_EQ(bitsOf(got[e]), bitsOf(poison)) << "written past the end at " << e;
  // Not all NaN: some results were compared bit for bit (or within the
  // bound), and with rare specials some were finite sums.
  std::printf("[ dot_scaled ] %s: %d NaN, %d finite of %d\n",
              describe(s).c_str(), nans, finite, M * N);
  EXPECT_LT(nans, M * N);
  if (s.rareSpecials || s.scaleHi < 255)
    EXPECT_GT(finite, M * N / 8);
}

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

TEST(DotScaled, E2M1ByE4M3) {
  check<uint8_t, float8_e4m3fn>({E2M1, E4M3, 0, 37, 29, 96, 32, 32, 64}, 1);
  check<uint8_t, float8_e4m3fn>({E2M1, E4M3, 0, 37, 29, 96, 16, 16, 32}, 2);
  check<uint8_t, float8_e4m3fn>({E2M1, E4M3, 0, 5, 3, 32, 16, 16, 32}, 3);
  check<uint8_t, float8_e4m3fn>({E2M1, E4M3, 0, 64, 32, 128, 64, 32, 128},
                                4);
}

TEST(DotScaled, E4M3ByE5M2) {
  // Every code: a NaN in 96 is likely, so K = 32 here.
  check<float8_e4m3fn, uint8_t>({E4M3, E5M2, 0, 37, 29, 32, 32, 32, 32}, 5);
  check<uint8_t, float8_e5m2>({E4M3, E5M2, 0, 19, 33, 64, 16, 64, 32}, 6);
  Case rare = {E4M3, E5M2, 0, 37, 29, 96, 32, 32, 64};
  rare.rareSpecials = true;
  check<uint8_t, uint8_t>(rare, 18);
}

TEST(DotScaled, BF16ByE2M1WithoutLhsScale) {
  check<uint16_t, uint8_t>(
      {BF16, E2M1, kNoLhsScale, 37, 29, 96, 32, 32, 64}, 7);
  check<bfloat16, uint8_t>(
      {BF16, E2M1, kNoLhsScale, 21, 40, 64, 16, 16, 64}, 8);
}

TEST(DotScaled, FP16AndUnscaledFp8) {
  Case fp16 = {FP16, E5M2, kNoLhsScale, 37, 29, 96, 32, 32, 64};
  check<half, float8_e5m2>(fp16, 9);
  fp16.rareSpecials = true;
  check<half, float8_e5m2>(fp16, 19);
  check<float8_e4m3fn, float8_e4m3fn>(
      {E4M3, E4M3, kNoLhsScale | kNoRhsScale, 37, 29, 96, 32, 32, 64}, 10);
}

TEST(DotScaled, E2M1PackedAlongMAndN) {
  check<uint8_t, uint8_t>({E2M1, E2M1, kLhsAlongM | kRhsAlongN, 37, 29, 96,
                           32, 32, 64},
                          11);
  check<uint8_t, uint8_t>({E2M1, E2M1, kLhsAlongM, 36, 30, 64, 16, 16, 32},
                          12);
  check<uint8_t, uint8_t>({E2M1, E2M1, 0, 37, 29, 96, 32, 32, 64}, 13);
}

TEST(DotScaled, FastMathRoundsToBf16) {
  // Scales up to 170 keep the sums in f32's range; 0xFF is +inf here.
  Case e2m1 = {E2M1, E4M3, kFast, 37, 29, 96, 32, 32, 64, 0, 170};
  check<uint8_t, uint8_t>(e2m1, 14);
  Case e5m2 = {E5M2, E4M3, kFast, 37, 29, 96, 16, 32, 32, 0, 170, true};
  check<uint8_t, uint8_t>(e5m2, 15);
  Case packed = {E2M1, E2M1, kFast | kLhsAlongM, 37, 29, 96, 32, 32, 64,
                 60, 170};
  check<uint8_t, uint8_t>(packed, 16);
}

TEST(DotScaled, FastMathWithFp16RoundsToF16) {
  // f16's range: e4m3 times 2^7 at most (448 * 128 > 65504 is +inf).
  Case s = {FP16, E4M3, kFast | kNoLhsScale, 37, 29, 96, 32, 32, 64, 100,
            135, true};
  check<uint16_t, uint8_t>(s, 17);
}

//===----------------------------------------------------------------------===//
// Errors at the user's line
//===----------------------------------------------------------------------===//

void expectError(const std::function<void()> &f, const std::string &message) {
  test::expectErrorAt(f, message, __FILE__, at);
}

/// A row-major r x c block of p's elements.
template <typename T> Value tile(Ptr<T> p, int r, int c) {
  return load(p + expand_dims(arange(0, r), 1) * c +
              expand_dims(arange(0, c), 0));
}

using Body = std::function<void(Ptr<uint8_t>, Ptr<float8_e4m3fn>,
                                Ptr<bfloat16>, Ptr<float>)>;
std::function<void()> trace(Body body) {
  return [body] {
    Kernel("bad_dot_scaled",
           [body](Ptr<uint8_t> u, Ptr<float8_e4m3fn> e, Ptr<bfloat16> h,
                  Ptr<float> f) { body(u, e, h, f); })
        .mlir();
  };
}

TEST(DotScaled, BadOperandsAreErrorsAtTheCall) {
  expectError(trace([](auto u, auto e, auto, auto) {
                auto a = tile(e, 16, 32), b = tile(e, 32, 16);
                at = __LINE__ + 1;
                dot_scaled(a, Operand(), "e3m2", b, Operand(), "e4m3");
              }),
              "dot_scaled(): lhs_format must be \"e2m1\", \"e4m3\", \"e5m2\", "
              "\"bf16\" or \"fp16\", got \"e3m2\"");
  expectError(trace([](auto u, auto e, auto, auto) {
                auto a = tile(e, 16, 32), b = tile(u, 32, 16);
                at = __LINE__ + 1;
                dot_scaled(a, Operand(), "e4m3", b, Operand(), "E2M1");
              }),
              "dot_scaled(): rhs_format must be \"e2m1\", \"e4m3\", \"e5m2\", "
              "\"bf16\" or \"fp16\", got \"E2M1\"");
  // fp4 packs two values a byte along K: a 16x32 block of bytes is K = 64.
  expectError(trace([](auto u, auto e, auto, auto) {
                auto a = tile(u, 16, 32), b = tile(e, 32, 16);
                at = __LINE__ + 1;
                dot_scaled(a, Operand(), "e2m1", b, Operand(), "e4m3");
              }),
              "dot_scaled() of an lhs of K = 64 (a 16x32 u8 block of e2m1, "
              "packed along K) by an rhs of K = 32 (a 32x16 f8e4m3fn block "
              "of e4m3): K must be equal");
  expectError(trace([](auto u, auto e, auto, auto f) {
                auto a = tile(f, 16, 32), b = tile(e, 32, 16);
                at = __LINE__ + 1;
                dot_scaled(a, Operand(), "e4m3", b, Operand(), "e4m3");
              }),
              "dot_scaled(): lhs in e4m3 is an f8e4m3fn block (or its bits "
              "as u8), got a 16x32 f32 block");
  expectError(trace([](auto u, auto e, auto, auto) {
                auto a = tile(e, 16, 32), b = tile(e, 32, 16);
                at = __LINE__ + 1;
                dot_scaled(a, Operand(), "e4m3", b, Operand(), "e2m1");
              }),
              "dot_scaled(): rhs in e2m1 is a u8 block of two e2m1 values a "
              "byte, got a 32x16 f8e4m3fn block");
  expectError(trace([](auto u, auto e, auto, auto) {
                auto a = tile(e, 16, 32), b = tile(e, 32, 16);
                at = __LINE__ + 1;
                dot_scaled(a, Operand(), "e4m3", b, Operand(), "e4m3",
                           Operand(), false, false);
              }),
              "dot_scaled(): lhs_k_pack = false packs e2m1 values along M; "
              "lhs is e4m3, which is not packed");
  // A scale per 32 along K: K = 16 has no whole group.
  expectError(trace([](auto u, auto e, auto, auto) {
                auto a = tile(e, 16, 16), b = tile(e, 16, 16);
                auto sa = tile(u, 16, 1);
                at = __LINE__ + 1;
                dot_scaled(a, sa, "e4m3", b, Operand(), "e4m3");
              }),
              "dot_scaled() scales groups of 32 elements along K: K = 16 is "
              "not a multiple of 32");
  expectError(trace([](auto u, auto e, auto, auto) {
                auto a = tile(e, 16, 64), b = tile(e, 64, 32);
                auto sa = tile(u, 16, 4);
                at = __LINE__ + 1;
                dot_scaled(a, sa, "e4m3", b, Operand(), "e4m3");
              }),
              "dot_scaled(): lhs_scale holds one e8m0 exponent (u8) per row "
              "of lhs and group of 32 along K: a 16x2 u8 block (M x K/32), "
              "got a 16x4 u8 block");
  // rhs_scale is N x K/32, not K/32 x N.
  expectError(trace([](auto u, auto e, auto, auto) {
                auto a = tile(e, 16, 64), b = tile(e, 64, 32);
                auto sb = tile(u, 2, 32);
                at = __LINE__ + 1;
                dot_scaled(a, Operand(), "e4m3", b, sb, "e4m3");
              }),
              "dot_scaled(): rhs_scale holds one e8m0 exponent (u8) per "
              "column of rhs and group of 32 along K: a 32x2 u8 block (N x "
              "K/32), got a 2x32 u8 block");
  expectError(trace([](auto u, auto e, auto, auto f) {
                auto a = tile(e, 16, 64), b = tile(e, 64, 32);
                auto sa = tile(f, 16, 2);
                at = __LINE__ + 1;
                dot_scaled(a, sa, "e4m3", b, Operand(), "e4m3");
              }),
              "dot_scaled(): lhs_scale holds one e8m0 exponent (u8) per row "
              "of lhs and group of 32 along K: a 16x2 u8 block (M x K/32), "
              "got a 16x2 f32 block");
  expectError(trace([](auto u, auto e, auto h, auto) {
                auto a = tile(h, 16, 32), b = tile(e, 32, 16);
                auto sa = tile(u, 16, 1);
                at = __LINE__ + 1;
                dot_scaled(a, sa, "bf16", b, Operand(), "e4m3");
              }),
              "dot_scaled(): lhs in bf16 takes no scale; pass Operand() as "
              "lhs_scale");
  expectError(trace([](auto u, auto e, auto, auto) {
                auto a = tile(e, 16, 32), b = tile(e, 32, 16);
                at = __LINE__ + 1;
                dot_scaled(a, Operand(), "e4m3", b, Operand(), "e4m3",
                           zeros({16, 32}, DType::f32));
              }),
              "dot_scaled() of 16 x 32 by 32 x 16 needs a 16x16 accumulator, "
              "got a 16x32 f32 block");
  expectError(trace([](auto u, auto e, auto, auto) {
                auto a = tile(e, 16, 32), b = tile(e, 32, 16);
                at = __LINE__ + 1;
                dot_scaled(a, Operand(), "e4m3", b, Operand(), "e4m3",
                           zeros({16, 16}, DType::f16));
              }),
              "dot_scaled() accumulates in f32, got a 16x16 f16 block as acc");
  expectError(trace([](auto u, auto e, auto, auto) {
                auto a = load(e + arange(0, 32)), b = tile(e, 32, 16);
                at = __LINE__ + 1;
                dot_scaled(a, Operand(), "e4m3", b, Operand(), "e4m3");
              }),
              "dot_scaled() multiplies two 2-D blocks, got a 32 f8e4m3fn "
              "block as lhs");
}

//===----------------------------------------------------------------------===//
// The GPU targets compile it: PTX for sm_90 through ptxas, gfx942's ISA
//===----------------------------------------------------------------------===//

auto gpuKernel() {
  return Kernel("dot_scaled_gpu", scaledMatmul<uint8_t, float8_e4m3fn>);
}

TEST(DotScaled, CompilesForSm90ThroughPtxas) {
  const char *ptxas = std::getenv("KTC_PTXAS");
  if (!ptxas)
    ptxas = "/usr/local/cuda/bin/ptxas";
  bool assemble = access(ptxas, X_OK) == 0;
  for (int flags : {0, int(kFast)}) {
    SCOPED_TRACE(flags);
    std::string ptx = gpuKernel().emit("asm", "sm_90", int(E2M1), int(E4M3),
                                       flags, 64, 64, 64);
    ASSERT_NE(ptx.find(".entry"), std::string::npos);
    // fast_math takes the bf16 matrix instructions; ieee f32 the FMAs.
    if (flags & kFast) {
      EXPECT_NE(ptx.find("mma"), std::string::npos);
    } else {
      EXPECT_EQ(ptx.find("mma"), std::string::npos);
      EXPECT_NE(ptx.find("fma.rn.f32"), std::string::npos);
    }
    if (!assemble)
      continue;
    std::string in = testing::TempDir() + "dot_scaled_" +
                     std::to_string(getpid()) + ".ptx";
    std::ofstream(in) << ptx;
    std::string command = std::string(ptxas) + " -arch=sm_90 " + in +
                          " -o " + in + ".cubin";
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    std::remove(in.c_str());
    std::remove((in + ".cubin").c_str());
  }
  if (!assemble) {
    GTEST_SKIP() << "no ptxas at " << ptxas << " (the PTX was not assembled)";
  }
}

TEST(DotScaled, CompilesForGfx942) {
  for (int flags : {0, int(kFast)}) {
    SCOPED_TRACE(flags);
    std::string isa = gpuKernel().emit("asm", "gfx942", int(E2M1), int(E4M3),
                                       flags, 64, 64, 64);
    EXPECT_NE(isa.find("s_endpgm"), std::string::npos);
    if (flags & kFast) { // the bf16 MFMA
      EXPECT_NE(isa.find("v_mfma_f32"), std::string::npos);
    } else { // exact f32 operands: the FMA path
      EXPECT_EQ(isa.find("v_mfma"), std::string::npos);
      EXPECT_NE(isa.find("_fma_f32"), std::string::npos); // v_pk_fma_f32
    }
  }
}

} // namespace
