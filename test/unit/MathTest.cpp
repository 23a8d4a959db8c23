//===- MathTest.cpp - tanh, erf, sin, cos, pow, roundings, fma, rsqrt -----===//
//
// The public API only, on Device("cpu") (or KTC_SHAPES_DEVICE's device, as
// DotTest): each float function over edges (+-0, +-inf, NaNs, subnormals,
// the largest values, ties) and many random arguments, at odd sizes with
// the outputs poisoned first. Exact functions (floor, ceil, rint, round,
// fma, rsqrt as 1/sqrt rounded twice, maximum/minimum propagating NaN) are
// checked bit for bit; the others within their documented ulp bounds
// against float64 (docs/numerics.md), and the largest error is printed.
// The integer and bit operations and the errors are in MathBitsTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "MathTestUtil.h"

using namespace ktc;
using namespace ktc::mathtest;

namespace {

enum Fn {
  Tanh, Erf, Sin, Cos, Floor, Ceil, Rint, Round, Rsqrt, Pow, Fma, MaxNaN,
  MinNaN, ClampNaN
};

template <typename T>
void floatKernel(Ptr<T> x, Ptr<T> y, Ptr<T> z, Ptr<T> out, Int n, int FN) {
  auto offs = program_id(0) * kBlock + arange(0, kBlock);
  auto m = offs < n;
  Value a = load(x + offs, m), b = load(y + offs, m), c = load(z + offs, m);
  Value r;
  switch (FN) {
  case Tanh: r = tanh(a); break;
  case Erf: r = erf(a); break;
  case Sin: r = sin(a); break;
  case Cos: r = cos(a); break;
  case Floor: r = floor(a); break;
  case Ceil: r = ceil(a); break;
  case Rint: r = rint(a); break;
  case Round: r = round(a); break;
  case Rsqrt: r = rsqrt(a); break;
  case Pow: r = pow(a, b); break;
  case Fma: r = fma(a, b, c); break;
  case MaxNaN: r = maximum(a, b, PropagateNan::all); break;
  case MinNaN: r = minimum(a, b, PropagateNan::all); break;
  case ClampNaN: r = clamp(a, b, c, PropagateNan::all); break;
  }
  store(out + offs, r, m);
}

/// Runs FN over the element triples of type T (given as floats) on
/// `device`; the results as floats, the poisoned tail checked.
template <typename T>
std::vector<float> runOn(Device &device, Fn fn, const std::vector<float> &x,
                         std::vector<float> y, std::vector<float> z) {
  static auto kernel = Kernel("math_float", floatKernel<T>);
  int n = int(x.size());
  y.resize(n, 1.0f);
  z.resize(n, 1.0f);
  Buffer<T> bx(device, toType<T>(x)), by(device, toType<T>(y)),
      bz(device, toType<T>(z));
  std::vector<T> poison(n + 7, toType<T>(std::vector<float>{1234.5f})[0]);
  Buffer<T> out(device, poison);
  kernel.launch({unsigned(cdiv(n, kBlock))}, bx, by, bz, out, n, int(fn));
  std::vector<T> got = out.to_host();
  for (int i = n; i < n + 7; ++i)
    EXPECT_EQ(bitsOf(got[i]), bitsOf(poison[i])) << "tail " << i;
  got.resize(n);
  return toFloat(got);
}

/// FN on the test device. On a GPU (KTC_SHAPES_DEVICE) the host runs it
/// too: every function here promises the host's bits (NaN for NaN).
template <typename T>
std::vector<float> run(Fn fn, const std::vector<float> &x,
                       std::vector<float> y = {}, std::vector<float> z = {}) {
  std::vector<float> got = runOn<T>(testDevice(), fn, x, y, z);
  if (testDevice().kind() != DeviceKind::CPU) {
    std::vector<float> host = runOn<T>(Device::get("cpu"), fn, x, y, z);
    int differ = 0;
    for (size_t i = 0; i < x.size(); ++i)
      if (!(std::isnan(got[i]) && std::isnan(host[i])) &&
          bitsOf(got[i]) != bitsOf(host[i]) && ++differ <= 5)
        ADD_FAILURE() << "fn " << int(fn) << " (" << typeName<T>() << ") of "
                      << std::hexfloat << x[i] << ": " << got[i]
                      << " on the device, " << host[i] << " on the host";
    EXPECT_EQ(differ, 0) << "fn " << int(fn) << ": elements whose bits "
                         << "differ from the host's";
  }
  return got;
}

/// The largest error in ulps of `got` against `ref(x)`, printed, and the
/// worst argument.
template <typename T, typename Ref>
double maxUlp(const char *name, const std::vector<float> &x,
              const std::vector<float> &got, Ref ref,
              const std::vector<float> &y = {}) {
  double worst = 0;
  size_t at = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    double r;
    if constexpr (std::is_invocable_v<Ref, double>)
      r = ref(double(x[i]));
    else
      r = ref(double(x[i]), double(y[i]));
    double e = ulpError<T>(got[i], r);
    if (!(e <= worst)) {
      worst = e;
      at = i;
    }
  }
  std::printf("%s (%s): max %.3f ulp over %zu arguments, at x = %a", name,
              typeName<T>(), worst, x.size(), double(x[at]));
  if (!y.empty())
    std::printf(", y = %a", double(y[at]));
  std::printf(": got %a\n", double(got[at]));
  return worst;
}

TEST(Math, TanhErfF32) {
  std::vector<float> x = edges();
  addRandomBits(x, 20000, 0);
  addUniform(x, 20000, -12, 12);
  addUniform(x, 5000, -1.2, 1.2);
  makeOdd(x);
  EXPECT_LE(maxUlp<float>("tanh", x, run<float>(Tanh, x),
                          [](double v) { return std::tanh(v); }),
            kTanhUlp);
  EXPECT_LE(maxUlp<float>("erf", x, run<float>(Erf, x),
                          [](double v) { return std::erf(v); }),
            kErfUlp);
}

TEST(Math, SinCosF32) {
  std::vector<float> x;
  for (float v : edges())
    if (std::fabs(v) <= kTrigRange)
      x.push_back(v);
  addRandomBits(x, 20000, kTrigRange);
  addUniform(x, 20000, -7, 7);
  addUniform(x, 10000, -kTrigRange, kTrigRange);
  // The floats nearest to multiples of pi/2: the reduction's hard cases.
  std::mt19937_64 gen(19);
  for (int i = 0; i < 4000 * sweep(); ++i) {
    double k = double(gen() % 67000);
    float f = float(k * M_PI / 2);
    for (float v : {f, std::nextafter(f, 0.0f), std::nextafter(f, 1e9f)})
      if (std::fabs(v) <= kTrigRange)
        x.insert(x.end(), {v, -v});
  }
  makeOdd(x);
  EXPECT_LE(maxUlp<float>("sin", x, run<float>(Sin, x),
                          [](double v) { return std::sin(v); }),
            kSinCosUlp);
  EXPECT_LE(maxUlp<float>("cos", x, run<float>(Cos, x),
                          [](double v) { return std::cos(v); }),
            kSinCosUlp);
  // Beyond the range: no bound (printed), but within [-1, 1], NaN for inf.
  for (auto [lo, hi] : {std::pair{1e5, 1048576.0}, {1048576.0, 16777216.0}}) {
    std::vector<float> w;
    addUniform(w, 20000, lo, hi);
    makeOdd(w);
    maxUlp<float>("sin beyond", w, run<float>(Sin, w),
                  [](double v) { return std::sin(v); });
  }
  std::vector<float> far = {1e6f, -1e6f, 1e10f, 3.4e38f, -3.4e38f,
                            INFINITY, -INFINITY, NAN};
  addUniform(far, 2000, 1e5, 1e30);
  makeOdd(far);
  for (Fn fn : {Sin, Cos}) {
    std::vector<float> got = run<float>(fn, far);
    for (size_t i = 0; i < far.size(); ++i) {
      if (std::isfinite(far[i]))
        EXPECT_LE(std::fabs(got[i]), 1.0f) << far[i];
      else
        EXPECT_TRUE(std::isnan(got[i])) << far[i];
    }
  }
}

TEST(Math, PowF32) {
  std::vector<float> x, y;
  // Every pair of special values: C's special cases.
  std::vector<float> special = {0.0f,  -0.0f, INFINITY, -INFINITY, NAN,
                                1.0f,  -1.0f, 0.5f,     -0.5f,     2.0f,
                                -2.0f, 3.0f,  -3.0f,    2.5f,      -2.5f,
                                1e30f, -1e30f, 0x1p-149f, -0x1p-149f,
                                16777217.0f, -16777216.0f};
  for (float a : special)
    for (float b : special) {
      x.push_back(a);
      y.push_back(b);
    }
  std::mt19937_64 gen(7);
  auto uni = [&](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(gen);
  };
  for (int i = 0; i < 40000 * sweep(); ++i) {
    float a = float(std::exp2(uni(-40, 40))), b;
    switch (i % 4) {
    case 0: b = float(uni(-6, 6)); break;
    case 1: b = float(std::round(uni(-30, 30))); a = -a; break;
    case 2: a = float(1 + uni(-1e-3, 1e-3)); b = float(uni(-1e5, 1e5)); break;
    default: b = float(uni(-150, 150) / std::log2(double(a))); break;
    }
    x.push_back(a);
    y.push_back(b);
  }
  makeOdd(x, y);
  std::vector<float> got = run<float>(Pow, x, y);
  EXPECT_LE(maxUlp<float>("pow", x, got,
                          [](double a, double b) { return std::pow(a, b); },
                          y),
            kPowUlp);
}

/// tanh, erf, sin, cos, pow of f16 and bf16: computed in f32 and rounded
/// once, so within 1 ulp of the format (almost always correctly rounded).
template <typename T> void halfFunctions() {
  std::vector<float> x = edges();
  addRandomBits(x, 6000, 0);
  addUniform(x, 6000, -8, 8);
  x = toFloat(toType<T>(x)); // the arguments the kernel sees
  std::vector<float> y = x;
  std::reverse(y.begin(), y.end());
  makeOdd(x, y);
  std::vector<float> xs; // sin/cos within their range
  for (float v : x)
    xs.push_back(std::fabs(v) <= kTrigRange ? v : 1.0f);
  EXPECT_LE(maxUlp<T>("tanh", x, run<T>(Tanh, x),
                      [](double v) { return std::tanh(v); }), 1.0);
  EXPECT_LE(maxUlp<T>("erf", x, run<T>(Erf, x),
                      [](double v) { return std::erf(v); }), 1.0);
  EXPECT_LE(maxUlp<T>("sin", xs, run<T>(Sin, xs),
                      [](double v) { return std::sin(v); }), 1.0);
  EXPECT_LE(maxUlp<T>("cos", xs, run<T>(Cos, xs),
                      [](double v) { return std::cos(v); }), 1.0);
  EXPECT_LE(maxUlp<T>("pow", x, run<T>(Pow, x, y),
                      [](double a, double b) { return std::pow(a, b); }, y),
            1.0);
  EXPECT_LE(maxUlp<T>("rsqrt", x, run<T>(Rsqrt, x),
                      [](double v) { return 1 / std::sqrt(v); }), 1.0);
}
TEST(Math, FunctionsF16) { halfFunctions<half>(); }
TEST(Math, FunctionsBF16) { halfFunctions<bfloat16>(); }

/// Bit for bit (NaN for NaN) against the host's C functions.
template <typename T, typename Ref>
void expectExact(Fn fn, const std::vector<float> &x, Ref ref,
                 const char *name) {
  std::vector<float> got = run<T>(fn, x);
  int bad = 0;
  for (size_t i = 0; i < x.size() && bad < 10; ++i) {
    float want = toFloat(toType<T>(std::vector<float>{ref(x[i])}))[0];
    if (std::isnan(want) ? !std::isnan(got[i])
                         : bitsOf(got[i]) != bitsOf(want)) {
      ++bad;
      ADD_FAILURE() << name << "(" << typeName<T>() << ") of " << x[i]
                    << std::hexfloat << " (" << x[i] << "): got " << got[i]
                    << ", want " << want;
    }
  }
}

template <typename T> void roundings() {
  std::vector<float> x = edges();
  addRandomBits(x, 8000, 0);
  addUniform(x, 4000, -100, 100);
  for (int k = -40; k <= 40; ++k) // ties
    for (float f : {0.5f, 1.5f, 2.5f})
      x.push_back(float(k) + (k < 0 ? -f : f));
  for (float big : {4194304.5f, 8388607.5f, -8388607.5f, 8388609.0f})
    x.push_back(big);
  x = toFloat(toType<T>(x));
  makeOdd(x);
  expectExact<T>(Floor, x, [](float v) { return std::floor(v); }, "floor");
  expectExact<T>(Ceil, x, [](float v) { return std::ceil(v); }, "ceil");
  expectExact<T>(Rint, x, [](float v) { return std::nearbyint(v); }, "rint");
  expectExact<T>(Round, x, [](float v) { return std::round(v); }, "round");
}
TEST(Math, RoundingsF32) { roundings<float>(); }
TEST(Math, RoundingsF16) { roundings<half>(); }
TEST(Math, RoundingsBF16) { roundings<bfloat16>(); }

TEST(Math, RsqrtF32) {
  std::vector<float> x = edges();
  addRandomBits(x, 20000, 0);
  makeOdd(x);
  // Defined as 1 / sqrt(x), each correctly rounded: the host's bits.
  expectExact<float>(Rsqrt, x, [](float v) { return 1.0f / std::sqrt(v); },
                     "rsqrt");
  EXPECT_LE(maxUlp<float>("rsqrt", x, run<float>(Rsqrt, x),
                          [](double v) { return 1 / std::sqrt(v); }),
            kRsqrtUlp);
}

/// fma against the exact a * b + c rounded once (for 16-bit formats:
/// rounded to odd in float64, which has more than 2 extra bits, then to the
/// format).
template <typename T> void fmaExact() {
  std::vector<float> a = edges(), b, c;
  addRandomBits(a, 6000, 0);
  addUniform(a, 6000, -4, 4);
  a = toFloat(toType<T>(a));
  std::mt19937_64 gen(3);
  for (size_t i = 0; i < a.size(); ++i) {
    b.push_back(a[gen() % a.size()]);
    float p = a[i] * b[i]; // cancellation: c near -a b
    c.push_back(i % 3 == 0 ? -p : a[gen() % a.size()]);
  }
  c = toFloat(toType<T>(c));
  makeOdd(a, b, c);
  std::vector<float> got = run<T>(Fma, a, b, c);
  int bad = 0;
  for (size_t i = 0; i < a.size() && bad < 10; ++i) {
    float want = fmaRef<T>(a[i], b[i], c[i]);
    if (std::isnan(want) ? !std::isnan(got[i])
                         : bitsOf(got[i]) != bitsOf(want)) {
      ++bad;
      ADD_FAILURE() << "fma(" << typeName<T>() << ") of " << std::hexfloat
                    << a[i] << ", " << b[i] << ", " << c[i] << ": got "
                    << got[i] << ", want " << want;
    }
  }
}
TEST(Math, FmaF32) { fmaExact<float>(); }
TEST(Math, FmaF16) { fmaExact<half>(); }
TEST(Math, FmaBF16) { fmaExact<bfloat16>(); }

/// IEEE 754-2019 maximum/minimum: NaN (the first NaN operand's bits) if
/// either is NaN, -0 < +0.
float extremumRef(float a, float b, bool isMax) {
  if (std::isnan(a))
    return a;
  if (std::isnan(b))
    return b;
  if (a == 0 && b == 0) {
    bool na = std::signbit(a), nb = std::signbit(b);
    return (isMax ? na && nb : na || nb) ? -0.0f : 0.0f;
  }
  return isMax ? std::max(a, b) : std::min(a, b);
}

template <typename T> void propagateNan() {
  std::vector<float> a = edges(), b;
  addRandomBits(a, 4000, 0);
  a = toFloat(toType<T>(a));
  std::mt19937_64 gen(5);
  for (size_t i = 0; i < a.size(); ++i)
    b.push_back(i % 5 == 0 ? a[i] : a[gen() % a.size()]);
  b = toFloat(toType<T>(b));
  std::vector<float> lo, hi;
  for (size_t i = 0; i < a.size(); ++i) {
    float u = a[gen() % a.size()], v = a[gen() % a.size()];
    if (std::isnan(u) || std::isnan(v))
      u = v = 0;
    lo.push_back(std::min(u, v));
    hi.push_back(std::max(u, v));
  }
  makeOdd(a, b, lo, hi);
  std::vector<float> mx = run<T>(MaxNaN, a, b), mn = run<T>(MinNaN, a, b),
                     cl = run<T>(ClampNaN, a, lo, hi);
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(bitsOf(mx[i]), bitsOf(extremumRef(a[i], b[i], true)))
        << std::hexfloat << "maximum(" << a[i] << ", " << b[i] << ")";
    EXPECT_EQ(bitsOf(mn[i]), bitsOf(extremumRef(a[i], b[i], false)))
        << std::hexfloat << "minimum(" << a[i] << ", " << b[i] << ")";
    float want =
        extremumRef(extremumRef(a[i], lo[i], true), hi[i], false);
    EXPECT_EQ(bitsOf(cl[i]), bitsOf(want))
        << std::hexfloat << "clamp(" << a[i] << ", " << lo[i] << ", "
        << hi[i] << ")";
  }
}
TEST(Math, PropagateNanF32) { propagateNan<float>(); }
TEST(Math, PropagateNanF16) { propagateNan<half>(); }
TEST(Math, PropagateNanBF16) { propagateNan<bfloat16>(); }

} // namespace
