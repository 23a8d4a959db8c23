//===- ExpandMathFunctions.cpp - tanh, erf, sin, cos, pow alike everywhere ===//
//
// Part of ktc-expand-math (ExpandMath.cpp has exp, exp2, log, log2 and the
// shared cores): each function is written as exactly rounded f32 operations
// (add, mul, fma, correctly rounded division, floor/roundeven, bit moves),
// so the host, NVPTX and AMDGPU compute the same bits. The polynomials are
// weighted least-squares (Lawson) fits of the relative error, coefficients
// rounded to f32; the errors test/unit/MathTest.cpp measures are in
// docs/numerics.md.
//
// sin/cos: x = j pi/2 + r, j = roundeven(x 2/pi), r by Cody-Waite with a
// three-part pi/2 (the first product is exact: P1 has 23 bits); then a
// degree-9 odd (sin) or degree-12 even (cos) polynomial in r by quadrant.
// The bound holds for |x| <= 105615; beyond it the reduction loses bits
// (docs/numerics.md), the result stays within [-1, 1].
// tanh: |x| < 0.55: x + x^3 P(x^2); else 1 - 2 / (exp(2|x|) + 1); sign
// copied back.
// erf: |x| < 1: x + x P(x^2); else 1 - exp(-x^2) G(1/|x|), x^2 carried as
// hi + lo, |x| clamped to 4 (where erf rounds to 1).
// pow(x, y): 2^(y log2|x|), with log2|x| and the product carried as hi + lo
// (a wider atanh series than log's), then IEEE 754's special cases.
//
//===----------------------------------------------------------------------===//

#include "ExpandMath.h"

#include <limits>

using namespace mlir;
using namespace mlir::ktc::expand;

namespace {

using P = arith::CmpFPredicate;

constexpr float kInf = std::numeric_limits<float>::infinity();

//===----------------------------------------------------------------------===//
// sin, cos
//===----------------------------------------------------------------------===//

/// sin(r) and cos(r) for |r| <= pi/4 (a little beyond is fine).
Value sinPoly(F32 &k, Value r, Value r2) {
  static const float s[] = {-0.1666666716337204f, 0.008333329111337662f,
                            -0.00019839312881231308f, 2.718121777434135e-06f};
  return k.fma(k.mul(r2, r), k.horner(r2, s), r);
}
Value cosPoly(F32 &k, Value r2) {
  static const float c[] = {0.0416666679084301f, -0.0013888883404433727f,
                            2.4799459424684756e-05f, -2.7205754804526805e-07f};
  Value half = k.mul(r2, k.c(0.5f));
  Value w = k.sub(k.c(1.0f), half);
  Value tail = k.fma(k.mul(r2, r2), k.horner(r2, c),
                     k.sub(k.sub(k.c(1.0f), w), half));
  return k.add(w, tail);
}

/// sin(x) (cosine = false) or cos(x).
Value sinCos(F32 &k, Value x, bool cosine) {
  // pi/2 = P1 + P2 + P3 (to 2^-76); P1 = 0x3fc90fda has 23 bits.
  const float p1 = 1.570796251296997f, p2 = 7.549790126404332e-08f,
              p3 = -1.7151245100058819e-15f;
  Value finite = k.cmp(P::OLT, k.abs(x), k.c(kInf));
  Value j = math::RoundEvenOp::create(k.b, k.loc,
                                      k.mul(x, k.c(0.6366197466850281f)));
  j = k.select(finite, j, k.c(0.0f));
  Value nj = k.neg(j);
  Value r = k.fma(nj, k.c(p1), x);
  r = k.fma(nj, k.c(p2), r);
  r = k.fma(nj, k.c(p3), r);
  // The quadrant j mod 4, exactly, for any finite j.
  Value q = k.sub(j, k.mul(k.c(4.0f),
                           math::FloorOp::create(k.b, k.loc,
                                                 k.mul(j, k.c(0.25f)))));
  Value qi = k.toInt(q);
  if (cosine)
    qi = k.iadd(qi, k.ci(1));
  // Within the range |r| <= pi/4 + tiny; beyond it r may be anything.
  r = clamp(k, r, -1.0f, 1.0f);
  Value r2 = k.mul(r, r);
  auto nonZero = [&](Value v) {
    return arith::CmpIOp::create(k.b, k.loc, arith::CmpIPredicate::ne, v,
                                 k.ci(0));
  };
  Value odd = nonZero(k.band(qi, 1));
  Value v = k.select(odd, cosPoly(k, r2), sinPoly(k, r, r2));
  Value negate = nonZero(k.band(qi, 2));
  v = k.select(negate, k.neg(v), v);
  if (!cosine) // sin(-0) = -0 (the reduction gives +0)
    v = k.select(k.cmp(P::OEQ, x, k.c(0.0f)), x, v);
  // NaN for NaN and +-inf.
  return k.select(finite, v, k.sub(x, x));
}

Value expandSin(F32 &k, Value x) { return keepNaN(k, x, sinCos(k, x, false)); }
Value expandCos(F32 &k, Value x) { return keepNaN(k, x, sinCos(k, x, true)); }

//===----------------------------------------------------------------------===//
// tanh, erf
//===----------------------------------------------------------------------===//

Value expandTanh(F32 &k, Value x) {
  static const float t[] = {-0.3333333134651184f, 0.13333293795585632f,
                            -0.05395964905619621f, 0.021782826632261276f,
                            -0.008413959294557571f, 0.0023958240635693073f};
  Value ax = k.abs(x);
  Value a2 = k.mul(ax, ax);
  Value small = k.fma(k.mul(a2, ax), k.horner(a2, t), ax);
  // 1 - 2 / (e^(2|x|) + 1); |x| > 10 gives 1 already.
  Value e = expandExp(k, k.mul(k.c(2.0f), clamp(k, ax, 0.0f, 10.0f)));
  Value big = k.sub(k.c(1.0f), k.div(k.c(2.0f), k.add(e, k.c(1.0f))));
  Value v = k.select(k.cmp(P::OLT, ax, k.c(0.55f)), small, big);
  return keepNaN(k, x, k.copySign(v, x));
}

Value expandErf(F32 &k, Value x) {
  // erf(a) = a + a P(a^2) on [0, 1) (P's constant term is 2/sqrt(pi) - 1).
  static const float e[] = {0.12837916612625122f, -0.3761262595653534f,
                            0.1128358542919159f,  -0.026853816583752632f,
                            0.00518833426758647f, -0.0008010247256606817f,
                            7.854024443076923e-05f};
  // erfc(a) e^(a^2) = G(1/a) on [1, 3.92].
  static const float g[] = {0.0001292691595153883f, 0.5616252422332764f,
                            0.021609723567962646f,  -0.38044512271881104f,
                            0.242622971534729f,     0.2171458750963211f,
                            -0.5130804777145386f,   0.4213621914386749f,
                            -0.1729051172733307f,   0.02951902337372303f};
  Value ax = k.abs(x);
  Value small = k.fma(ax, k.horner(k.mul(ax, ax), e), ax);
  Value a = clamp(k, ax, 1.0f, 4.0f);
  // e^(-a^2) = 2^(-(a2h + a2l) log2(e)), each product carried as hi + lo.
  constexpr double log2e = 1.4426950408889634;
  const float lh = float(log2e), ll = float(log2e - double(lh));
  Value a2h = k.mul(a, a);
  Value a2l = k.fma(a, a, k.neg(a2h));
  Value na2h = k.neg(a2h);
  Value th = k.mul(na2h, k.c(lh));
  Value tl = k.add(k.fma(na2h, k.c(lh), k.neg(th)),
                   k.fma(na2h, k.c(ll), k.mul(k.neg(a2l), k.c(lh))));
  Value erfc = k.mul(exp2Core(k, th, tl),
                     k.horner(k.div(k.c(1.0f), a), g));
  Value big = k.sub(k.c(1.0f), erfc);
  Value v = k.select(k.cmp(P::OLT, ax, k.c(1.0f)), small, big);
  return keepNaN(k, x, k.copySign(v, x));
}

//===----------------------------------------------------------------------===//
// pow
//===----------------------------------------------------------------------===//

/// log2(a) = hi + lo for finite a > 0, to about 2^-40 relative.
std::pair<Value, Value> log2Wide(F32 &k, Value a) {
  auto [e, s, sLo] = logReduce(k, a);
  // ln(m) = 2s + (2/3) s^3 + s^5 Q(s^2), the first two terms in hi + lo.
  Value s2h = k.mul(s, s);
  Value s2l = k.fma(s, s, k.neg(s2h));
  Value s3h = k.mul(s2h, s);
  Value s3l = k.fma(s2h, s, k.neg(s3h));
  s3l = k.fma(s2l, s, s3l);
  const float c3h = 0.6666666865348816f, c3l = -1.9868215517249155e-08f;
  Value t3h = k.mul(s3h, k.c(c3h));
  Value t3l = k.fma(s3h, k.c(c3h), k.neg(t3h));
  t3l = k.add(t3l, k.fma(s3h, k.c(c3l), k.mul(s3l, k.c(c3h))));
  static const float q[] = {2.0f / 5, 2.0f / 7, 2.0f / 9, 2.0f / 11,
                            2.0f / 13};
  Value rest = k.mul(k.mul(s3h, s2h), k.horner(s2h, q));
  Value two = k.c(2.0f);
  // d(2s + 2/3 s^3) / ds = 2 + 2 s^2: sLo's share.
  Value lo = k.fma(k.fma(two, s2h, two), sLo, k.add(t3l, rest));
  Value hi = k.mul(two, s);
  Value lnH = k.add(hi, t3h);
  Value lnL = k.add(k.add(k.sub(hi, lnH), t3h), lo);
  // * log2(e) in two parts, + e (|e| >= 1 > |ln m log2 e| or e = 0).
  constexpr double log2e = 1.4426950408889634;
  const float lh = float(log2e), ll = float(log2e - double(lh));
  return log2FromLn(k, e, lnH, lnL, lh, ll);
}

Value expandPowF32(F32 &k, Value x, Value y) {
  Value ax = k.abs(x);
  auto [lh, ll] = log2Wide(k, ax);
  // log2 of 0 and inf; NaN stays NaN through hi.
  Value zero = k.cmp(P::OEQ, ax, k.c(0.0f));
  Value inf = k.cmp(P::OEQ, ax, k.c(kInf));
  lh = k.select(zero, k.c(-kInf), k.select(inf, k.c(kInf), lh));
  lh = k.select(k.cmp(P::UNO, ax, ax), ax, lh);
  ll = k.select(k.either(zero, inf), k.c(0.0f), ll);
  Value th = k.mul(y, lh);
  Value tl = k.fma(y, ll, k.fma(y, lh, k.neg(th)));
  Value inRange = k.cmp(P::OLT, k.abs(th), k.c(256.0f));
  tl = k.select(inRange, tl, k.c(0.0f));
  Value r = exp2Core(k, clamp(k, th, -151.0f, 129.0f), tl);
  r = keepNaN(k, th, r);
  return powSpecials(k, x, y, r);
}

struct ExpandPow : OpRewritePattern<math::PowFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::PowFOp op,
                                PatternRewriter &rewriter) const override {
    if (arith::bitEnumContainsAny(op.getFastmath(), arith::FastMathFlags::afn))
      return rewriter.notifyMatchFailure(op, "approximate by request");
    Type type = op.getType();
    Type element = getElementTypeOrSelf(type);
    if (!element.isF32() && !element.isF16() && !element.isBF16())
      return rewriter.notifyMatchFailure(op, "not f32, f16 or bf16");
    Location loc = op.getLoc();
    F32 k(rewriter, loc, type);
    Value x = op.getLhs(), y = op.getRhs();
    if (!element.isF32()) {
      x = arith::ExtFOp::create(rewriter, loc, k.f, x);
      y = arith::ExtFOp::create(rewriter, loc, k.f, y);
    }
    Value r = expandPowF32(k, x, y);
    if (!element.isF32())
      r = arith::TruncFOp::create(rewriter, loc, type, r);
    rewriter.replaceOp(op, r);
    return success();
  }
};

} // namespace

void mlir::ktc::expand::populateExpandMathFunctions(
    RewritePatternSet &patterns) {
  patterns.add<ExpandPattern<math::TanhOp, expandTanh>,
               ExpandPattern<math::ErfOp, expandErf>,
               ExpandPattern<math::SinOp, expandSin>,
               ExpandPattern<math::CosOp, expandCos>, ExpandPow>(
      patterns.getContext());
}
