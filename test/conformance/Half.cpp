//===- Half.cpp - f16 and bf16 rows of the catalogue ----------------------===//
//
// 16-bit float arithmetic is exact-then-rounded-once (docs/numerics.md):
// each result must be the float64 result rounded to the format, whatever
// the target computes in (f32 is wide enough for `+ - * /` of 16-bit
// operands to round only once). Comparisons are IEEE's.
//
//===----------------------------------------------------------------------===//

#include "Conformance.h"

namespace conformance {
namespace {

/// A binary T x T -> T kernel (a unary one ignores y).
#define HBINARY(NAME, T, EXPR)                                                 \
  Kernel(NAME, [](Ptr<T> x, Ptr<T> y, Ptr<T> out, Int n) {                    \
    KTC_OFFS;                                                                  \
    auto a = load(x + offs, mask);                                             \
    auto b = load(y + offs, mask);                                             \
    (void)b;                                                                   \
    store(out + offs, (EXPR), mask);                                           \
  })

template <typename T> std::vector<T> inputs(uint32_t seed) {
  if constexpr (std::is_same_v<T, half>)
    return halfInputs(seed);
  else
    return bf16Inputs(seed);
}

using Ref = std::function<double(double, double)>;

/// A 16-bit float op: the worst ulp error (in the format's ulps) against
/// the float64 reference rounded to the format; must be exact.
template <typename T, typename K>
void halfOp(Context &c, const std::string &id, const std::string &op,
            K &kernel, const Ref &ref) {
  constexpr Format f = formatOf<T>();
  std::vector<T> x = inputs<T>(5), y = inputs<T>(6);
  std::reverse(y.begin(), y.end());
  size_t n = x.size();
  Row r = c.row(id, op, std::is_same_v<T, half> ? "f16" : "bf16", n);
  r.exact = true;
  c.entry({r}, kernel, [&] {
    auto [got, host] =
        runBoth<T>(c, n, T{0x5eed}, [&](Device &d, Buffer<T> &out) {
          Buffer<T> bx(d, x), by(d, y);
          kernel.launch({int(cdiv(n, BLOCK))}, bx, by, out, int(n));
        });
    int shown = 0;
    for (size_t i = 0; i < n; ++i) {
      double want = roundTo(ref(value(x[i]), value(y[i])), f);
      double e = ulpError(value(got[i]), want, f);
      r.maxUlp = std::max(r.maxUlp, e);
      if (e > 0 || hostDiffers(got, host, i))
        showElement(c, r, i, hex(x[i]) + " " + hex(y[i]), got[i],
                    exactly(want), host, shown);
    }
    if (c.host)
      r.hostDiffs = bitDiffs(got, host);
    c.rows.push_back(r);
  });
}

template <typename T> void rows(Context &c, const std::string &s) {
  auto add = HBINARY("conf_add_" + s, T, a + b);
  halfOp<T>(c, "conf_add_" + s, "a + b", add,
            [](double a, double b) { return a + b; });
  auto sub = HBINARY("conf_sub_" + s, T, a - b);
  halfOp<T>(c, "conf_sub_" + s, "a - b", sub,
            [](double a, double b) { return a - b; });
  auto mul = HBINARY("conf_mul_" + s, T, a * b);
  halfOp<T>(c, "conf_mul_" + s, "a * b", mul,
            [](double a, double b) { return a * b; });
  auto div = HBINARY("conf_div_" + s, T, a / b);
  halfOp<T>(c, "conf_div_" + s, "a / b", div,
            [](double a, double b) { return a / b; });
  auto lt = HBINARY("conf_less_" + s, T, where(a < b, 1.0f, 0.0f));
  halfOp<T>(c, "conf_less_" + s, "a < b", lt,
            [](double a, double b) { return a < b ? 1.0 : 0.0; });
  auto le = HBINARY("conf_less_equal_" + s, T, where(a <= b, 1.0f, 0.0f));
  halfOp<T>(c, "conf_less_equal_" + s, "a <= b", le,
            [](double a, double b) { return a <= b ? 1.0 : 0.0; });
  auto eq = HBINARY("conf_equal_" + s, T, where(a == b, 1.0f, 0.0f));
  halfOp<T>(c, "conf_equal_" + s, "a == b", eq,
            [](double a, double b) { return a == b ? 1.0 : 0.0; });
  auto ne = HBINARY("conf_not_equal_" + s, T, where(a != b, 1.0f, 0.0f));
  halfOp<T>(c, "conf_not_equal_" + s, "a != b", ne,
            [](double a, double b) { return a != b ? 1.0 : 0.0; });
  auto mx = HBINARY("conf_maximum_" + s, T, maximum(a, b));
  halfOp<T>(c, "conf_maximum_" + s, "maximum", mx, fmaxNum);
  auto mn = HBINARY("conf_minimum_" + s, T, minimum(a, b));
  halfOp<T>(c, "conf_minimum_" + s, "minimum", mn, fminNum);
  auto sq = HBINARY("conf_sqrt_" + s, T, sqrt(a));
  halfOp<T>(c, "conf_sqrt_" + s, "sqrt", sq,
            [](double a, double) { return std::sqrt(a); });
  auto neg = HBINARY("conf_neg_" + s, T, -a);
  halfOp<T>(c, "conf_neg_" + s, "-a", neg, [](double a, double) { return -a; });
  auto ab = HBINARY("conf_abs_" + s, T, abs(a));
  halfOp<T>(c, "conf_abs_" + s, "abs", ab,
            [](double a, double) { return std::fabs(a); });
}

} // namespace

void halfRows(Context &c) {
  rows<half>(c, "f16");
  rows<bfloat16>(c, "bf16");
}

} // namespace conformance
