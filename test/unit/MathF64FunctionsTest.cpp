//===- MathF64FunctionsTest.cpp - f64 sin, cos, tanh, erf, pow (issue 19) -===//
//
// ktc-expand-math's f64 sin, cos, tanh, erf and pow (lib/Transforms/
// ExpandMathF64{Trig,Special,Pow}.cpp), the same bits on every target:
// their error in ulp against long double (glibc's sinl, cosl, tanhl, erfl,
// powl: 64-bit significands) on random arguments of odd counts over the
// whole range and near the hard places (multiples of pi/2, erf's pieces,
// pow's overflow edge), their special values (NaN, +-inf, +-0,
// subnormals, huge arguments), and the f64 functions that are single IEEE
// operations (floor, ceil, rint, round, fma, sqrt, rsqrt) staying f64. On
// the CPU, or on KTC_SHAPES_DEVICE=cuda|hip; they compile for sm_90,
// gfx942 and gfx1100 with no library call. KTC_MATH_SWEEP=N runs N times
// as many arguments and prints the largest errors (docs/numerics.md).
//
//===----------------------------------------------------------------------===//

#include "ktc/ktc.h"
#include "TestDevice.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <vector>

using namespace ktc;

namespace {

using test::testDevice;

/// The documented bounds (docs/numerics.md), a little above the measured.
constexpr double kSinCosUlp = 0.8, kTanhUlp = 1.0, kErfUlp = 1.0,
                 kPowUlp = 0.8, kSigmoidUlp = 2.5;
/// sin and cos keep their bound for |x| below this.
constexpr double kTrigRange = 0x1p50;

int sweep() {
  const char *s = std::getenv("KTC_MATH_SWEEP");
  return s && std::atoi(s) > 0 ? std::atoi(s) : 1;
}

enum Fn { Sin, Cos, Tanh, Erf, Pow, Floor, Ceil, Rint, Round, Fma, Sqrt,
          Rsqrt, Sigmoid };
const char *const kNames[] = {"sin",   "cos", "tanh", "erf",  "pow",
                              "floor", "ceil", "rint", "round", "fma",
                              "sqrt",  "rsqrt", "sigmoid"};

void f64Functions(Ptr<double> x, Ptr<double> y, Ptr<double> out, Int n,
                  int BLOCK, int FN) {
  Value offs = program_id(0) * BLOCK + arange(0, BLOCK);
  Value mask = offs < n;
  Value a = load(x + offs, mask, 1.0);
  Value b = load(y + offs, mask, 1.0);
  Value r = FN == Sin     ? sin(a)
            : FN == Cos   ? cos(a)
            : FN == Tanh  ? tanh(a)
            : FN == Erf   ? erf(a)
            : FN == Pow   ? pow(a, b)
            : FN == Floor ? floor(a)
            : FN == Ceil  ? ceil(a)
            : FN == Rint  ? rint(a)
            : FN == Round ? round(a)
            : FN == Fma   ? fma(a, b, a)
            : FN == Sqrt  ? sqrt(a)
            : FN == Rsqrt ? rsqrt(a)
                          : sigmoid(a);
  store(out + offs, r, mask);
}

std::vector<double> run(Fn fn, std::vector<double> x,
                        std::vector<double> y = {},
                        Device &device = testDevice()) {
  static auto kernel = Kernel("f64_functions", f64Functions);
  const int block = 256;
  y.resize(x.size(), 0.75);
  int n = int(x.size());
  Buffer<double> in(device, x), in2(device, y);
  Buffer<double> out(device, std::vector<double>(n, -7777.0));
  kernel.launch({(n + block - 1) / block}, in, in2, out, n, block, int(fn));
  return out.to_host();
}

long double reference(Fn fn, double x, double y) {
  long double v = x;
  switch (fn) {
  case Sin:
    return sinl(v);
  case Cos:
    return cosl(v);
  case Tanh:
    return tanhl(v);
  case Erf:
    return erfl(v);
  case Pow:
    return powl(v, (long double)y);
  case Sigmoid:
    return 1 / (1 + expl(-v));
  default:
    return 0;
  }
}

/// |got - want| in units of the last place of the double nearest `want`
/// (NaN must meet NaN, an infinity the same infinity).
double ulps(double got, long double want) {
  if (std::isnan(got) || std::isnan((double)want))
    return std::isnan(got) && std::isnan((double)want) ? 0 : 1e9;
  double w = double(want);
  if (std::isinf(w))
    return got == w ? 0 : (std::isinf(got) ? 1e9 : 1);
  int e = w == 0 ? -1074 : std::max(std::ilogb(w) - 52, -1074);
  return double(std::fabs((long double)got - want) / std::ldexp(1.0L, e));
}

/// The largest error of fn over x (and y), and where.
double maxError(Fn fn, const std::vector<double> &x,
                const std::vector<double> &y, double &worstAt) {
  std::vector<double> got = run(fn, x, y);
  double worst = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    double u = ulps(got[i], reference(fn, x[i], i < y.size() ? y[i] : 0.75));
    if (u > worst)
      worst = u, worstAt = x[i];
  }
  return worst;
}

void expectBound(Fn fn, const char *what, const std::vector<double> &x,
                 const std::vector<double> &y, double bound) {
  double at = 0;
  double e = maxError(fn, x, y, at);
  EXPECT_LT(e, bound) << kNames[fn] << " " << what << ": " << e
                      << " ulp at " << at;
  if (sweep() > 1)
    std::printf("%s %s: max %.3f ulp at %a\n", kNames[fn], what, e, at);
}

/// n (odd) doubles uniform in [lo, hi].
std::vector<double> uniform(size_t n, double lo, double hi, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<double> v((n * sweep()) | 1);
  for (double &x : v)
    x = d(gen);
  return v;
}

/// n (odd) finite doubles with uniformly random bits and |x| < maxAbs
/// (every exponent, subnormals and both signs included).
std::vector<double> randomBits(size_t n, double maxAbs, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::vector<double> v;
  n = (n * sweep()) | 1;
  while (v.size() < n) {
    double x = std::bit_cast<double>(gen());
    if (std::fabs(x) < maxAbs)
      v.push_back(x);
  }
  return v;
}

TEST(MathF64Functions, SinCosWithinBound) {
  const size_t n = 6000;
  std::vector<double> nearPi; // the doubles nearest j pi/2 and neighbours
  std::mt19937_64 gen(7);
  for (size_t i = 0; i < n; ++i) {
    double j = double(gen() % 2000000) - 1000000;
    double x = double((long double)j * 1.57079632679489661923132169163975L);
    nearPi.push_back(std::nextafter(x, double(i % 3) - 1.0));
  }
  nearPi.push_back(0x1.921fb54442d18p+0);
  for (Fn fn : {Sin, Cos}) {
    expectBound(fn, "over [-pi, pi]", uniform(n, -M_PI, M_PI, 1), {},
                kSinCosUlp);
    expectBound(fn, "over [-1e5, 1e5]", uniform(n, -1e5, 1e5, 2), {},
                kSinCosUlp);
    expectBound(fn, "near multiples of pi/2", nearPi, {}, kSinCosUlp);
    expectBound(fn, "random bits below 2^50", randomBits(n, kTrigRange, 3),
                {}, kSinCosUlp);
  }
}

TEST(MathF64Functions, TanhAndErfWithinBound) {
  const size_t n = 6000;
  for (Fn fn : {Tanh, Erf}) {
    double bound = fn == Tanh ? kTanhUlp : kErfUlp;
    expectBound(fn, "over [-1, 1]", uniform(n, -1, 1, 4), {}, bound);
    expectBound(fn, "over [-7, 7]", uniform(n, -7, 7, 5), {}, bound);
    expectBound(fn, "over [-30, 30]", uniform(n, -30, 30, 6), {}, bound);
    expectBound(fn, "random bits", randomBits(n, INFINITY, 7), {}, bound);
  }
}

TEST(MathF64Functions, PowWithinBound) {
  const size_t n = 6000;
  // |y log2 x| up to ~1100: overflow, underflow and subnormal results.
  std::vector<double> x = randomBits(n, INFINITY, 8), y;
  std::mt19937_64 gen(9);
  std::uniform_real_distribution<double> d(-1100, 1100);
  for (double &v : x) {
    v = std::fabs(v);
    double l = std::log2(v);
    y.push_back(l == 0 ? d(gen) : d(gen) / l);
  }
  expectBound(Pow, "random x, |y log2 x| < 1100", x, y, kPowUlp);
  std::vector<double> near1 = uniform(n, 0.5, 2, 10), big;
  big.resize(near1.size());
  for (double &v : big)
    v = d(gen);
  expectBound(Pow, "x in [0.5, 2], |y| < 1100", near1, big, kPowUlp);
  // Negative x to integer y.
  std::vector<double> neg = uniform(n, -3, -0.3, 11), ints;
  for (size_t i = 0; i < neg.size(); ++i)
    ints.push_back(double(int(gen() % 601) - 300));
  expectBound(Pow, "negative x, integer y", neg, ints, kPowUlp);
}

TEST(MathF64Functions, SpecialValues) {
  const double inf = INFINITY, nan = NAN, sub = 0x1p-1060, huge = 0x1p1000;
  std::vector<double> x = {0.0, -0.0, inf, -inf, nan, sub, -sub,
                           0x1p-1074, huge, -huge, 1.0, -1.0, 1e300};
  for (Fn fn : {Sin, Cos, Tanh, Erf}) {
    std::vector<double> got = run(fn, x);
    for (size_t i = 0; i < x.size(); ++i) {
      SCOPED_TRACE(std::string(kNames[fn]) + "(" + std::to_string(x[i]) +
                   ")");
      double want = double(reference(fn, x[i], 0));
      if ((fn == Sin || fn == Cos) && std::fabs(x[i]) >= kTrigRange &&
          std::isfinite(x[i])) {
        EXPECT_LE(std::fabs(got[i]), 1.0); // beyond the reduction's range
        continue;
      }
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got[i])) << got[i];
        continue;
      }
      EXPECT_LE(ulps(got[i], want), 1.0) << got[i] << " vs " << want;
      if (want == 0 || std::isinf(want)) { // zeros keep their sign
        EXPECT_EQ(std::bit_cast<uint64_t>(got[i]),
                  std::bit_cast<uint64_t>(want));
      }
    }
  }
  // pow: C99's special cases against the host's pow.
  std::vector<double> px, py;
  std::vector<double> vals = {0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5,
                              3.0, -3.0, inf, -inf, nan, sub, -sub, huge};
  for (double a : vals)
    for (double b : vals)
      px.push_back(a), py.push_back(b);
  px.push_back(-8.0), py.push_back(1.0 / 3); // NaN
  std::vector<double> got = run(Pow, px, py);
  for (size_t i = 0; i < px.size(); ++i) {
    double want = std::pow(px[i], py[i]);
    SCOPED_TRACE("pow(" + std::to_string(px[i]) + ", " +
                 std::to_string(py[i]) + ")");
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got[i])) << got[i];
      continue;
    }
    EXPECT_LE(ulps(got[i], reference(Pow, px[i], py[i])), kPowUlp)
        << got[i] << " vs " << want;
    if (want == 0 || std::isinf(want)) {
      EXPECT_EQ(std::bit_cast<uint64_t>(got[i]),
                std::bit_cast<uint64_t>(want))
          << got[i] << " vs " << want;
    }
  }
}

TEST(MathF64Functions, SingleOperationsStayF64) {
  // Values an f32 detour would change: 2^60 + 2^8, 1/3, subnormals (an
  // odd count in all).
  std::vector<double> x = randomBits(2001, INFINITY, 12),
                      y = randomBits(2001, INFINITY, 13);
  for (double edge : {0x1p60 + 256, 1.0 / 3, -2.5, 2.5, 0.5, -0.5, 1e-310,
                      -0.0, 0x1.fffffffffffffp51, 1e300})
    x.push_back(edge), y.push_back(3.0 / 7);
  auto bitsEq = [](double a, double b) {
    return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b) ||
           (std::isnan(a) && std::isnan(b));
  };
  for (Fn fn : {Floor, Ceil, Rint, Round, Fma, Sqrt, Rsqrt}) {
    std::vector<double> got = run(fn, x, y);
    int bad = 0;
    for (size_t i = 0; i < x.size() && bad < 5; ++i) {
      double a = x[i];
      double want = fn == Floor ? std::floor(a)
                    : fn == Ceil ? std::ceil(a)
                    : fn == Rint ? std::nearbyint(a)
                    : fn == Round ? std::round(a)
                    : fn == Fma ? std::fma(a, y[i], a)
                    : fn == Sqrt ? std::sqrt(a)
                                 : 1.0 / std::sqrt(a);
      if (!bitsEq(got[i], want)) {
        ++bad;
        ADD_FAILURE() << kNames[fn] << "(" << a << "): " << got[i]
                      << " instead of " << want;
      }
    }
  }
  expectBound(Sigmoid, "over [-40, 40]", uniform(3000, -40, 40, 14), {},
              kSigmoidUlp);
}

TEST(MathF64Functions, SameBitsAsTheHost) {
  // With KTC_SHAPES_DEVICE=cuda|hip: the GPU's bits are the host's, for
  // every function (on the CPU alone this checks the run is repeatable). A
  // NaN the arithmetic makes (sin(inf)) follows the target's NaN rules.
  std::vector<double> x = randomBits(1001, 1e6, 15),
                      y = uniform(1001, -40, 40, 16);
  for (double edge : {0.0, -0.0, double(INFINITY), double(-INFINITY),
                      double(NAN), 0x1p-1074, 0x1p1000, -0.5})
    x.push_back(edge), y.push_back(edge);
  x.push_back(2.0), y.push_back(0.5); // an odd count
  for (int fn = Sin; fn <= Sigmoid; ++fn) {
    std::vector<double> got = run(Fn(fn), x, y);
    std::vector<double> host = run(Fn(fn), x, y, Device::get("cpu"));
    int bad = 0;
    for (size_t i = 0; i < x.size() && bad < 3; ++i)
      if (std::bit_cast<uint64_t>(got[i]) != std::bit_cast<uint64_t>(host[i]) &&
          !(std::isnan(got[i]) && std::isnan(host[i])))
        ++bad, ADD_FAILURE() << kNames[fn] << "(" << x[i] << ", " << y[i]
                             << "): " << got[i] << " here, " << host[i]
                             << " on the host";
  }
}

TEST(MathF64Functions, CompilesForTheGpus) {
  static auto kernel = Kernel("f64_functions_gpu", f64Functions);
  for (const char *target : {"sm_90", "gfx942", "gfx1100"})
    for (int fn : {Sin, Cos, Tanh, Erf, Pow, Rsqrt, Fma, Sigmoid}) {
      SCOPED_TRACE(std::string(target) + " " + kNames[fn]);
      std::string llvm = kernel.emit("llvm", target, 256, fn);
      // Written out in f64 operations: no library call (no GPU has an f64
      // sin, tanh, erf or pow), no f32 detour.
      for (const char *callee : {"@llvm.sin", "@llvm.cos", "@llvm.exp",
                                 "@llvm.log", "@llvm.pow", "@sin", "@cos",
                                 "@tanh", "@erf", "@pow", "@exp", "@log",
                                 "__nv_", "__ocml_", "fptrunc"})
        EXPECT_EQ(llvm.find(callee), std::string::npos) << callee << llvm;
      if (fn != Rsqrt) { // that is a square root and a division
        EXPECT_NE(llvm.find("@llvm.fma.f64"), std::string::npos) << llvm;
      }
      // The backend selects every instruction, with no scratch memory.
      std::string asm_ = kernel.emit("asm", target, 256, fn);
      if (target[0] == 's') {
        EXPECT_EQ(asm_.find(".local"), std::string::npos) << asm_;
      } else {
        EXPECT_NE(asm_.find(".private_segment_fixed_size: 0"),
                  std::string::npos)
            << asm_;
      }
    }
}

} // namespace
