//===- ExpandMathF64Log.cpp - f64 logarithms as double-doubles ------------===//
//
// The f64 logarithm core of ktc-expand-math (issue 19): ln and log2 of a
// finite x > 0 as hi + lo good to about 2^-67 relative, in exactly rounded
// f64 operations (the same bits on every target). log and log2
// (ExpandMathF64.cpp) round hi + lo once (below 0.51 ulp measured); pow
// (ExpandMathF64Pow.cpp) needs y log2|x| to about 2^-60 absolute, and that
// reaches 1075.
//
// x = m 2^e with m in [sqrt(1/2), sqrt(2)), s = (m - 1) / (m + 1) with its
// rounding error kept (s + sLo), ln(m) = 2 atanh(s) = 2s + (2/3) s^3 +
// (2/5) s^5 + s^7 Q(s^2): the first three terms as double-doubles (their
// constants in two parts), Q the series to s^25 (|s| < 0.172: the rest is
// below 2^-75), the low parts summed in one double (they are below 2^-18
// of ln(m)). log2: ln(m) times log2(e) in two parts, plus e.
//
//===----------------------------------------------------------------------===//

#include "ExpandMath.h"

using namespace mlir;
using namespace mlir::ktc::expand;

namespace {
using P = arith::CmpFPredicate;
} // namespace

LnWideF64 mlir::ktc::expand::lnWideF64(F64 &k, Value x) {
  auto [e, m] = splitF64(k, x);
  Value big = k.cmp(P::OGT, m, k.c(0x1.6a09e667f3bcdp0));
  m = k.select(big, k.mul(m, k.c(0.5)), m);
  e = k.select(big, k.add(e, k.c(1.0)), e);
  Value f = k.sub(m, k.c(1.0)); // exact
  Value two = k.c(2.0);
  Value d = k.add(two, f);
  Value dErr = k.add(k.sub(two, d), f); // exact: d + dErr = 2 + f
  Value s = k.div(f, d);
  Value rem = k.fma(k.neg(s), d, f); // f - s d, exact
  rem = k.fma(k.neg(s), dErr, rem);
  Value sLo = k.div(rem, d);
  // s^2, s^3 and s^5 as hi + lo (sLo's share to first order).
  Value s2h = k.mul(s, s);
  Value s2l = k.fma(k.mul(two, s), sLo, k.fma(s, s, k.neg(s2h)));
  Value s3h = k.mul(s2h, s);
  Value s3l = k.fma(s2l, s, k.fma(s2h, sLo, k.fma(s2h, s, k.neg(s3h))));
  Value s5h = k.mul(s3h, s2h);
  Value s5l = k.fma(s3l, s2h, k.fma(s3h, s2l, k.fma(s3h, s2h, k.neg(s5h))));
  // (2/3) s^3 and (2/5) s^5, the constants in two parts.
  auto times = [&](Value h, Value l, double ch, double cl) {
    Value th = k.mul(h, k.c(ch));
    Value tl = k.fma(h, k.c(ch), k.neg(th));
    return std::pair(th, k.add(tl, k.fma(h, k.c(cl), k.mul(l, k.c(ch)))));
  };
  auto [t3h, t3l] =
      times(s3h, s3l, 0x1.5555555555555p-1, 0x1.5555555555555p-55);
  auto [t5h, t5l] = times(s5h, s5l, 0.4, -0x1.999999999999ap-56);
  double q[10];
  for (int i = 0; i < 10; ++i)
    q[i] = 2.0 / (2 * i + 7);
  Value rest = k.mul(k.mul(s5h, s2h), k.horner(s2h, q));
  // 2s + t3h + t5h by fast two-sums (each term below the one before), the
  // low parts (below 2^-18 of the sum) added up in one double.
  Value hi = k.mul(two, s);
  Value a = k.add(hi, t3h);
  Value aLo = k.add(k.sub(hi, a), t3h);
  Value b = k.add(a, t5h);
  Value bLo = k.add(k.sub(a, b), t5h);
  Value lo =
      k.fma(two, sLo, k.add(k.add(k.add(aLo, bLo), k.add(t3l, t5l)), rest));
  Value lnH = k.add(b, lo);
  return {e, lnH, k.add(k.sub(b, lnH), lo)};
}

std::pair<Value, Value> mlir::ktc::expand::log2WideF64(F64 &k, Value x) {
  auto [e, lnH, lnL] = lnWideF64(k, x);
  // * log2(e) in two parts, + e (|e| >= 1 > |ln(m) log2(e)| or e = 0).
  return log2FromLn(k, e, lnH, lnL, 0x1.71547652b82fep+0,
                    0x1.777d0ffda0d24p-56);
}
