//===- DotTest.cpp - dot(a, b, acc) end to end ----------------------------===//
//
// The public API only, on Device("cpu") (or KTC_SHAPES_DEVICE's device, as
// HostShapeTest): a tiled matmul with a K loop over random data of odd
// sizes, the output poisoned first. Each result is checked twice: within
// the bound of f32 summation from a float64 reference, and -- where the
// target promises it (the host, and the GPUs' FMA path) -- bit for bit
// against the documented order, acc = fma(a[k], b[k], acc) for k from 0 up.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"
#include "ktc/ktc.h"
#include "TestDevice.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

using namespace ktc;

namespace {

using test::testDevice;

/// True when the device promises the host's bits: the CPU always; GPUs for
/// exact f32 operands (their FMA path), not where the matrix cores sum in
/// their own order.
bool exactDevice(bool f32Ieee) {
  return f32Ieee || testDevice().kind() == DeviceKind::CPU;
}

int at = 0;

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

/// The float an f16 or bf16 (or f32) element holds.
float value(half h) {
  uint32_t sign = uint32_t(h.bits >> 15) << 31, exp = (h.bits >> 10) & 31,
           man = h.bits & 1023;
  if (exp == 31)
    return f32(sign | 0x7f800000 | man << 13);
  if (exp == 0) { // subnormal or zero: man * 2^-24
    float v = std::ldexp(float(man), -24);
    return sign ? -v : v;
  }
  return f32(sign | (exp + 112) << 23 | man << 13);
}
float value(bfloat16 b) { return f32(uint32_t(b.bits) << 16); }
float value(float f) { return f; }

/// Random elements in [-4, 4] of each type (exactly representable),
/// a few of them subnormal, and (with `specials`) NaN and infinities.
template <typename T> T element(std::mt19937_64 &gen);
template <> half element<half>(std::mt19937_64 &gen) {
  uint16_t exp = 1 + gen() % 17, sign = gen() % 2; // 2^-14 .. 2^2
  if (gen() % 64 == 0)
    exp = 0; // subnormal
  return half{uint16_t(sign << 15 | exp << 10 | (gen() & 1023))};
}
template <> bfloat16 element<bfloat16>(std::mt19937_64 &gen) {
  uint16_t exp = 112 + gen() % 17, sign = gen() % 2;
  return bfloat16{uint16_t(sign << 15 | exp << 7 | (gen() & 127))};
}
template <> float element<float>(std::mt19937_64 &gen) {
  return std::uniform_real_distribution<float>(-4, 4)(gen);
}

/// x rounded to tf32, ties away from zero (cvt.rna.tf32.f32).
float tf32(float x) {
  if (!std::isfinite(x))
    return x;
  return f32((bitsOf(x) + 0x1000) & ~0x1fffu);
}

/// c (M x N) = acc0 + a (M x K) @ b (K x N), row-major, BM x BN tiles per
/// program, BK columns of a (rows of b) a step.
template <typename T>
void matmul(Ptr<T> a, Ptr<T> b, Ptr<float> c, Int M, Int N, Int K,
            Float acc0, int BM, int BN, int BK, int TF32) {
  auto rm = expand_dims(program_id(0) * BM + arange(0, BM), 1);
  auto rn = expand_dims(program_id(1) * BN + arange(0, BN), 0);
  Var acc = full({BM, BN}, acc0, DType::f32);
  for_range(0, K, BK, [&](Value k) {
    auto ka = expand_dims(k + arange(0, BK), 0);
    auto kb = expand_dims(k + arange(0, BK), 1);
    auto x = load(a + rm * K + ka, (rm < M) & (ka < K), 0);
    auto y = load(b + kb * N + rn, (kb < K) & (rn < N), 0);
    acc = dot(x, y, acc, TF32 ? InputPrecision::tf32 : InputPrecision::ieee);
  });
  store(c + rm * N + rn, acc, (rm < M) & (rn < N));
}

struct Shape {
  int M, N, K, BM, BN, BK;
};

template <typename T>
void checkMatmul(const Shape &s, bool tf32Inputs, bool specials,
                 uint64_t seed) {
  SCOPED_TRACE(std::to_string(s.M) + "x" + std::to_string(s.N) + "x" +
               std::to_string(s.K) + " in " + std::to_string(s.BM) + "x" +
               std::to_string(s.BN) + "x" + std::to_string(s.BK) +
               (tf32Inputs ? " tf32" : "") + (specials ? " specials" : ""));
  std::mt19937_64 gen(seed);
  std::vector<T> ha(size_t(s.M) * s.K), hb(size_t(s.K) * s.N);
  for (T &x : ha)
    x = element<T>(gen);
  for (T &x : hb)
    x = element<T>(gen);
  if (specials) { // a NaN, an infinity and a -infinity, where they hit
    ha[gen() % ha.size()] = T(element<T>(gen));
    if constexpr (std::is_same_v<T, float>) {
      ha[0] = NAN;
      hb[hb.size() - 1] = INFINITY;
      ha[ha.size() / 2] = -INFINITY;
    } else {
      ha[0].bits = std::is_same_v<T, half> ? 0x7e00 : 0x7fc0;
      hb[hb.size() - 1].bits = std::is_same_v<T, half> ? 0x7c00 : 0x7f80;
      ha[ha.size() / 2].bits = std::is_same_v<T, half> ? 0xfc00 : 0xff80;
    }
  }
  const float acc0 = 0.375f;
  Buffer<T> a(testDevice(), ha), b(testDevice(), hb);
  size_t size = size_t(s.M) * s.N;
  const float poison = f32(0x7fbadbad);
  Buffer<float> c(testDevice(), std::vector<float>(size + 16, poison));
  static auto kernel = Kernel("dot_matmul", matmul<T>);
  kernel.launch({unsigned(cdiv(s.M, s.BM)), unsigned(cdiv(s.N, s.BN))}, a, b,
                c, s.M, s.N, s.K, acc0, s.BM, s.BN, s.BK, tf32Inputs ? 1 : 0);
  std::vector<float> got = c.to_host();
  auto in = [&](float x) { return tf32Inputs ? tf32(x) : x; };
  for (int i = 0; i < s.M; ++i)
    for (int j = 0; j < s.N; ++j) {
      double ref = acc0, magnitude = std::fabs(acc0);
      float ordered = acc0;
      for (int k = 0; k < s.K; ++k) {
        float x = in(value(ha[size_t(i) * s.K + k]));
        float y = in(value(hb[size_t(k) * s.N + j]));
        ref += double(x) * y;
        magnitude += std::fabs(double(x) * y);
        ordered = std::fma(x, y, ordered);
      }
      float g = got[size_t(i) * s.N + j];
      if (std::isnan(ref) || std::isinf(ref)) {
        ASSERT_TRUE(std::isnan(ref) ? std::isnan(g) : g == float(ref))
            << "at " << i << ", " << j << ": " << g << " for " << ref;
        continue;
      }
      // f32 summation of K + 1 terms: within (K + 1) u of the magnitude.
      double bound = (s.K + 1) * std::ldexp(magnitude, -24) + 1e-30;
      ASSERT_LE(std::fabs(g - ref), bound)
          << "at " << i << ", " << j << ": " << g << " for " << ref;
      if (exactDevice(std::is_same_v<T, float> && !tf32Inputs))
        ASSERT_EQ(bitsOf(g), bitsOf(ordered))
            << "at " << i << ", " << j << ": " << g << " for " << ordered;
    }
  for (size_t e = size; e < got.size(); ++e)
    ASSERT_EQ(bitsOf(got[e]), bitsOf(poison)) << "written past the end at " << e;
}

const Shape kShapes[] = {
    {1, 1, 1, 16, 16, 16},    {17, 17, 17, 16, 16, 16},
    {33, 65, 47, 32, 64, 16}, {64, 32, 64, 64, 32, 32},
    {5, 3, 70, 1, 2, 64},     {19, 130, 9, 16, 128, 8},
    {11, 13, 21, 2, 8, 4}, // host tiles narrower than 4 x 16
};

TEST(Dot, F16) {
  for (const Shape &s : kShapes)
    checkMatmul<half>(s, false, false, s.M * 7 + s.K);
  checkMatmul<half>({31, 29, 37, 32, 32, 16}, false, true, 3);
}

TEST(Dot, BF16) {
  for (const Shape &s : kShapes)
    checkMatmul<bfloat16>(s, false, false, s.M * 5 + s.N);
  checkMatmul<bfloat16>({31, 29, 37, 32, 32, 16}, false, true, 4);
}

TEST(Dot, F32ExactAndTf32) {
  for (const Shape &s : kShapes) {
    checkMatmul<float>(s, false, false, s.K * 3 + 1);
    checkMatmul<float>(s, true, false, s.K * 3 + 2);
  }
  checkMatmul<float>({31, 29, 37, 32, 32, 16}, false, true, 5);
}

/// tf32 rounds ties away from zero and carries into the exponent.
TEST(Dot, Tf32Rounding) {
  EXPECT_EQ(bitsOf(tf32(f32(0x3f801000))), 0x3f802000u); // tie: away
  EXPECT_EQ(bitsOf(tf32(f32(0xbf801000))), 0xbf802000u);
  EXPECT_EQ(bitsOf(tf32(f32(0x3f800fff))), 0x3f800000u);
  EXPECT_EQ(bitsOf(tf32(f32(0x3fffffff))), 0x40000000u); // carry
}

/// dot(trans(at), trans(bt)): both operands stored the other way round
/// (A as K x M, B as N x K) and transposed in the kernel, f16 and tf32.
template <typename T>
void transposedDot(Ptr<T> at, Ptr<T> bt, Ptr<float> c, int BM, int BN,
                   int BK, int TF32) {
  auto kc = expand_dims(arange(0, BK), 1), kr = expand_dims(arange(0, BK), 0);
  auto a = trans(load(at + kc * BM + expand_dims(arange(0, BM), 0)));
  auto b = trans(load(bt + expand_dims(arange(0, BN), 1) * BK + kr));
  auto m = expand_dims(arange(0, BM), 1), n = expand_dims(arange(0, BN), 0);
  store(c + m * BN + n,
        dot(a, b, Operand(), TF32 ? InputPrecision::tf32 : InputPrecision::ieee));
}

template <typename T> void checkTransposed(int BM, int BN, int BK, bool tf) {
  SCOPED_TRACE(std::to_string(BM) + "x" + std::to_string(BN) + "x" +
               std::to_string(BK) + (tf ? " tf32" : ""));
  std::mt19937_64 gen(BM + BN + BK);
  std::vector<T> ha(size_t(BK) * BM), hb(size_t(BN) * BK);
  for (T &x : ha)
    x = element<T>(gen);
  for (T &x : hb)
    x = element<T>(gen);
  Buffer<T> a(testDevice(), ha), b(testDevice(), hb);
  Buffer<float> c(testDevice(), std::vector<float>(size_t(BM) * BN, NAN));
  static auto kernel = Kernel("dot_trans", transposedDot<T>);
  kernel.launch({1}, a, b, c, BM, BN, BK, tf ? 1 : 0);
  std::vector<float> got = c.to_host();
  auto in = [&](float x) { return tf ? tf32(x) : x; };
  for (int i = 0; i < BM; ++i)
    for (int j = 0; j < BN; ++j) {
      float ordered = 0;
      double ref = 0, magnitude = 0;
      for (int k = 0; k < BK; ++k) {
        float x = in(value(ha[size_t(k) * BM + i]));
        float y = in(value(hb[size_t(j) * BK + k]));
        ordered = std::fma(x, y, ordered);
        ref += double(x) * y;
        magnitude += std::fabs(double(x) * y);
      }
      float g = got[size_t(i) * BN + j];
      ASSERT_LE(std::fabs(g - ref), BK * std::ldexp(magnitude, -24) + 1e-30)
          << "at " << i << ", " << j << ": " << g << " for " << ref;
      if (exactDevice(std::is_same_v<T, float> && !tf))
        ASSERT_EQ(bitsOf(g), bitsOf(ordered)) << "at " << i << ", " << j;
    }
}

TEST(Dot, TransposedOperands) {
  checkTransposed<half>(32, 64, 32, false);
  checkTransposed<half>(64, 16, 16, false);
  checkTransposed<float>(32, 32, 16, true);
  checkTransposed<float>(16, 32, 8, false);
}

//===----------------------------------------------------------------------===//
// Errors at the user's line
//===----------------------------------------------------------------------===//

void expectError(const std::function<void()> &f, const std::string &message) {
  test::expectErrorAt(f, message, __FILE__, at);
}

TEST(Dot, BadOperandsAreErrorsAtTheCall) {
  auto trace = [](auto body) {
    return [body] {
      Kernel("bad_dot", [body](Ptr<half> p, Ptr<float> q) { body(p, q); })
          .mlir();
    };
  };
  auto tile = [](auto p, int r, int c) {
    return load(p + expand_dims(arange(0, r), 1) * c +
                expand_dims(arange(0, c), 0));
  };
  expectError(trace([&](Ptr<half> p, Ptr<float>) {
                auto a = tile(p, 16, 32), b = tile(p, 16, 16);
                at = __LINE__ + 1;
                dot(a, b);
              }),
              "dot() of a 16x32 block by a 16x16 block: a's columns (32) "
              "must equal b's rows (16)");
  expectError(trace([&](Ptr<half> p, Ptr<float> q) {
                auto a = tile(p, 16, 16), b = tile(q, 16, 16);
                at = __LINE__ + 1;
                dot(a, b);
              }),
              "dot() operands must have one element type, got f16 and f32 "
              "(cast() one of them)");
  expectError(trace([&](Ptr<half> p, Ptr<float>) {
                auto a = load(p + arange(0, 16));
                at = __LINE__ + 1;
                dot(a, a);
              }),
              "dot() multiplies two 2-D blocks, got tensor<16xf16> and "
              "tensor<16xf16>");
  expectError(trace([&](Ptr<half> p, Ptr<float>) {
                auto a = tile(p, 16, 16);
                at = __LINE__ + 1;
                dot(a, a, zeros({16, 8}, DType::f32));
              }),
              "dot() of a 16x16 block by a 16x16 block needs a 16x16 "
              "accumulator, got tensor<16x8xf32>");
  expectError(trace([&](Ptr<half> p, Ptr<float>) {
                auto a = tile(p, 16, 16);
                at = __LINE__ + 1;
                dot(a, a, zeros({16, 16}, DType::f16));
              }),
              "dot() accumulates in f32, got a tensor<16x16xf16> accumulator "
              "(cast() it to f32)");
  expectError(trace([&](Ptr<half> p, Ptr<float>) {
                auto a = tile(p, 16, 16);
                at = __LINE__ + 1;
                dot(a, a, Operand(), InputPrecision::tf32);
              }),
              "dot() with InputPrecision::tf32 takes f32 operands, got f16");
  expectError(trace([&](Ptr<half> p, Ptr<float>) {
                auto a = cast(tile(p, 16, 16), DType::i32);
                at = __LINE__ + 1;
                dot(a, a);
              }),
              "dot() multiplies f16, bf16, f32 or i8 blocks, got i32");
}

} // namespace
