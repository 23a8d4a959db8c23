//===- HostFloatTest.cpp - f16/bf16 and reductions: the same bits anywhere -===//
//
// The host target must give the same answers on every x86-64 CPU: f32 <->
// f16/bf16 conversions and 16-bit arithmetic round to nearest even with
// subnormals kept, whether or not the CPU has F16C, AVX512-FP16 or
// AVX512-BF16 and whatever the C runtime exports. Each kernel is compiled
// for this CPU through the public API, and for named CPUs with and without
// those features through the host target's CPU seam: every object must be
// free of conversion library calls, and every one this machine can run
// must give exactly APFloat's bits.
//
// Reductions: 16-bit floats accumulate in f32 and round once; max/min
// ignore NaNs and give NaN for a block of NaNs, 1-D and 2-D along each
// axis; a float sum of -0s is -0.
//
//===----------------------------------------------------------------------===//

#include "ktc/ktc.h"
#include "lib/Target/CPU/HostTarget.h"
#include "HostCpus.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/TargetParser/Host.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <random>

using namespace ktc;

namespace {

Device &cpu() { return Device::get("cpu"); }

constexpr int BLOCK = 256;

/// x -> bf16, f16 (stored); those back to f32; bf16 and f16 sums of
/// neighbours (a[i] + a[i ^ 1], computed in the 16-bit type).
void convert(Ptr<float> x, Ptr<bfloat16> b, Ptr<half> h, Ptr<float> xb,
             Ptr<float> xh, Ptr<bfloat16> sb, Ptr<half> sh, Int n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  auto v = load(x + offs, mask);
  auto vb = v.to(DType::bf16), vh = v.to(DType::f16);
  store(b + offs, vb, mask);
  store(h + offs, vh, mask);
  store(xb + offs, vb.to(DType::f32), mask);
  store(xh + offs, vh.to(DType::f32), mask);
  auto partner = offs ^ 1;
  auto pmask = partner < n;
  auto wb = load(x + partner, pmask).to(DType::bf16);
  auto wh = load(x + partner, pmask).to(DType::f16);
  store(sb + offs, where(pmask, vb + wb, vb), mask);
  store(sh + offs, where(pmask, vh + wh, vh), mask);
}

const llvm::fltSemantics &f32() { return llvm::APFloat::IEEEsingle(); }

uint16_t round16(float x, const llvm::fltSemantics &sem) {
  llvm::APFloat v(x);
  bool lost;
  v.convert(sem, llvm::APFloat::rmNearestTiesToEven, &lost);
  return uint16_t(v.bitcastToAPInt().getZExtValue());
}

float widen16(uint16_t bits, const llvm::fltSemantics &sem) {
  llvm::APFloat v(sem, llvm::APInt(16, bits));
  bool lost;
  v.convert(f32(), llvm::APFloat::rmNearestTiesToEven, &lost);
  return v.convertToFloat();
}

uint16_t add16(uint16_t a, uint16_t b, const llvm::fltSemantics &sem) {
  llvm::APFloat x(sem, llvm::APInt(16, a)), y(sem, llvm::APInt(16, b));
  x.add(y, llvm::APFloat::rmNearestTiesToEven);
  return uint16_t(x.bitcastToAPInt().getZExtValue());
}

bool isNaN16(uint16_t bits, const llvm::fltSemantics &sem) {
  return llvm::APFloat(sem, llvm::APInt(16, bits)).isNaN();
}

/// The inputs: the edges of both 16-bit formats and of f32, ties and
/// near-ties at both roundings for every exponent, and random bit patterns.
std::vector<float> inputs() {
  std::vector<uint32_t> bits = {
      0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
      0x7f800001, 0x7fbfffff, 0xff812345, // NaNs, signalling ones too
      0x00000001, 0x807fffff, 0x00588000, 0x00400000, 0x00008000,
      0x7f7fffff, 0xff7fffff, 0x7f7f7fff, 0x7f7f8000, // f32 max, bf16 edge
      0x477fe000, 0x477fefff, 0x477ff000, 0x477ff001, // f16 max, overflow
      0x38800000, 0x387fffff, 0x387fe000, 0x33800000, 0x33000000,
      0x33000001, 0x337fffff, 0x32ffffff, 0xb3000001, // f16 subnormals
  };
  for (uint32_t e = 0; e < 256; ++e)
    for (uint32_t m : {0u, 1u, 0xfffu, 0x1000u, 0x1fffu, 0x2000u, 0x3000u,
                       0x7fffu, 0x8000u, 0x8001u, 0x18000u, 0x7fffffu})
      for (uint32_t s : {0u, 0x80000000u})
        bits.push_back(s | e << 23 | m);
  std::mt19937 rng(2026);
  for (int i = 0; i < 20000; ++i)
    bits.push_back(rng());
  std::vector<float> out;
  for (uint32_t b : bits)
    out.push_back(std::bit_cast<float>(b));
  if (out.size() % 2 == 0)
    out.push_back(1.0f); // odd n: the last element has no partner
  return out;
}

/// Checks the outputs of `convert` bit for bit against APFloat.
void checkConversions(const std::vector<float> &x,
                      const std::vector<uint16_t> &b,
                      const std::vector<uint16_t> &h,
                      const std::vector<float> &xb,
                      const std::vector<float> &xh,
                      const std::vector<uint16_t> &sb,
                      const std::vector<uint16_t> &sh) {
  const auto &bf = llvm::APFloat::BFloat(), &hf = llvm::APFloat::IEEEhalf();
  int failures = 0;
  auto fail = [&](size_t i, const char *what, uint32_t got, uint32_t want) {
    if (++failures <= 10)
      ADD_FAILURE() << what << " of 0x" << std::hex
                    << std::bit_cast<uint32_t>(x[i]) << ": got 0x" << got
                    << ", want 0x" << want;
  };
  for (size_t i = 0; i < x.size(); ++i) {
    uint16_t wb = round16(x[i], bf), wh = round16(x[i], hf);
    if (std::isnan(x[i])) {
      // NaN stays NaN with its sign.
      if (!isNaN16(b[i], bf) || (b[i] >> 15) != (wb >> 15))
        fail(i, "bf16", b[i], wb);
      if (!isNaN16(h[i], hf) || (h[i] >> 15) != (wh >> 15))
        fail(i, "f16", h[i], wh);
      if (!std::isnan(xb[i]) || !std::isnan(xh[i]))
        fail(i, "NaN back to f32", std::bit_cast<uint32_t>(xb[i]), 0x7fc00000);
    } else {
      if (b[i] != wb)
        fail(i, "bf16", b[i], wb);
      if (h[i] != wh)
        fail(i, "f16", h[i], wh);
      if (std::bit_cast<uint32_t>(xb[i]) !=
          std::bit_cast<uint32_t>(widen16(wb, bf)))
        fail(i, "bf16 -> f32", std::bit_cast<uint32_t>(xb[i]),
             std::bit_cast<uint32_t>(widen16(wb, bf)));
      if (std::bit_cast<uint32_t>(xh[i]) !=
          std::bit_cast<uint32_t>(widen16(wh, hf)))
        fail(i, "f16 -> f32", std::bit_cast<uint32_t>(xh[i]),
             std::bit_cast<uint32_t>(widen16(wh, hf)));
    }
    size_t j = i ^ 1;
    uint16_t ab = j < x.size() ? add16(wb, round16(x[j], bf), bf) : wb;
    uint16_t ah = j < x.size() ? add16(wh, round16(x[j], hf), hf) : wh;
    // A NaN sum is any NaN (x86 and the GPUs make different default NaNs).
    if (isNaN16(ab, bf) ? !isNaN16(sb[i], bf) : sb[i] != ab)
      fail(i, "bf16 add", sb[i], ab);
    if (isNaN16(ah, hf) ? !isNaN16(sh[i], hf) : sh[i] != ah)
      fail(i, "f16 add", sh[i], ah);
  }
  EXPECT_EQ(failures, 0);
}

template <typename T> std::vector<uint16_t> bitsOf(const std::vector<T> &v) {
  std::vector<uint16_t> out;
  for (T t : v)
    out.push_back(t.bits);
  return out;
}

TEST(HostFloat, ConversionsRoundToNearestEvenOnThisCpu) {
  auto kernel = Kernel("convert", convert);
  std::vector<float> x = inputs();
  int n = int(x.size());
  Buffer<float> in(cpu(), x), xb(cpu(), std::vector<float>(n, 42.0f)),
      xh(cpu(), std::vector<float>(n, 42.0f));
  Buffer<bfloat16> b(cpu(), std::vector<bfloat16>(n, {0x1234})),
      sb(cpu(), std::vector<bfloat16>(n, {0x1234}));
  Buffer<half> h(cpu(), std::vector<half>(n, {0x1234})),
      sh(cpu(), std::vector<half>(n, {0x1234}));
  kernel.launch({int(cdiv(n, BLOCK))}, in, b, h, xb, xh, sb, sh, n);
  checkConversions(x, bitsOf(b.to_host()), bitsOf(h.to_host()), xb.to_host(),
                   xh.to_host(), bitsOf(sb.to_host()), bitsOf(sh.to_host()));
}

/// Undefined symbols of an object file.
std::vector<std::string> undefinedSymbols(llvm::StringRef object) {
  auto buffer = llvm::MemoryBuffer::getMemBuffer(object, "kernel", false);
  auto file = llvm::object::ObjectFile::createObjectFile(*buffer);
  if (!file) {
    ADD_FAILURE() << llvm::toString(file.takeError());
    return {};
  }
  std::vector<std::string> out;
  for (const auto &sym : (*file)->symbols()) {
    auto flags = sym.getFlags();
    auto name = sym.getName();
    if (flags && (*flags & llvm::object::SymbolRef::SF_Undefined) && name)
      out.push_back(name->str());
  }
  return out;
}

using ktc::test::canRun;

TEST(HostFloat, NoCpuFeatureOrLibraryCallDecidesTheBits) {
#if !defined(__x86_64__)
  GTEST_SKIP() << "the CPUs named here are x86-64 ones";
#endif
  auto kernel = Kernel("convert", convert);
  std::string text = kernel.mlir();
  std::vector<float> x = inputs();
  int n = int(x.size());
  // Baseline x86-64 (no F16C, no AVX), Haswell's level (F16C) and Sapphire
  // Rapids (AVX512-FP16 and AVX512-BF16, whose vcvtneps2bf16 flushes
  // subnormals).
  for (host::HostCpu target : {host::HostCpu{"x86-64", ""},
                               host::HostCpu{"x86-64-v3", ""},
                               host::HostCpu{"sapphirerapids", ""}}) {
    SCOPED_TRACE(target.cpu);
    mlir::MLIRContext ctx;
    mlir::DialectRegistry registry;
    host::registerHostDialects(registry);
    ctx.appendDialectRegistry(registry);
    auto module = mlir::parseSourceString<mlir::ModuleOp>(text, &ctx);
    ASSERT_TRUE(module);
    auto object = host::compileObject(*module, "convert", nullptr, &target);
    ASSERT_TRUE(bool(object)) << llvm::toString(object.takeError());
    for (const std::string &sym : undefinedSymbols(*object))
      EXPECT_EQ(sym.find("trunc"), std::string::npos) << sym;
    if (!canRun(target))
      continue; // compiled and linked cleanly; this CPU cannot run it
    auto loaded = host::HostKernel::load(*object, "convert");
    ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
    std::vector<uint16_t> b(n, 0x1234), h(n, 0x1234), sb(n, 0x1234),
        sh(n, 0x1234);
    std::vector<float> xb(n, 42.0f), xh(n, 42.0f);
    std::vector<int64_t> addr = {
        int64_t(x.data()),  int64_t(b.data()),  int64_t(h.data()),
        int64_t(xb.data()), int64_t(xh.data()), int64_t(sb.data()),
        int64_t(sh.data())};
    int32_t count = n;
    std::vector<void *> args;
    for (int64_t &a : addr)
      args.push_back(&a);
    args.push_back(&count);
    loaded->run(args.data(), args.size(), {int32_t(cdiv(n, BLOCK)), 1, 1});
    checkConversions(x, b, h, xb, xh, sb, sh);
  }
}

/// max, min and sum of a 1-D block and of a 4x8 block along each axis.
void reductions(Ptr<float> x, Ptr<float> out) {
  auto r = arange(0, 4), c = arange(0, 8);
  auto tile = load(x + expand_dims(r, 1) * 8 + expand_dims(c, 0));
  auto flat = load(x + arange(0, 32));
  store(out + 0, max(flat, 0));
  store(out + 1, min(flat, 0));
  store(out + 2, sum(flat, 0));
  store(out + 3 + c, max(tile, 0));
  store(out + 11 + c, min(tile, 0));
  store(out + 19 + c, sum(tile, 0));
  store(out + 27 + r, max(tile, 1));
  store(out + 31 + r, min(tile, 1));
  store(out + 35 + r, sum(tile, 1));
}

/// The same reductions in float64 with the contract's NaN rule: NaNs are
/// ignored, a block of NaNs gives NaN; sums of -0s are -0.
std::vector<double> reduceReference(const std::vector<float> &x) {
  auto fold = [](std::vector<double> v) {
    double mx = NAN, mn = NAN, s = -0.0;
    for (double d : v) {
      if (!std::isnan(d)) {
        mx = std::isnan(mx) ? d : std::max(mx, d);
        mn = std::isnan(mn) ? d : std::min(mn, d);
      }
      s += d;
    }
    return std::array<double, 3>{mx, mn, s};
  };
  std::vector<double> out(39);
  auto all = fold(std::vector<double>(x.begin(), x.end()));
  out[0] = all[0], out[1] = all[1], out[2] = all[2];
  for (int j = 0; j < 8; ++j) {
    std::vector<double> col;
    for (int i = 0; i < 4; ++i)
      col.push_back(x[i * 8 + j]);
    auto f = fold(col);
    out[3 + j] = f[0], out[11 + j] = f[1], out[19 + j] = f[2];
  }
  for (int i = 0; i < 4; ++i) {
    auto f = fold(std::vector<double>(x.begin() + i * 8, x.begin() + i * 8 + 8));
    out[27 + i] = f[0], out[31 + i] = f[1], out[35 + i] = f[2];
  }
  return out;
}

TEST(HostFloat, MaxMinIgnoreNaNsAndGiveNaNForBlocksOfNaNs) {
  auto kernel = Kernel("reductions", reductions);
  // Row 0 all NaN; row 1 NaN but one; row 2 all equal; row 3 -0s and +0
  // with -inf; column 7 NaN but row 2's.
  std::vector<float> x = {
      NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN,      //
      NAN, NAN, -3.5f, NAN, NAN, NAN, NAN, NAN,    //
      2.f, 2.f, 2.f, 2.f, 2.f, 2.f, 2.f, 2.f,      //
      -0.f, -0.f, -0.f, -INFINITY, -0.f, -0.f, 1e30f, NAN};
  std::vector<float> allNaN(32, NAN), negZeros(32, -0.0f);
  for (const auto &input : {x, allNaN, negZeros}) {
    Buffer<float> in(cpu(), input), out(cpu(), std::vector<float>(39, 42.f));
    kernel.launch({1}, in, out);
    std::vector<float> got = out.to_host();
    std::vector<double> want = reduceReference(input);
    for (int i = 0; i < 39; ++i) {
      if (std::isnan(want[i]))
        EXPECT_TRUE(std::isnan(got[i])) << i << ": " << got[i];
      else if (want[i] == 0)
        EXPECT_TRUE(got[i] == 0 && std::signbit(got[i]) == std::signbit(want[i]))
            << i << ": " << got[i];
      else
        EXPECT_EQ(got[i], float(want[i])) << i;
    }
  }
}

TEST(HostFloat, SixteenBitReductionsAccumulateInF32) {
  // 37 bf16 and f16 values whose f32 sum is exact: the result must be that
  // sum rounded once (a bf16 accumulator gave 0.765625 for 0.525390625).
  auto kernel = Kernel("sum16", [](Ptr<bfloat16> b, Ptr<half> h,
                                   Ptr<float> out, Int n) {
    auto offs = arange(0, 64);
    auto mask = offs < n;
    store(out + 0, sum(load(b + offs, mask, 0.0f), 0).to(DType::f32));
    store(out + 1, sum(load(h + offs, mask, 0.0f), 0).to(DType::f32));
    store(out + 2, max(load(b + offs, mask, -INFINITY), 0).to(DType::f32));
  });
  const auto &bf = llvm::APFloat::BFloat(), &hf = llvm::APFloat::IEEEhalf();
  std::mt19937 rng(37);
  for (int trial = 0; trial < 20; ++trial) {
    SCOPED_TRACE(trial);
    std::vector<bfloat16> hb;
    std::vector<half> hh;
    double sb = 0, sh = 0, mb = -INFINITY;
    for (int i = 0; i < 37; ++i) {
      // Multiples of 2^-8 in (-1, 1): the f32 sums are exact.
      float v = float(int(rng() % 511) - 255) / 256.0f;
      hb.push_back({round16(v, bf)});
      hh.push_back({round16(v, hf)});
      sb += widen16(hb.back().bits, bf);
      sh += widen16(hh.back().bits, hf);
      mb = std::max(mb, double(widen16(hb.back().bits, bf)));
    }
    Buffer<bfloat16> b(cpu(), hb);
    Buffer<half> h(cpu(), hh);
    Buffer<float> out(cpu(), std::vector<float>(3, NAN));
    kernel.launch({1}, b, h, out, 37);
    std::vector<float> got = out.to_host();
    EXPECT_EQ(got[0], widen16(round16(float(sb), bf), bf));
    EXPECT_EQ(got[1], widen16(round16(float(sh), hf), hf));
    EXPECT_EQ(got[2], float(mb));
  }
}

TEST(HostFloat, DivisionIsCorrectlyRounded) {
  // `/` and div_rn are IEEE division on every target; on the host fdiv is
  // too (its looser bound is for GPUs: docs/builder.md).
  auto kernel = Kernel("divide", [](Ptr<float> x, Ptr<float> y, Ptr<float> q,
                                    Ptr<float> r, Ptr<float> f, Int n) {
    auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
    auto mask = offs < n;
    auto a = load(x + offs, mask), b = load(y + offs, mask);
    store(q + offs, a / b, mask);
    store(r + offs, div_rn(a, b), mask);
    store(f + offs, fdiv(a, b), mask);
  });
  std::vector<float> x = inputs(), y = inputs();
  std::reverse(y.begin(), y.end());
  int n = int(x.size());
  Buffer<float> bx(cpu(), x), by(cpu(), y);
  Buffer<float> q(cpu(), std::vector<float>(n, 42.f)),
      r(cpu(), std::vector<float>(n, 42.f)),
      f(cpu(), std::vector<float>(n, 42.f));
  kernel.launch({int(cdiv(n, BLOCK))}, bx, by, q, r, f, n);
  int failures = 0;
  for (const auto &got : {q.to_host(), r.to_host(), f.to_host()})
    for (int i = 0; i < n; ++i) {
      float want = x[i] / y[i]; // the test's own IEEE division
      bool same = std::isnan(want) ? std::isnan(got[i])
                                   : std::bit_cast<uint32_t>(got[i]) ==
                                         std::bit_cast<uint32_t>(want);
      if (!same && ++failures <= 10)
        ADD_FAILURE() << x[i] << " / " << y[i] << ": got " << got[i]
                      << ", want " << want;
    }
  EXPECT_EQ(failures, 0);
}

TEST(HostFloat, FastDivisionNeedsFloats) {
  int line = 0;
  try {
    Kernel("k", [&](Ptr<int32_t> p) {
      line = __LINE__ + 1;
      store(p, fdiv(load(p), 3));
    }).mlir();
    ADD_FAILURE() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(e.message(), "fdiv() needs floating-point operands, got i32; "
                           "convert them with .to(ktc::DType::f32)");
    EXPECT_EQ(e.line(), unsigned(line));
    EXPECT_EQ(e.file(), std::string(__FILE__));
  }
}

/// ulps between `got` and the real `want` (f32 ulp at want; subnormal ulp
/// below 2^-126; 0 for equal infinities or two NaNs).
double ulps(float got, double want) {
  if (std::isnan(want) || std::isnan(got))
    return std::isnan(want) && std::isnan(got) ? 0 : INFINITY;
  if (std::isinf(float(want)) || std::isinf(got))
    return float(want) == got ? 0 : INFINITY;
  double w = std::fabs(want);
  int e = w < 0x1p-126 ? -126 : std::ilogb(w);
  return std::fabs(double(got) - want) / std::ldexp(1.0, e - 23);
}

TEST(HostFloat, ExpAndLogWithinTwoUlpsAndExactAtPowersOfTwo) {
  // ktc-expand-math: the same f32 operations on every target. Every
  // exponent's arguments, the edges, subnormal arguments and results.
  auto kernel = Kernel("explog", [](Ptr<float> x, Ptr<float> out, Int n) {
    auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
    auto mask = offs < n;
    auto a = load(x + offs, mask);
    store(out + offs, exp(a), mask);
    store(out + n + offs, exp2(a), mask);
    store(out + 2 * n + offs, log(a), mask);
    store(out + 3 * n + offs, log2(a), mask);
  });
  std::vector<float> x = {0.f, -0.f, INFINITY, -INFINITY, NAN, 1.f, -1.f,
                          71.9f, 88.72f, 88.73f, -87.3f, -103.9f, -104.f,
                          127.99f, 128.f, -149.f, -150.f, -151.f, 1.04f,
                          0x1p-149f, 0x1p-126f, 0x1.fffffep127f};
  for (int e = -149; e <= 127; ++e)
    x.push_back(std::ldexp(1.0f, e)); // exact powers of two
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> wide(-152.f, 130.f), unit(-1.f, 1.f);
  for (int i = 0; i < 60000; ++i) {
    x.push_back(wide(rng));
    x.push_back(unit(rng));
    x.push_back(std::bit_cast<float>(uint32_t(rng() & 0x7fffffff))); // any
  }
  int n = int(x.size());
  Buffer<float> in(cpu(), x), out(cpu(), std::vector<float>(4 * n, 42.f));
  kernel.launch({int(cdiv(n, BLOCK))}, in, out, n);
  std::vector<float> got = out.to_host();
  double worst[4] = {0, 0, 0, 0};
  int inexactPowers = 0;
  for (int i = 0; i < n; ++i) {
    double a = x[i];
    double want[4] = {std::exp(a), std::exp2(a), std::log(a), std::log2(a)};
    for (int f = 0; f < 4; ++f)
      worst[f] = std::max(worst[f], ulps(got[f * n + i], want[f]));
    if (i >= 22 && i < 22 + 277) { // 2^e: log2 exactly e, exp2(e) exact
      inexactPowers += got[3 * n + i] != float(std::ilogb(x[i]));
    }
  }
  for (float e : {-149.f, -126.f, -1.f, 0.f, 1.f, 10.f, 127.f}) {
    std::vector<float> one = {e};
    Buffer<float> b(cpu(), one), o(cpu(), std::vector<float>(4, 42.f));
    kernel.launch({1}, b, o, 1);
    EXPECT_EQ(o.to_host()[1], std::ldexp(1.0f, int(e))) << "exp2(" << e << ")";
  }
  EXPECT_LE(worst[0], 2.0) << "exp";
  EXPECT_LE(worst[1], 2.0) << "exp2";
  EXPECT_LE(worst[2], 2.0) << "log";
  EXPECT_LE(worst[3], 2.0) << "log2";
  EXPECT_EQ(inexactPowers, 0);
  RecordProperty("exp_ulp", std::to_string(worst[0]));
  std::printf("max ulp: exp %.3f exp2 %.3f log %.3f log2 %.3f over %d args\n",
              worst[0], worst[1], worst[2], worst[3], n);
}

} // namespace
