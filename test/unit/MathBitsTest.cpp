//===- MathBitsTest.cpp - umulhi, shifts, integer clamp, bitcast, errors --===//
//
// The public API only, on Device("cpu") (or KTC_SHAPES_DEVICE's device):
// the integer side of issue 19's math checked exactly on random operands
// and the edges (0, -1, MIN, MAX; shift amounts below 0 and past the
// width), at odd sizes with poisoned outputs; bitcast keeps every bit (NaN
// payloads, signalling NaNs). The misuses are ktc::Errors at the user's
// line (docs/bad-inputs.md).
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"
#include "MathTestUtil.h"

#include <limits>

using namespace ktc;
using namespace ktc::mathtest;

namespace {

enum IntFn { Umulhi, Shl, Shr, ShlLiteral, ShrLiteral, ClampInt };

template <typename T>
void intKernel(Ptr<T> a, Ptr<T> b, Ptr<T> c, Ptr<T> out, Int n, int FN) {
  auto offs = program_id(0) * kBlock + arange(0, kBlock);
  auto m = offs < n;
  Value x = load(a + offs, m), y = load(b + offs, m), z = load(c + offs, m);
  Value r;
  switch (FN) {
  case Umulhi: r = umulhi(x, y); break;
  case Shl: r = x << y; break;
  case Shr: r = x >> y; break;
  case ShlLiteral: r = x << 5; break;
  case ShrLiteral: r = x >> 40; break;
  case ClampInt: r = clamp(x, y, z); break;
  }
  store(out + offs, r, m);
}

template <typename T>
std::vector<T> runInt(IntFn fn, const std::vector<T> &a,
                      const std::vector<T> &b, const std::vector<T> &c) {
  static auto kernel = Kernel("math_int", intKernel<T>);
  int n = int(a.size());
  Buffer<T> ba(testDevice(), a), bb(testDevice(), b), bc(testDevice(), c);
  std::vector<T> poison(n + 5, T(0x5a5a5a5a));
  Buffer<T> out(testDevice(), poison);
  kernel.launch({unsigned(cdiv(n, kBlock))}, ba, bb, bc, out, n, int(fn));
  std::vector<T> got = out.to_host();
  for (int i = n; i < n + 5; ++i)
    EXPECT_EQ(got[i], poison[i]) << "tail " << i;
  got.resize(n);
  return got;
}

template <typename T> T shlRef(T x, int64_t s) {
  using U = std::make_unsigned_t<T>;
  return uint64_t(s) >= sizeof(T) * 8 ? T(0) : T(U(x) << s);
}
template <typename T> T shrRef(T x, int64_t s) {
  int width = sizeof(T) * 8;
  return x >> (uint64_t(s) >= uint64_t(width) ? width - 1 : s);
}
template <typename T> T umulhiRef(T x, T y) {
  using U = std::make_unsigned_t<T>;
  if constexpr (sizeof(T) == 4)
    return T(uint32_t((uint64_t(U(x)) * U(y)) >> 32));
  else
    return T(uint64_t((unsigned __int128)U(x) * U(y) >> 64));
}

template <typename T> void integers() {
  using L = std::numeric_limits<T>;
  std::vector<T> edge = {0, 1, -1, 2, L::min(), L::max(), L::min() + 1, 12345,
                         -77777};
  std::mt19937_64 gen(11);
  std::vector<T> a, b, amount, lo, hi;
  for (T x : edge)
    for (T y : edge) {
      a.push_back(x);
      b.push_back(y);
    }
  for (int i = 0; i < 3000; ++i) {
    a.push_back(T(gen()));
    b.push_back(i % 2 ? T(gen()) : T(int64_t(gen() % 200) - 100));
  }
  if (a.size() % 2 == 0) {
    a.push_back(7);
    b.push_back(-7);
  }
  for (size_t i = 0; i < a.size(); ++i) {
    amount.push_back(T(int64_t(gen() % 80) - 8)); // -8 .. 71
    T u = T(gen() >> (gen() % 64)), v = T(gen() >> (gen() % 64));
    lo.push_back(std::min(u, v));
    hi.push_back(std::max(u, v));
  }
  std::vector<T> mulhi = runInt<T>(Umulhi, a, b, b);
  std::vector<T> shl = runInt<T>(Shl, a, amount, b);
  std::vector<T> shr = runInt<T>(Shr, a, amount, b);
  std::vector<T> shl5 = runInt<T>(ShlLiteral, a, b, b);
  std::vector<T> shr40 = runInt<T>(ShrLiteral, a, b, b);
  std::vector<T> cl = runInt<T>(ClampInt, a, lo, hi);
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(mulhi[i], umulhiRef(a[i], b[i])) << a[i] << " " << b[i];
    EXPECT_EQ(shl[i], shlRef(a[i], amount[i])) << a[i] << " << " << amount[i];
    EXPECT_EQ(shr[i], shrRef(a[i], amount[i])) << a[i] << " >> " << amount[i];
    EXPECT_EQ(shl5[i], shlRef(a[i], 5)) << a[i];
    EXPECT_EQ(shr40[i], shrRef(a[i], 40)) << a[i];
    EXPECT_EQ(cl[i], std::min(std::max(a[i], lo[i]), hi[i])) << a[i];
  }
}
TEST(MathBits, IntegersI32) { integers<int32_t>(); }
TEST(MathBits, IntegersI64) { integers<int64_t>(); }

void bitcastKernel(Ptr<float> f, Ptr<int32_t> i, Ptr<half> h,
                   Ptr<bfloat16> bf, Ptr<int32_t> fi, Ptr<float> iff,
                   Ptr<bfloat16> hb, Ptr<half> bh, Int n) {
  auto offs = program_id(0) * kBlock + arange(0, kBlock);
  auto m = offs < n;
  store(fi + offs, bitcast(load(f + offs, m), DType::i32), m);
  store(iff + offs, bitcast(load(i + offs, m), DType::f32), m);
  store(hb + offs, bitcast(load(h + offs, m), DType::bf16), m);
  store(bh + offs, bitcast(load(bf + offs, m), DType::f16), m);
}

TEST(MathBits, BitcastKeepsEveryBit) {
  std::mt19937 gen(23);
  std::vector<uint32_t> bits = {0x7f800001u, 0xffbfffffu, 0x7fc00000u,
                                0x80000000u, 0x00000001u, 0x7f800000u};
  for (int i = 0; i < 2001; ++i)
    bits.push_back(gen());
  int n = int(bits.size());
  std::vector<float> f;
  std::vector<int32_t> i32;
  std::vector<half> h;
  std::vector<bfloat16> bf;
  for (uint32_t b : bits) {
    f.push_back(std::bit_cast<float>(b));
    i32.push_back(int32_t(b * 2654435761u));
    h.push_back(half{uint16_t(b)});
    bf.push_back(bfloat16{uint16_t(b >> 16)});
  }
  Device &d = testDevice();
  Buffer<float> bF(d, f), outF(d, std::vector<float>(n + 3, 3.5f));
  Buffer<int32_t> bI(d, i32), outI(d, std::vector<int32_t>(n + 3, 99));
  Buffer<half> bH(d, h), outH(d, std::vector<half>(n + 3, half{0x1234}));
  Buffer<bfloat16> bB(d, bf),
      outB(d, std::vector<bfloat16>(n + 3, bfloat16{0x4321}));
  static auto kernel = Kernel("math_bitcast", bitcastKernel);
  kernel.launch({unsigned(cdiv(n, kBlock))}, bF, bI, bH, bB, outI, outF, outB,
                outH, n);
  std::vector<int32_t> gi = outI.to_host();
  std::vector<float> gf = outF.to_host();
  std::vector<bfloat16> gb = outB.to_host();
  std::vector<half> gh = outH.to_host();
  for (int k = 0; k < n; ++k) {
    EXPECT_EQ(uint32_t(gi[k]), bits[k]);
    EXPECT_EQ(bitsOf(gf[k]), uint32_t(i32[k]));
    EXPECT_EQ(gb[k].bits, h[k].bits);
    EXPECT_EQ(gh[k].bits, bf[k].bits);
  }
  EXPECT_EQ(gi[n], 99);
  EXPECT_EQ(bitsOf(gf[n]), bitsOf(3.5f));
  EXPECT_EQ(gb[n].bits, 0x4321);
  EXPECT_EQ(gh[n].bits, 0x1234);
}

/// Every function of issue 19 in one kernel of each type, for the GPUs.
template <typename T>
void everything(Ptr<T> x, Ptr<T> out, Ptr<int32_t> i, Ptr<int64_t> l,
                Ptr<float> f, Int n) {
  auto offs = program_id(0) * kBlock + arange(0, kBlock);
  auto m = offs < n;
  Value a = load(x + offs, m), b = load(x + offs + 1, m);
  int k = 0;
  auto put = [&](const Value &v) { store(out + offs + (k++) * kBlock, v, m); };
  for (Value v : {tanh(a), erf(a), sin(a), cos(a), floor(a), ceil(a), rint(a),
                  round(a), rsqrt(a), pow(a, b), fma(a, b, a),
                  maximum(a, b, PropagateNan::all),
                  minimum(a, b, PropagateNan::all),
                  clamp(a, b, 2.0f, PropagateNan::all)})
    put(v);
  Value u = load(i + offs, m), w = load(l + offs, m);
  store(i + offs, umulhi(u, u) + (u << u) + (u >> 3), m);
  store(l + offs, umulhi(w, w) + (w << w) + (w >> u), m);
  store(f + offs, bitcast(u, DType::f32), m);
  store(i + offs, bitcast(load(f + offs, m), DType::i32), m);
}

/// Compiles (no GPU needed) for sm_90 and gfx942: no math op is left for a
/// target without it, no approximate instruction appears.
template <typename T> void compilesForGpus() {
  auto kernel = Kernel("math_everything", everything<T>);
  std::string ptx = kernel.emit("asm", "sm_90");
  EXPECT_NE(ptx.find("fma.rn.f32"), std::string::npos);
  EXPECT_EQ(ptx.find(".approx"), std::string::npos);
  std::string gcn = kernel.emit("asm", "gfx942");
  EXPECT_NE(gcn.find("v_fma"), std::string::npos);
  // (v_rsq_f32 may appear: LLVM's correctly rounded f32 sqrt starts from
  // it and corrects the result.)
  for (const char *approx : {"v_sin_f32", "v_cos_f32", "v_exp_f32",
                             "v_log_f32"})
    EXPECT_EQ(gcn.find(approx), std::string::npos) << approx;
}
TEST(MathBits, CompilesForGpusF32) { compilesForGpus<float>(); }
TEST(MathBits, CompilesForGpusF16) { compilesForGpus<half>(); }
TEST(MathBits, CompilesForGpusBF16) { compilesForGpus<bfloat16>(); }

//===----------------------------------------------------------------------===//
// Errors at the user's line
//===----------------------------------------------------------------------===//

int at = 0;

template <typename F> void expectKernelError(F fn, const std::string &msg) {
  test::expectErrorAt([&] { Kernel("k", fn).mlir(); }, msg, __FILE__, at);
}

TEST(MathBits, Errors) {
  expectKernelError([](Ptr<int32_t> x) {
    at = __LINE__; tanh(load(x));
  }, "tanh() needs a floating-point operand, got i32; convert it with "
     ".to(ktc::DType::f32)");
  expectKernelError([](Ptr<int32_t> x) {
    at = __LINE__; floor(load(x + arange(0, 4)));
  }, "floor() needs a floating-point operand, got tensor<4xi32>; convert it "
     "with .to(ktc::DType::f32)");
  expectKernelError([](Ptr<int32_t> x) {
    at = __LINE__; pow(load(x), 2);
  }, "pow() needs floating-point operands, got i32; convert them with "
     ".to(ktc::DType::f32)");
  expectKernelError([](Ptr<int64_t> x) {
    at = __LINE__; fma(load(x), 2, 3);
  }, "fma() needs floating-point operands, got i64; convert them with "
     ".to(ktc::DType::f32)");
  expectKernelError([](Ptr<float> x) {
    at = __LINE__; (void)(load(x) << 2);
  }, "operator << needs integers, not f32");
  expectKernelError([](Ptr<half> x) {
    at = __LINE__; (void)(load(x) >> 1);
  }, "operator >> needs integers, not f16");
  expectKernelError([](Ptr<float> x) {
    at = __LINE__; umulhi(load(x), 3);
  }, "umulhi() needs integers, not f32");
  expectKernelError([](Ptr<float> x) {
    at = __LINE__; bitcast(load(x), DType::f16);
  }, "bitcast() from f32 to f16 changes the width (32 to 16 bits); use "
     "cast() to convert values");
  expectKernelError([](Ptr<int64_t> x) {
    at = __LINE__; bitcast(load(x), DType::f32);
  }, "bitcast() from i64 to f32 changes the width (64 to 32 bits); use "
     "cast() to convert values");
  expectKernelError([](Ptr<float> x) {
    at = __LINE__; bitcast(x, DType::i64);
  }, "bitcast() of a pointer (!ktc.ptr<f32>): pointers only move by integer "
     "offsets");
  expectKernelError([](Ptr<float> x) {
    at = __LINE__; clamp(load(x) < 0, 0, 1);
  }, "clamp() needs numbers, got i1");
}

} // namespace
