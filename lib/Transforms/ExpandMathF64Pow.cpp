//===- ExpandMathF64Pow.cpp - f64 pow on every target ---------------------===//
//
// ktc-expand-math for f64 pow (issue 19): x^y = 2^(y log2|x|) in exactly
// rounded f64 operations, as the f32 pow (ExpandMathFunctions.cpp), so the
// host, NVPTX and AMDGPU compute the same bits; the measured error against
// long double (test/unit/MathF64FunctionsTest.cpp) is in docs/numerics.md.
//
// A result within 1 ulp needs y log2|x| to about 2^-60 absolute (it reaches
// 1075), so log2|x| is carried as a double-double good to about 2^-68
// relative: |x| = m 2^e with m in [sqrt(1/2), sqrt(2)), s = (m - 1) / (m +
// 1) with its rounding error kept (s + sLo), ln(m) = 2 atanh(s) = 2s +
// (2/3) s^3 + s^5 Q(s^2), the first two terms as double-doubles, Q the
// series to s^24 (|s| < 0.172: the rest is below 2^-75); times log2(e) in
// two parts, plus e. The product with y is split with an fma, 2^(hi + lo)
// is the f64 exp2 core (below 1 ulp), and IEEE 754's special cases are
// selected last (powSpecials, shared with f32).
//
//===----------------------------------------------------------------------===//

#include "ExpandMath.h"

#include <limits>

using namespace mlir;
using namespace mlir::ktc::expand;

namespace {

using P = arith::CmpFPredicate;

/// log2(x) = hi + lo for finite x > 0.
std::pair<Value, Value> log2Wide(F64 &k, Value x) {
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
  auto [t3h, t3l] = times(s3h, s3l, 0x1.5555555555555p-1, 0x1.5555555555555p-55);
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
  Value lo = k.fma(two, sLo,
                   k.add(k.add(k.add(aLo, bLo), k.add(t3l, t5l)), rest));
  Value lnH = k.add(b, lo);
  Value lnL = k.add(k.sub(b, lnH), lo);
  // * log2(e) in two parts, + e (|e| >= 1 > |ln(m) log2(e)| or e = 0).
  const double lh = 0x1.71547652b82fep+0, ll = 0x1.777d0ffda0d24p-56;
  Value ph = k.mul(lnH, k.c(lh));
  Value pl = k.fma(lnH, k.c(lh), k.neg(ph));
  pl = k.add(pl, k.fma(lnH, k.c(ll), k.mul(lnL, k.c(lh))));
  Value sh = k.add(e, ph);
  Value sl = k.add(k.add(k.sub(e, sh), ph), pl);
  return {sh, sl};
}

Value expandPowF64(F64 &k, Value x, Value y) {
  const double inf = std::numeric_limits<double>::infinity();
  Value ax = k.abs(x);
  Value zero = k.cmp(P::OEQ, ax, k.c(0.0));
  Value isInf = k.cmp(P::OEQ, ax, k.c(inf));
  Value bad = k.either(zero, k.either(isInf, k.cmp(P::UNO, ax, ax)));
  auto [lh, ll] = log2Wide(k, k.select(bad, k.c(1.0), ax));
  // log2 of 0 and inf; NaN stays NaN through hi.
  lh = k.select(zero, k.c(-inf), k.select(isInf, k.c(inf), lh));
  lh = k.select(k.cmp(P::UNO, ax, ax), ax, lh);
  ll = k.select(bad, k.c(0.0), ll);
  Value th = k.mul(y, lh);
  Value tl = k.fma(y, ll, k.fma(y, lh, k.neg(th)));
  Value inRange = k.cmp(P::OLT, k.abs(th), k.c(2048.0));
  tl = k.select(inRange, tl, k.c(0.0));
  Value r = exp2CoreF64(k, th, tl); // NaN where th is
  return powSpecials(k, x, y, r);
}

struct ExpandPowF64 : OpRewritePattern<math::PowFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::PowFOp op,
                                PatternRewriter &rewriter) const override {
    if (!getElementTypeOrSelf(op.getType()).isF64())
      return rewriter.notifyMatchFailure(op, "not f64");
    F64 k(rewriter, op.getLoc(), op.getType());
    rewriter.replaceOp(op, expandPowF64(k, op.getLhs(), op.getRhs()));
    return success();
  }
};

} // namespace

void mlir::ktc::expand::populateExpandMathF64Pow(RewritePatternSet &patterns) {
  patterns.add<ExpandPowF64>(patterns.getContext());
}
