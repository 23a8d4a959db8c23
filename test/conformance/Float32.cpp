//===- Float32.cpp - f32 rows of the catalogue ----------------------------===//
//
// f32 arithmetic (correctly rounded `+ - * /`, sqrt; fdiv within 2 ulp;
// `%` as fmod), maxNum/minNum, exp/exp2/log/log2 (the expansion's 2 ulp),
// comparisons, the conversions through f16, bf16 and i32, and issue 19's
// math (tanh, erf, sin, cos, pow, rsqrt, the roundings, maximum with NaN).
//
//===----------------------------------------------------------------------===//

#include "Conformance.h"

#include <bit>

namespace conformance {
namespace {

/// A unary f32 -> f32 kernel.
#define UNARY(NAME, EXPR)                                                      \
  Kernel(NAME, [](Ptr<float> x, Ptr<float> out, Int n) {                      \
    KTC_OFFS;                                                                  \
    auto a = load(x + offs, mask);                                             \
    store(out + offs, (EXPR), mask);                                           \
  })
/// A binary f32 x f32 -> f32 kernel.
#define BINARY(NAME, EXPR)                                                     \
  Kernel(NAME, [](Ptr<float> x, Ptr<float> y, Ptr<float> out, Int n) {        \
    KTC_OFFS;                                                                  \
    auto a = load(x + offs, mask);                                             \
    auto b = load(y + offs, mask);                                             \
    store(out + offs, (EXPR), mask);                                           \
  })

using Ref = std::function<double(double, double)>;

/// A float op over (x) or (x, y): the worst ulp error against `ref`,
/// leaving out the inputs `outside` names.
template <typename K>
void floatOp(Context &c, const std::string &id, const std::string &op,
             K &kernel, int arity, const Ref &ref, double bound, bool exact,
             const std::string &known = "",
             const std::function<bool(double, double)> &outside = nullptr) {
  std::vector<float> x = floatInputs(1), y = floatInputs(2);
  std::reverse(y.begin(), y.end());
  size_t n = x.size();
  Row r = c.row(id, op, "f32", n);
  r.bound = bound, r.exact = exact, r.known = known;
  c.entry({r}, kernel, [&] {
    auto [got, host] =
        runBoth<float>(c, n, 42.0f, [&](Device &d, Buffer<float> &out) {
          Buffer<float> bx(d, x), by(d, y);
          if (arity == 1)
            kernel.launch({int(cdiv(n, BLOCK))}, bx, out, int(n));
          else
            kernel.launch({int(cdiv(n, BLOCK))}, bx, by, out, int(n));
        });
    int shown = 0;
    for (size_t i = 0; i < n; ++i) {
      if (outside && outside(x[i], y[i]))
        continue;
      double want = ref(x[i], y[i]), e = ulpError(got[i], want, F32);
      r.maxUlp = std::max(r.maxUlp, e);
      if (e > bound || hostDiffers(got, host, i))
        showElement(c, r, i, hex(x[i]) + " " + hex(y[i]), got[i],
                    exactly(want), host, shown);
    }
    if (c.host)
      r.hostDiffs = bitDiffs(got, host);
    c.rows.push_back(r);
  });
}

double rounded(double want) { return roundTo(want, F32); }

} // namespace

void mathRows(Context &c);

void float32Rows(Context &c) {
  auto add = BINARY("conf_add", a + b);
  floatOp(c, "conf_add", "a + b", add, 2,
          [](double a, double b) { return rounded(a + b); }, 0, true);
  auto sub = BINARY("conf_sub", a - b);
  floatOp(c, "conf_sub", "a - b", sub, 2,
          [](double a, double b) { return rounded(a - b); }, 0, true);
  auto mul = BINARY("conf_mul", a * b);
  floatOp(c, "conf_mul", "a * b", mul, 2,
          [](double a, double b) { return rounded(a * b); }, 0, true);
  auto div = BINARY("conf_div", a / b);
  floatOp(c, "conf_div", "a / b", div, 2,
          [](double a, double b) { return rounded(a / b); }, 0, true);
  // fdiv's bound is for finite normal quotients and divisors (AMDGPU's
  // v_rcp_f32 flushes subnormals).
  auto fast = BINARY("conf_fdiv", fdiv(a, b));
  floatOp(c, "conf_fdiv", "fdiv(a, b), normal range", fast, 2,
          [](double a, double b) { return a / b; }, 2, false, "",
          [](double a, double b) {
            double q = std::fabs(a / b), d = std::fabs(b);
            return !(q >= 0x1p-126 && q <= 0x1p126 && d >= 0x1p-126 &&
                     d <= 0x1p126);
          });
  auto rem = BINARY("conf_rem", a % b);
  floatOp(c, "conf_rem", "a % b (C's fmod, every quotient)", rem, 2,
          [](double a, double b) { return std::fmod(a, b); }, 0, true);
  auto mx = BINARY("conf_maximum", maximum(a, b));
  floatOp(c, "conf_maximum", "maximum", mx, 2, fmaxNum, 0, true);
  auto mn = BINARY("conf_minimum", minimum(a, b));
  floatOp(c, "conf_minimum", "minimum", mn, 2, fminNum, 0, true);
  auto sq = UNARY("conf_sqrt", sqrt(a));
  floatOp(c, "conf_sqrt", "sqrt", sq, 1,
          [](double a, double) { return rounded(std::sqrt(a)); }, 0, true);
  auto neg = UNARY("conf_neg", -a);
  floatOp(c, "conf_neg", "-a", neg, 1, [](double a, double) { return -a; },
          0, true);
  auto ab = UNARY("conf_abs", abs(a));
  floatOp(c, "conf_abs", "abs", ab, 1,
          [](double a, double) { return std::fabs(a); }, 0, true);
  // The expansion (ktc-expand-math) gives the same bits on every target:
  // not differing from the host is part of the contract.
  auto e = UNARY("conf_exp", exp(a));
  floatOp(c, "conf_exp", "exp", e, 1,
          [](double a, double) { return std::exp(a); }, 2, false);
  auto e2 = UNARY("conf_exp2", exp2(a));
  floatOp(c, "conf_exp2", "exp2", e2, 1,
          [](double a, double) { return std::exp2(a); }, 2, false);
  auto l = UNARY("conf_log", log(a));
  floatOp(c, "conf_log", "log", l, 1,
          [](double a, double) { return std::log(a); }, 2, false);
  auto l2 = UNARY("conf_log2", log2(a));
  floatOp(c, "conf_log2", "log2", l2, 1,
          [](double a, double) { return std::log2(a); }, 2, false);
  auto lt = BINARY("conf_less", where(a < b, 1.0f, 0.0f));
  floatOp(c, "conf_less", "a < b", lt, 2,
          [](double a, double b) { return a < b ? 1.0 : 0.0; }, 0, true);
  auto ne = BINARY("conf_not_equal", where(a != b, 1.0f, 0.0f));
  floatOp(c, "conf_not_equal", "a != b", ne, 2,
          [](double a, double b) { return a != b ? 1.0 : 0.0; }, 0, true);
  // Casts through 16-bit floats and integers.
  auto bf = UNARY("conf_to_bf16", a.to(DType::bf16).to(DType::f32));
  floatOp(c, "conf_to_bf16", "f32 -> bf16 -> f32", bf, 1,
          [](double a, double) { return roundTo(a, BF16); }, 0, true);
  auto hf = UNARY("conf_to_f16", a.to(DType::f16).to(DType::f32));
  floatOp(c, "conf_to_f16", "f32 -> f16 -> f32", hf, 1,
          [](double a, double) { return roundTo(a, F16); }, 0, true);
  // Float -> i32 truncates toward zero (in range: out of range has no
  // defined result on GPUs), i32 -> f32 rounds to nearest even.
  auto i2f = UNARY("conf_int_round_trip",
                   where(abs(a) < 2e9f, a, 0.0f).to(DType::i32).to(DType::f32));
  floatOp(c, "conf_int_round_trip", "f32 -> i32 -> f32", i2f, 1,
          [](double a, double) {
            double t = std::fabs(a) < double(2e9f) ? std::trunc(a) : 0.0;
            return double(float(t)) + 0.0; // -0 truncates to integer 0
          },
          0, true);
  mathRows(c);
}

// Issue 19's math (docs/numerics.md#math-functions-issue-19): the
// expansions within 2 ulp (sin and cos where |x| <= 105615), the roundings
// and maximum/minimum propagating NaN exact, rsqrt within 1.5 ulp.
void mathRows(Context &c) {
  auto th = UNARY("conf_tanh", tanh(a));
  floatOp(c, "conf_tanh", "tanh", th, 1,
          [](double a, double) { return std::tanh(a); }, 2, false);
  auto ef = UNARY("conf_erf", erf(a));
  floatOp(c, "conf_erf", "erf", ef, 1,
          [](double a, double) { return std::erf(a); }, 2, false);
  auto far = [](double a, double) { return std::fabs(a) > 105615.0; };
  auto sn = UNARY("conf_sin", sin(a));
  floatOp(c, "conf_sin", "sin, x within +-105615", sn, 1,
          [](double a, double) { return std::sin(a); }, 2, false, "", far);
  auto cs = UNARY("conf_cos", cos(a));
  floatOp(c, "conf_cos", "cos, x within +-105615", cs, 1,
          [](double a, double) { return std::cos(a); }, 2, false, "", far);
  auto pw = BINARY("conf_pow", pow(a, b));
  floatOp(c, "conf_pow", "pow", pw, 2,
          [](double a, double b) { return std::pow(a, b); }, 2, false);
  auto rs = UNARY("conf_rsqrt", rsqrt(a));
  floatOp(c, "conf_rsqrt", "rsqrt (1 / sqrt, rounded twice)", rs, 1,
          [](double a, double) { return 1 / std::sqrt(a); }, 1.5, false);
  auto rd = UNARY("conf_roundings", floor(a) + ceil(a) * 0.25f + rint(a) * 0.5f +
                                        round(a) * 0.125f);
  floatOp(c, "conf_roundings", "floor + ceil/4 + rint/2 + round/8", rd, 1,
          [](double a, double) {
            float f = float(a);
            return double(std::floor(f) + std::ceil(f) * 0.25f +
                          std::nearbyint(f) * 0.5f + std::round(f) * 0.125f);
          },
          0, true);
  auto mx = BINARY("conf_maximum_nan", maximum(a, b, PropagateNan::all));
  floatOp(c, "conf_maximum_nan", "maximum, PropagateNan::all", mx, 2,
          [](double a, double b) {
            if (std::isnan(a) || std::isnan(b))
              return double(NAN);
            if (a == 0 && b == 0)
              return std::signbit(a) && std::signbit(b) ? -0.0 : 0.0;
            return std::max(a, b);
          },
          0, true);
}

} // namespace conformance
