//===- TypesCastTest.cpp - conversions: saturation, fp8, ktc/Half.h ------===//
//
// Float -> integer conversions truncate toward zero and saturate (NaN ->
// 0) on every target; fp8 (e4m3fn, e5m2) converts to and from f16, bf16,
// f32 with one rounding to nearest even. References: C++ for the
// integers, llvm::APFloat (an independent implementation of the formats)
// for every fp8 code, every f16 value and random f32 values, on the
// kernel and on ktc/Half.h's host converters. Outputs poisoned first.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"
#include "ktc/ktc.h"

#include "llvm/ADT/APFloat.h"
#include "TestDevice.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace ktc;

namespace {

using test::testDevice;

int at = 0;
void expectErrorAt(const std::function<void()> &f, const std::string &m) {
  test::expectErrorAt(f, m, __FILE__, at);
}

template <typename T> std::vector<T> poison(size_t n) {
  std::vector<T> v(n);
  std::memset(v.data(), 0xA5, n * sizeof(T));
  return v;
}

/// The saturating conversion a kernel does, in C++.
template <typename I> I saturate(double x) {
  if (std::isnan(x))
    return 0;
  if (x >= std::ldexp(1.0, std::numeric_limits<I>::digits))
    return std::numeric_limits<I>::max();
  if (x < double(std::numeric_limits<I>::min()))
    return std::numeric_limits<I>::min();
  return I(x);
}

void toInts(Ptr<float> x, Ptr<int32_t> i32, Ptr<uint32_t> u32, Ptr<int8_t> i8,
            Ptr<uint8_t> u8, Ptr<int64_t> i64, Ptr<uint64_t> u64,
            Ptr<int16_t> i16, Int n, int BLOCK) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  Value a = load(x + offs, mask);
  store(i32 + offs, a.to(DType::i32), mask);
  store(u32 + offs, a.to(DType::u32), mask);
  store(i8 + offs, a.to(DType::i8), mask);
  store(u8 + offs, a.to(DType::u8), mask);
  store(i64 + offs, a.to(DType::i64), mask);
  store(u64 + offs, a.to(DType::u64), mask);
  store(i16 + offs, a.to(DType::f16).to(DType::i16), mask);
}

TEST(TypesCast, FloatToIntTruncatesAndSaturates) {
  static auto kernel = Kernel("types_cast_saturate", toInts);
  std::vector<float> hx = {NAN, -NAN, INFINITY, -INFINITY, 3e9f, -3e9f,
                           2.5f, -2.5f, -0.75f, 0.99f, 127.9f, 128.0f,
                           -128.9f, -129.0f, 255.5f, 256.0f, 2147483520.0f,
                           2147483648.0f, -2147483648.0f, 1e19f, 2e19f,
                           -1e19f, 65504.0f, 40000.0f, -40000.0f};
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> dist(-5e9f, 5e9f);
  while (hx.size() < 301)
    hx.push_back(hx.size() % 2 ? dist(gen) : dist(gen) * 1e-7f);
  int n = hx.size();
  Device &d = testDevice();
  Buffer<float> x(d, hx);
  Buffer<int32_t> i32(d, poison<int32_t>(n));
  Buffer<uint32_t> u32(d, poison<uint32_t>(n));
  Buffer<int8_t> i8(d, poison<int8_t>(n));
  Buffer<uint8_t> u8(d, poison<uint8_t>(n));
  Buffer<int64_t> i64(d, poison<int64_t>(n));
  Buffer<uint64_t> u64(d, poison<uint64_t>(n));
  Buffer<int16_t> i16(d, poison<int16_t>(n));
  kernel.launch({unsigned(cdiv(n, 128))}, x, i32, u32, i8, u8, i64, u64, i16,
                n, 128);
  auto r32 = i32.to_host();
  auto ru32 = u32.to_host();
  auto r8 = i8.to_host();
  auto ru8 = u8.to_host();
  auto r64 = i64.to_host();
  auto ru64 = u64.to_host();
  auto r16 = i16.to_host();
  for (int i = 0; i < n; ++i) {
    double v = hx[i];
    SCOPED_TRACE(std::to_string(v));
    EXPECT_EQ(r32[i], saturate<int32_t>(v));
    EXPECT_EQ(ru32[i], saturate<uint32_t>(v));
    EXPECT_EQ(r8[i], saturate<int8_t>(v));
    EXPECT_EQ(ru8[i], saturate<uint8_t>(v));
    EXPECT_EQ(r64[i], saturate<int64_t>(v));
    EXPECT_EQ(ru64[i], saturate<uint64_t>(v));
    EXPECT_EQ(r16[i], saturate<int16_t>(to_float(to_half(hx[i]))));
  }
}

const llvm::fltSemantics &semantics(DType t) {
  return t == DType::f8e4m3fn ? llvm::APFloat::Float8E4M3FN()
                              : llvm::APFloat::Float8E5M2();
}

/// APFloat's rounding of an f32 or f16 value to fp8 (NaN: 0x7f and sign).
uint8_t refToFp8(llvm::APFloat v, DType t) {
  bool negative = v.isNegative(), lost;
  if (v.isNaN())
    return 0x7F | (negative ? 0x80 : 0);
  v.convert(semantics(t), llvm::APFloat::rmNearestTiesToEven, &lost);
  if (v.isNaN())
    return 0x7F | (negative ? 0x80 : 0);
  return uint8_t(v.bitcastToAPInt().getZExtValue());
}

float refFromFp8(uint8_t code, DType t) {
  llvm::APFloat v(semantics(t), llvm::APInt(8, code));
  bool lost;
  v.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven,
            &lost);
  return v.convertToFloat();
}

bool sameFloat(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b) &&
           std::signbit(a) == std::signbit(b);
  return std::memcmp(&a, &b, 4) == 0;
}

template <typename F8>
void fp8Kernel(Ptr<F8> codes, Ptr<float> widened, Ptr<half> asHalf,
               Ptr<half> halves, Ptr<F8> fromHalf, Ptr<float> floats,
               Ptr<F8> fromFloat, Ptr<bfloat16> asBf16, Int n, int BLOCK) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  auto small = offs < 256;
  Value c = load(codes + offs, small);
  store(widened + offs, c.to(DType::f32), small);
  store(asHalf + offs, c.to(DType::f16), small);
  store(asBf16 + offs, c.to(DType::bf16), small);
  store(fromHalf + offs, load(halves + offs, mask).to(dtype_of<F8>::value),
        mask);
  store(fromFloat + offs, load(floats + offs, mask).to(dtype_of<F8>::value),
        mask);
}

template <typename F8> void checkFp8() {
  constexpr DType t = dtype_of<F8>::value;
  SCOPED_TRACE(name(t));
  const int n = 65536;
  std::vector<F8> codes(256);
  for (int i = 0; i < 256; ++i)
    codes[i].bits = uint8_t(i);
  std::vector<half> halves(n);
  for (int i = 0; i < n; ++i)
    halves[i].bits = uint16_t(i);
  std::vector<float> floats(n);
  std::mt19937 gen(static_cast<unsigned>(t));
  for (int i = 0; i < n; ++i) {
    // Near fp8's numbers (ties included), over its whole range and past it.
    uint32_t bits = (gen() & 0x80000000u) |
                    ((110 + gen() % 40) << 23) | (gen() & 0x7FFFFF);
    if (i % 4 == 0)
      bits &= ~0xFFFFFu; // exact ties and fp8 values
    std::memcpy(&floats[i], &bits, 4);
  }
  floats[0] = NAN, floats[1] = -INFINITY, floats[2] = 464.0f,
  floats[3] = 480.0f, floats[4] = 61440.0f, floats[5] = -0.0f;
  Device &d = testDevice();
  Buffer<F8> bc(d, codes), bFromHalf(d, poison<F8>(n)),
      bFromFloat(d, poison<F8>(n));
  Buffer<float> bWidened(d, poison<float>(256)), bFloats(d, floats);
  Buffer<half> bAsHalf(d, poison<half>(256)), bHalves(d, halves);
  Buffer<bfloat16> bAsBf16(d, poison<bfloat16>(256));
  static auto kernel = Kernel("types_fp8", fp8Kernel<F8>);
  kernel.launch({unsigned(cdiv(n, 1024))}, bc, bWidened, bAsHalf, bHalves,
                bFromHalf, bFloats, bFromFloat, bAsBf16, n, 1024);
  auto widened = bWidened.to_host();
  auto asHalf = bAsHalf.to_host();
  auto asBf16 = bAsBf16.to_host();
  for (int i = 0; i < 256; ++i) {
    SCOPED_TRACE("code " + std::to_string(i));
    float ref = refFromFp8(uint8_t(i), t);
    EXPECT_TRUE(sameFloat(widened[i], ref)) << widened[i] << " vs " << ref;
    EXPECT_TRUE(sameFloat(to_float(asHalf[i]), ref));
    EXPECT_TRUE(sameFloat(to_float(asBf16[i]), ref));
    EXPECT_TRUE(sameFloat(to_float(codes[i]), ref)); // ktc/Half.h
  }
  auto fromHalf = bFromHalf.to_host();
  for (int i = 0; i < n; ++i) {
    llvm::APFloat v(llvm::APFloat::IEEEhalf(), llvm::APInt(16, i));
    ASSERT_EQ(fromHalf[i].bits, refToFp8(v, t)) << "f16 bits " << i;
  }
  auto fromFloat = bFromFloat.to_host();
  for (int i = 0; i < n; ++i) {
    uint8_t ref = refToFp8(llvm::APFloat(floats[i]), t);
    ASSERT_EQ(fromFloat[i].bits, ref) << floats[i];
    F8 host;
    if constexpr (t == DType::f8e4m3fn)
      host = to_float8_e4m3fn(floats[i]);
    else
      host = to_float8_e5m2(floats[i]);
    ASSERT_EQ(host.bits, ref) << "ktc/Half.h, " << floats[i];
  }
}

TEST(TypesCast, Fp8E4M3FNEveryCodeAndEveryHalf) { checkFp8<float8_e4m3fn>(); }
TEST(TypesCast, Fp8E5M2EveryCodeAndEveryHalf) { checkFp8<float8_e5m2>(); }

/// APFloat's narrowing of `v` to `to`: NaN keeps its sign and top payload
/// bits, quietened (IEEE 754's recommendation; the host's, and since
/// NanNarrowing.cpp NVIDIA's too, whose cvt gives the canonical NaN).
uint16_t refNarrow(llvm::APFloat v, const llvm::fltSemantics &to) {
  bool lost;
  v.convert(to, llvm::APFloat::rmNearestTiesToEven, &lost);
  return uint16_t(v.bitcastToAPInt().getZExtValue());
}

void narrowKernel(Ptr<float> x, Ptr<double> y, Ptr<half> xh, Ptr<bfloat16> xb,
                  Ptr<half> yh, Ptr<bfloat16> yb, Int n, int BLOCK) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  Value a = load(x + offs, mask), b = load(y + offs, mask);
  store(xh + offs, a.to(DType::f16), mask);
  store(xb + offs, a.to(DType::bf16), mask);
  store(yh + offs, b.to(DType::f16), mask);
  store(yb + offs, b.to(DType::bf16), mask);
}

/// f32 and f64 NaNs of both signs, quiet and signalling, with payloads in
/// every bit, narrowed to f16 and bf16 (and ordinary numbers beside them):
/// the bits APFloat gives, on every target.
TEST(TypesCast, NarrowingKeepsTheSignAndPayloadOfNaN) {
  std::mt19937_64 gen(11);
  const int n = 1001;
  std::vector<float> xs(n);
  std::vector<double> ys(n);
  for (int i = 0; i < n; ++i) {
    uint64_t r = gen();
    uint32_t fx = uint32_t(r) & 0x807fffffu;
    uint64_t fy = r & 0x800fffffffffffffull;
    if (i % 5 == 4) { // a number: rounding and overflow untouched
      fx = uint32_t(r) & 0xc7ffffffu;
      fy = (r & 0x80ffffffffffffffull) | 0x3f00000000000000ull;
    } else {
      if (i % 5 == 3) // one payload bit
        fx = (fx & 0x80000000u) | (1u << (i % 23)),
        fy = (fy & (1ull << 63)) | (1ull << (i % 52));
      if ((fx & 0x7fffffu) == 0)
        fx |= 1;
      if ((fy & 0xfffffffffffffull) == 0)
        fy |= 1;
      fx |= 0x7f800000u;
      fy |= 0x7ff0000000000000ull;
    }
    std::memcpy(&xs[i], &fx, 4);
    std::memcpy(&ys[i], &fy, 8);
  }
  // f64 just off the f16/bf16 ties, where rounding twice (through f32 to
  // nearest) goes the wrong way, and at the edges of the ranges.
  double edges[] = {1 + 0x1p-11 + 0x1p-40, -(1 + 0x1p-11 + 0x1p-40),
                    1 + 0x1p-11 - 0x1p-40, 1 + 0x1p-8 + 0x1p-40,
                    -(1 + 0x1p-8 + 0x1p-45), 65520 - 0x1p-30, 65520.0,
                    0x1p-25 + 0x1p-60, -0x1p-25, 0x1p-133 + 0x1p-160,
                    0x1.fep127 + 0x1p100, 1e300, -0.0, 0x1p-1074};
  for (size_t k = 0; k < std::size(edges); ++k)
    ys[5 * k + 4] = edges[k];
  Device &d = testDevice();
  Buffer<float> bx(d, xs);
  Buffer<double> by(d, ys);
  Buffer<half> xh(d, poison<half>(n)), yh(d, poison<half>(n));
  Buffer<bfloat16> xb(d, poison<bfloat16>(n)), yb(d, poison<bfloat16>(n));
  static auto kernel = Kernel("types_narrow_nan", narrowKernel);
  kernel.launch({unsigned(cdiv(n, 256))}, bx, by, xh, xb, yh, yb, n, 256);
  auto rxh = xh.to_host(), ryh = yh.to_host();
  auto rxb = xb.to_host(), ryb = yb.to_host();
  const auto &f16 = llvm::APFloat::IEEEhalf();
  const auto &bf16 = llvm::APFloat::BFloat();
  for (int i = 0; i < n; ++i) {
    SCOPED_TRACE("element " + std::to_string(i));
    llvm::APFloat x(xs[i]), y(ys[i]);
    EXPECT_EQ(rxh[i].bits, refNarrow(x, f16)) << std::hex << x.bitcastToAPInt().getZExtValue();
    EXPECT_EQ(rxb[i].bits, refNarrow(x, bf16)) << std::hex << x.bitcastToAPInt().getZExtValue();
    EXPECT_EQ(ryh[i].bits, refNarrow(y, f16)) << std::hex << y.bitcastToAPInt().getZExtValue();
    EXPECT_EQ(ryb[i].bits, refNarrow(y, bf16)) << std::hex << y.bitcastToAPInt().getZExtValue();
  }
}

TEST(TypesCast, HalfHeaderMatchesAPFloat) {
  std::mt19937 gen(3);
  for (int i = 0; i < 200000; ++i) {
    uint32_t bits = gen();
    if (i % 3 == 0)
      bits &= ~0x1FFFu; // ties for f16
    float f;
    std::memcpy(&f, &bits, 4);
    bool lost;
    llvm::APFloat h(f), b(f);
    h.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven,
              &lost);
    b.convert(llvm::APFloat::BFloat(), llvm::APFloat::rmNearestTiesToEven,
              &lost);
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(to_float(to_half(f))));
      EXPECT_TRUE(std::isnan(to_float(to_bfloat16(f))));
      continue;
    }
    ASSERT_EQ(to_half(f).bits, h.bitcastToAPInt().getZExtValue()) << f;
    ASSERT_EQ(to_bfloat16(f).bits, b.bitcastToAPInt().getZExtValue()) << f;
    ASSERT_TRUE(sameFloat(to_float(to_half(f)), h.convertToFloat() ));
  }
}

void fp8Arith(Ptr<float8_e4m3fn> x, Ptr<float> out) {
  Value a = load(x);
  at = __LINE__ + 1;
  store(out, a + 1.0f);
}

void fp8Exp(Ptr<float8_e5m2> x, Ptr<float> out) {
  Value a = load(x);
  at = __LINE__ + 1;
  store(out, exp(a));
}

TEST(TypesCast, Fp8IsAStorageType) {
  expectErrorAt(
      [] { (void)Kernel("types_fp8_add", fp8Arith).mlir(); },
      "f8E4M3FN is a storage type (load, store, convert), not an operand "
      "of +; convert it with .to(ktc::DType::f32) first");
  expectErrorAt([] { (void)Kernel("types_fp8_exp", fp8Exp).mlir(); },
                "exp() needs a floating-point operand, got f8E5M2; convert "
                "it with .to(ktc::DType::f32)");
}

} // namespace

namespace {
void dotOfBytes(Ptr<uint8_t> p) {
  Value a = load(p + arange(0, 16)).to(DType::u8);
  Value m = broadcast_to(expand_dims(a, 0), {16, 16});
  at = __LINE__ + 1;
  (void)dot(m, m);
}

TEST(TypesCast, BadUsesOfTheNewTypes) {
  expectErrorAt([] { (void)Kernel("types_dot_u8", dotOfBytes).mlir(); },
                "dot() multiplies signed i8 blocks, got u8 (cast() them to i8 or "
                "to f16)");
  at = __LINE__ + 1;
  expectErrorAt([] { (void)Kernel("types_bool_ptr", [](Ptr<bool>) {}).mlir(); },
                "parameter 0 of kernel 'types_bool_ptr' is a Ptr<bool>: "
                "kernels take no boolean pointers; use Ptr<uint8_t> (a "
                "Buffer<uint8_t> of 0s and 1s) and compare with 0");
}
} // namespace
