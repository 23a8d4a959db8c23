//===- MathF64Test.cpp - f64 exp, exp2, log, log2 (issue 19) --------------===//
//
// ktc-expand-math's f64 functions (lib/Transforms/ExpandMathF64.cpp), the
// same bits on every target: their error in ulp against long double
// (glibc's expl, exp2l, logl, log2l: 64-bit significands) on random
// arguments over the whole range and near the hard places, and their
// exact and special values. On the CPU, or on KTC_SHAPES_DEVICE=cuda|hip;
// and they compile for sm_90 and gfx942. KTC_MATH_SWEEP=N runs N times as
// many arguments and prints the largest errors (docs/numerics.md).
//
//===----------------------------------------------------------------------===//

#include "ktc/ktc.h"
#include "TestDevice.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <vector>

using namespace ktc;

namespace {

using test::testDevice;

int sweep() {
  const char *s = std::getenv("KTC_MATH_SWEEP");
  return s && std::atoi(s) > 0 ? std::atoi(s) : 1;
}

enum Fn { Exp, Exp2, Log, Log2 };

void f64Math(Ptr<double> x, Ptr<double> y, Int n, int BLOCK, int FN) {
  Value offs = program_id(0) * BLOCK + arange(0, BLOCK);
  Value mask = offs < n;
  Value a = load(x + offs, mask, 1.0);
  Value r = FN == Exp    ? exp(a)
            : FN == Exp2 ? exp2(a)
            : FN == Log  ? log(a)
                         : log2(a);
  store(y + offs, r, mask);
}

std::vector<double> run(Fn fn, const std::vector<double> &x) {
  static auto kernel = Kernel("f64_math", f64Math);
  const int block = 1024;
  int n = int(x.size());
  Buffer<double> in(testDevice(), x);
  Buffer<double> out(testDevice(), std::vector<double>(n, -7777.0));
  kernel.launch({(n + block - 1) / block}, in, out, n, block, int(fn));
  return out.to_host();
}

long double reference(Fn fn, double x) {
  long double v = x;
  switch (fn) {
  case Exp:
    return expl(v);
  case Exp2:
    return exp2l(v);
  case Log:
    return logl(v);
  case Log2:
    return log2l(v);
  }
  return 0;
}

/// |got - want| in units of the last place of the double nearest `want`.
double ulps(double got, long double want) {
  double w = double(want);
  if (std::isinf(w))
    return got == w ? 0 : (std::isinf(got) ? 1e9 : 1);
  int e = w == 0 ? -1074 : std::max(std::ilogb(w) - 52, -1074);
  return double(std::fabs((long double)got - want) / std::ldexp(1.0L, e));
}

double maxError(Fn fn, const std::vector<double> &x, double &worstAt) {
  std::vector<double> got = run(fn, x);
  double worst = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    double u = ulps(got[i], reference(fn, x[i]));
    if (u > worst)
      worst = u, worstAt = x[i];
  }
  return worst;
}

std::vector<double> uniform(size_t n, double lo, double hi, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<double> v(n);
  for (double &x : v)
    x = d(gen);
  return v;
}

/// Positive finite doubles with uniformly random bits (every exponent,
/// subnormals included).
std::vector<double> positiveBits(size_t n, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::vector<double> v;
  while (v.size() < n) {
    double x = std::bit_cast<double>(gen() & 0x7fffffffffffffffULL);
    if (std::isfinite(x) && x > 0)
      v.push_back(x);
  }
  return v;
}

TEST(MathF64, ExpAndExp2Within0_8Ulp) {
  size_t n = 20000 * size_t(sweep());
  struct Case {
    Fn fn;
    const char *name;
    std::vector<double> x;
  };
  std::vector<Case> cases = {
      {Exp, "exp over [-745, 709.7]", uniform(n, -745, 709.7, 1)},
      {Exp, "exp over [-1, 1]", uniform(n, -1, 1, 2)},
      {Exp2, "exp2 over [-1074, 1023.9]", uniform(n, -1074, 1023.9, 3)},
      {Exp2, "exp2 over [-1, 1]", uniform(n, -1, 1, 4)},
  };
  for (const Case &c : cases) {
    double at = 0;
    double e = maxError(c.fn, c.x, at);
    EXPECT_LT(e, 0.8) << c.name << ": " << e << " ulp at " << at;
    if (sweep() > 1)
      std::printf("%s: max %.3f ulp at %a\n", c.name, e, at);
  }
}

TEST(MathF64, LogAndLog2RoundedOnce) {
  size_t n = 20000 * size_t(sweep());
  std::vector<double> nearOne = uniform(n, 0.7, 1.5, 5);
  std::vector<double> bits = positiveBits(n, 6);
  for (Fn fn : {Log, Log2})
    for (int which = 0; which < 2; ++which) {
      const std::vector<double> &x = which ? bits : nearOne;
      double at = 0;
      double e = maxError(fn, x, at);
      const char *name = fn == Log ? "log" : "log2";
      // Rounded once from a double-double good to 2^-67.
      EXPECT_LT(e, 0.52)
          << name << ": " << e << " ulp at " << at;
      if (sweep() > 1)
        std::printf("%s (%s): max %.3f ulp at %a\n", name,
                    which ? "all exponents" : "near 1", e, at);
    }
}

TEST(MathF64, ExactAndSpecialValues) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> e2;
  for (int k = -1074; k <= 1023; ++k)
    e2.push_back(k);
  std::vector<double> got = run(Exp2, e2);
  for (size_t i = 0; i < e2.size(); ++i)
    EXPECT_EQ(got[i], std::ldexp(1.0, int(e2[i]))) << "exp2(" << e2[i] << ")";
  std::vector<double> p2;
  for (int k = -1074; k <= 1023; ++k)
    p2.push_back(std::ldexp(1.0, k));
  got = run(Log2, p2);
  for (size_t i = 0; i < p2.size(); ++i)
    EXPECT_EQ(got[i], double(int(i) - 1074)) << "log2(2^" << int(i) - 1074
                                             << ")";
  std::vector<double> specials = {0.0, -0.0, inf, -inf, nan, 710.0, -746.0,
                                  1.0, -1.0};
  std::vector<double> ex = run(Exp, specials);
  EXPECT_EQ(ex[0], 1.0);
  EXPECT_EQ(ex[1], 1.0);
  EXPECT_EQ(ex[2], inf);
  EXPECT_EQ(ex[3], 0.0);
  EXPECT_TRUE(std::isnan(ex[4]));
  EXPECT_EQ(ex[5], inf);
  EXPECT_EQ(ex[6], 0.0);
  std::vector<double> lg = run(Log, specials);
  EXPECT_EQ(lg[0], -inf);
  EXPECT_EQ(lg[1], -inf);
  EXPECT_EQ(lg[2], inf);
  EXPECT_TRUE(std::isnan(lg[3]));
  EXPECT_TRUE(std::isnan(lg[4]));
  EXPECT_EQ(lg[7], 0.0);
  EXPECT_TRUE(std::isnan(lg[8]));
}

TEST(MathF64, CompilesForTheGpus) {
  static auto kernel = Kernel("f64_math_gpu", f64Math);
  for (const char *target : {"sm_90", "gfx942"})
    for (int fn : {Exp, Exp2, Log, Log2}) {
      SCOPED_TRACE(std::string(target) + " function " + std::to_string(fn));
      std::string llvm = kernel.emit("llvm", target, 256, fn);
      // Written out in f64 operations: no library or intrinsic exp/log
      // (no GPU has an f64 one), no f32 detour.
      for (const char *callee : {"@llvm.exp", "@llvm.log", "@exp", "@log",
                                 "__nv_", "__ocml_"})
        EXPECT_EQ(llvm.find(callee), std::string::npos) << callee << llvm;
      EXPECT_EQ(llvm.find("fptrunc"), std::string::npos) << llvm;
      EXPECT_NE(llvm.find("@llvm.fma.f64"), std::string::npos) << llvm;
    }
}

} // namespace
