//===- RandomTest.cpp - Philox randint, rand, randn against references ----===//
//
// The public API only, on Device("cpu") (or KTC_SHAPES_DEVICE's device):
// the known answers of philox_reference.py (an independent Python
// rewrite of Triton 3.6's random.py, which also reproduces Random123's
// Philox4x32-10 known-answer vectors), then every element of odd-sized
// blocks checked exactly against the C++ reference below (randint4x, rand;
// i32 and i64 seeds and offsets, offsets across 2^32, 7 rounds), randn
// within a few f32 ulps of float64 Box-Muller on the same uniforms, plus the
// moments. Outputs are poisoned first. Then the sm_90 and gfx942 code, and
// the misuses as errors at the user's line.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"
#include "MathTestUtil.h"

#include <array>

using namespace ktc;
using namespace ktc::mathtest;

namespace {

//===----------------------------------------------------------------------===//
// The C++ reference (Triton 3.6's random.py, written out again)
//===----------------------------------------------------------------------===//

using U4 = std::array<uint32_t, 4>;

U4 philoxRef(uint64_t key, U4 c, int rounds = 10) {
  uint32_t k0 = uint32_t(key), k1 = uint32_t(key >> 32);
  for (int r = 0; r < rounds; ++r) {
    uint64_t p0 = uint64_t(0xD2511F53u) * c[0];
    uint64_t p2 = uint64_t(0xCD9E8D57u) * c[2];
    c = {uint32_t(p2 >> 32) ^ c[1] ^ k0, uint32_t(p2),
         uint32_t(p0 >> 32) ^ c[3] ^ k1, uint32_t(p0)};
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return c;
}

/// An i32 seed is sign-extended; an i32 offset has no high word.
U4 randint4xRef(int64_t seed, int64_t offset, bool offset64, int rounds = 10) {
  uint32_t hi = offset64 ? uint32_t(uint64_t(offset) >> 32) : 0;
  return philoxRef(uint64_t(seed), {uint32_t(offset), hi, 0, 0}, rounds);
}

float uniformRef(uint32_t u) {
  int32_t x = int32_t(u);
  if (x < 0)
    x = ~x; // -x - 1
  return float(x) * float(4.6566127342e-10);
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

constexpr int kB = 128;

/// randint4x into out[4 i + k]; rand, randn into their own rows.
template <typename S, typename O>
void drawKernel(Ptr<int32_t> bits, Ptr<float> u, Ptr<float> g, S seed,
                O base, Int n, int ROUNDS) {
  Value i = program_id(0) * kB + arange(0, kB);
  Value m = i < n;
  Value offs = base + i;
  std::array<Value, 4> r = randint4x(seed, offs, ROUNDS);
  for (int k = 0; k < 4; ++k)
    store(bits + i * 4 + k, r[k], m);
  store(u + i, rand(seed, offs, ROUNDS), m);
  store(g + i, randn(seed, offs, ROUNDS), m);
}

struct Drawn {
  std::vector<int32_t> bits;
  std::vector<float> u, g;
};

template <typename S, typename O>
Drawn draw(int64_t seed, int64_t base, int n, int rounds = 10) {
  static auto kernel = Kernel("random_draw", drawKernel<S, O>);
  Device &d = testDevice();
  Buffer<int32_t> bits(d, std::vector<int32_t>(4 * n + 4, 0x5a5a5a5a));
  Buffer<float> u(d, std::vector<float>(n + 1, NAN));
  Buffer<float> g(d, std::vector<float>(n + 1, NAN));
  kernel.launch({unsigned(cdiv(n, kB))}, bits, u, g,
                typename S::element_type(seed), typename O::element_type(base),
                n, rounds);
  Drawn out{bits.to_host(), u.to_host(), g.to_host()};
  for (int k = 4 * n; k < 4 * n + 4; ++k)
    EXPECT_EQ(out.bits[k], 0x5a5a5a5a) << "tail " << k;
  EXPECT_TRUE(std::isnan(out.u[n]));
  EXPECT_TRUE(std::isnan(out.g[n]));
  return out;
}

/// Every element exactly (bits, uniforms) or within 8 ulps of r (normals).
template <typename S, typename O>
void checkAll(int64_t seed, int64_t base, int n, int rounds = 10) {
  Drawn got = draw<S, O>(seed, base, n, rounds);
  bool wide = std::is_same_v<O, Long>;
  int bad = 0;
  for (int i = 0; i < n && bad < 10; ++i) {
    int64_t off = wide ? base + i : int64_t(int32_t(base + i));
    U4 want = randint4xRef(seed, off, wide, rounds);
    for (int k = 0; k < 4; ++k)
      if (uint32_t(got.bits[4 * i + k]) != want[k] && ++bad)
        ADD_FAILURE() << "randint4x[" << k << "] at " << off << ": "
                      << std::hex << uint32_t(got.bits[4 * i + k]) << " != "
                      << want[k];
    float u = uniformRef(want[0]);
    if (bitsOf(got.u[i]) != bitsOf(u) && ++bad)
      ADD_FAILURE() << "rand at " << off << ": " << got.u[i] << " != " << u;
    // Box-Muller in float64 on the same f32 uniforms and f32 angle.
    double u1 = std::max(1.0e-7f, u);
    float th = float(6.283185307179586) * uniformRef(want[1]);
    double r = std::sqrt(-2.0 * std::log(u1));
    double normal = r * std::cos(double(th));
    if (!(std::abs(got.g[i] - normal) <= 8 * 0x1p-24 * std::max(r, 1.0)) &&
        ++bad)
      ADD_FAILURE() << "randn at " << off << ": " << got.g[i] << " vs "
                    << normal;
  }
}

TEST(Random, KnownAnswers) {
  // From philox_reference.py (Random123's kat_vectors for the first three).
  struct Case {
    uint64_t key;
    U4 counter, want;
  } cases[] = {
      {0, {0, 0, 0, 0}, {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}},
      {~uint64_t(0),
       {~0u, ~0u, ~0u, ~0u},
       {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}},
      {0x299F31D0A4093822u,
       {0x243F6A88u, 0x85A308D3u, 0x13198A2Eu, 0x03707344u},
       {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}},
  };
  for (const Case &c : cases)
    EXPECT_EQ(philoxRef(c.key, c.counter), c.want);
  EXPECT_EQ(randint4xRef(42, 0, false),
            (U4{0x9ceaf053u, 0x77f5493bu, 0x12bf50adu, 0x5742b3d7u}));
  EXPECT_EQ(randint4xRef(-1, 7, false),
            (U4{0x6e20f2b1u, 0xc1403a74u, 0x90c17850u, 0x5cf56484u}));
  EXPECT_EQ(randint4xRef(0x123456789, 1000, false),
            (U4{0xd5d9338au, 0x60600977u, 0x48a8a9d2u, 0xb1461389u}));
  EXPECT_EQ(randint4xRef(42, 0x100000005, true),
            (U4{0x131a8a04u, 0x494efee7u, 0xe24f0e03u, 0x5128a584u}));
  EXPECT_EQ(randint4xRef(-7, -3, false),
            (U4{0x7a4d3ea4u, 0x9d4421e2u, 0x539a74f1u, 0xc942f49fu}));
  EXPECT_EQ(randint4xRef(-7, -3, true),
            (U4{0xef326ca2u, 0xe92d0782u, 0xa7076955u, 0xb6f0c620u}));
  EXPECT_EQ(randint4xRef(42, 3, false, 7),
            (U4{0x9e674c9fu, 0x5bc3801bu, 0x4f7c561fu, 0x5274e227u}));
  EXPECT_EQ(bitsOf(uniformRef(0x9ceaf053u)), 0x3f462a1eu);
  EXPECT_EQ(bitsOf(uniformRef(0xfcdb2127u)), 0x3cc937b5u);
  EXPECT_EQ(bitsOf(uniformRef(0x7fffffffu)), 0x3f7fffffu);
  EXPECT_EQ(bitsOf(uniformRef(0x80000000u)), 0x3f7fffffu);
  EXPECT_EQ(bitsOf(uniformRef(0xffffffffu)), 0u);

  // The same answers from kernels: Philox on literal counters and seed.
  auto kat = Kernel("random_kat", [](Ptr<int32_t> out) {
    std::array<Value, 4> a =
        philox(int64_t(0x299F31D0A4093822), int32_t(0x243F6A88),
               int32_t(0x85A308D3), int32_t(0x13198A2E), int32_t(0x03707344));
    std::array<Value, 4> b = philox(-1, -1, -1, -1, -1);
    for (int k = 0; k < 4; ++k) {
      store(out + k, a[k]);
      store(out + 4 + k, b[k]);
    }
  });
  Buffer<int32_t> out(testDevice(), std::vector<int32_t>(9, 7));
  kat.launch({1}, out);
  std::vector<int32_t> got = out.to_host();
  U4 pi = {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u};
  U4 ones = {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu};
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(uint32_t(got[k]), pi[k]) << k;
    EXPECT_EQ(uint32_t(got[4 + k]), ones[k]) << k;
  }
  EXPECT_EQ(got[8], 7);
}

TEST(Random, FirstOffsetsMatchTheKnownAnswers) {
  Drawn d = draw<Int, Int>(42, 0, 3);
  EXPECT_EQ(uint32_t(d.bits[0]), 0x9ceaf053u);
  EXPECT_EQ(uint32_t(d.bits[3]), 0x5742b3d7u);
  EXPECT_EQ(uint32_t(d.bits[4]), 0xfcdb2127u);
  EXPECT_EQ(bitsOf(d.u[0]), 0x3f462a1eu);
  EXPECT_EQ(bitsOf(d.u[1]), 0x3cc937b5u);
  Drawn w = draw<Long, Long>(42, 0x100000005, 1);
  EXPECT_EQ(uint32_t(w.bits[0]), 0x131a8a04u);
  EXPECT_EQ(uint32_t(w.bits[2]), 0xe24f0e03u);
}

TEST(Random, I32SeedAndOffsets) { checkAll<Int, Int>(1234, 17, 1001); }
TEST(Random, NegativeSeedAndOffsets) { checkAll<Int, Int>(-7, -500, 777); }
TEST(Random, I64SeedI32Offsets) {
  checkAll<Long, Int>(0x123456789ab, 2147483000, 1283); // wraps past MAX
}
TEST(Random, I64OffsetsAcross2To32) {
  checkAll<Int, Long>(99, (int64_t(1) << 32) - 301, 601);
}
TEST(Random, SevenRounds) { checkAll<Int, Int>(5, 0, 333, 7); }

TEST(Random, Moments) {
  int n = 30001;
  Drawn d = draw<Int, Int>(2024, 11, n);
  double su = 0, sg = 0, sgg = 0;
  for (int i = 0; i < n; ++i) {
    ASSERT_GE(d.u[i], 0.0f);
    ASSERT_LT(d.u[i], 1.0f);
    su += d.u[i];
    sg += d.g[i];
    sgg += double(d.g[i]) * d.g[i];
  }
  // 5 standard errors: 1/sqrt(12 n), 1/sqrt(n), sqrt(2/n).
  EXPECT_NEAR(su / n, 0.5, 5 * 0.2887 / std::sqrt(n));
  EXPECT_NEAR(sg / n, 0.0, 5 / std::sqrt(n));
  EXPECT_NEAR(sgg / n, 1.0, 5 * std::sqrt(2.0 / n));
}

/// The four streams of rand4x/randn4x are the four words.
void fourKernel(Ptr<float> u, Ptr<float> g, Int seed, Int n) {
  Value i = program_id(0) * kB + arange(0, kB);
  Value m = i < n;
  std::array<Value, 4> a = rand4x(seed, i), b = randn4x(seed, i);
  for (int k = 0; k < 4; ++k) {
    store(u + i * 4 + k, a[k], m);
    store(g + i * 4 + k, b[k], m);
  }
}

TEST(Random, FourStreams) {
  int n = 259;
  Device &dev = testDevice();
  Buffer<float> u(dev, std::vector<float>(4 * n, NAN)),
      g(dev, std::vector<float>(4 * n, NAN));
  Kernel("random_four", fourKernel).launch({unsigned(cdiv(n, kB))}, u, g, 31,
                                          n);
  std::vector<float> gu = u.to_host(), gg = g.to_host();
  for (int i = 0; i < n; ++i) {
    U4 w = randint4xRef(31, i, false);
    for (int k = 0; k < 4; ++k)
      ASSERT_EQ(bitsOf(gu[4 * i + k]), bitsOf(uniformRef(w[k]))) << i;
    for (int p = 0; p < 2; ++p) {
      double u1 = std::max(1.0e-7f, uniformRef(w[2 * p]));
      float th = float(6.283185307179586) * uniformRef(w[2 * p + 1]);
      double r = std::sqrt(-2.0 * std::log(u1));
      double tol = 8 * 0x1p-24 * std::max(r, 1.0);
      EXPECT_NEAR(gg[4 * i + 2 * p], r * std::cos(double(th)), tol) << i;
      EXPECT_NEAR(gg[4 * i + 2 * p + 1], r * std::sin(double(th)), tol) << i;
    }
  }
}

/// Compiles for sm_90 and gfx942: the multiply-high of Philox, no
/// approximate log/cos (the bits are ktc's own everywhere).
TEST(Random, CompilesForGpus) {
  auto kernel = Kernel("random_draw_gpu", drawKernel<Int, Int>);
  std::string ptx = kernel.emit("asm", "sm_90", 10);
  EXPECT_NE(ptx.find("mul.hi.u32"), std::string::npos);
  EXPECT_EQ(ptx.find(".approx"), std::string::npos);
  std::string gcn = kernel.emit("asm", "gfx942", 10);
  EXPECT_NE(gcn.find("v_mul_hi_u32"), std::string::npos);
  for (const char *approx : {"v_sin_f32", "v_cos_f32", "v_log_f32"})
    EXPECT_EQ(gcn.find(approx), std::string::npos) << approx;
}

//===----------------------------------------------------------------------===//
// Errors at the user's line
//===----------------------------------------------------------------------===//

int at = 0;

template <typename F> void expectKernelError(F fn, const std::string &msg) {
  test::expectErrorAt([&] { Kernel("k", fn).mlir(); }, msg, __FILE__, at);
}

TEST(Random, Errors) {
  expectKernelError([](Ptr<float> x) {
    at = __LINE__; rand(1, load(x + arange(0, 4)));
  }, "randint4x() needs an i32 or i64 offset, got tensor<4xf32>");
  expectKernelError([](Float s) {
    at = __LINE__; randn(s, arange(0, 4));
  }, "randint4x() needs an i32 or i64 seed, got f32");
  expectKernelError([](Int s) {
    at = __LINE__; randint(s, arange(0, 4) < 2);
  }, "randint4x() needs an i32 or i64 offset, got tensor<4xi1>");
  expectKernelError([](Int s) {
    at = __LINE__; randint(s, arange(0, 4), -1);
  }, "randint4x(): n_rounds must be >= 0, got -1");
  expectKernelError([](Long c) {
    at = __LINE__; philox(1, c, 0, 0, 0);
  }, "philox() takes i32 counters (Philox 4x32), got i64 for c0");
  expectKernelError([](Int x) {
    at = __LINE__; uint_to_uniform_float(x.to(DType::f32));
  }, "uint_to_uniform_float() needs an i32 or i64 operand, got f32");
  expectKernelError([](Ptr<half> x) {
    at = __LINE__; pair_uniform_to_normal(load(x), 0.5f);
  }, "pair_uniform_to_normal() needs f32 uniforms, got f16");
}

} // namespace
