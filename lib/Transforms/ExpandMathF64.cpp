//===- ExpandMathF64.cpp - f64 exp, exp2, log, log2 on every target -------===//
//
// ktc-expand-math for f64 (issue 19): the GPU targets have no f64 exp2 or
// log2 instruction, so these are written, as the f32 ones (ExpandMath.cpp),
// with exactly rounded f64 operations (add, mul, fma, correctly rounded
// division, integer bit moves): the host, NVPTX and AMDGPU compute the same
// bits. Errors measured on the host against long double (test/unit/
// MathF64Test.cpp; docs/numerics.md): exp, exp2 and log below 1 ulp, log2
// below 2 ulp; exact at the special arguments. The other f64 functions
// (sin, cos, tanh, erf, pow) are in ExpandMathF64{Trig,Special,Pow}.cpp,
// registered from populateExpandMathF64.
//
// exp(x): n = rint(x log2(e)), r = x - n ln(2) (Cody and Waite, ln(2) in two
// parts, fma; the first step exact, the second's error kept as r_lo), e^r
// = 1 + q, q = r + r^2 P(r) with P the Taylor series to r^13/13! (|r| <=
// 0.35: the rest is below 2^-60), the two sums by two-sum so that 1 + q is
// rounded once; times 2^n as two exact powers of two so that a subnormal
// result is rounded once. exp2(x): n = rint(x), r = (x - n) ln(2) as a
// double-double, the same core. log(x): fdlibm's e_log.c: x = m 2^k
// with m in [sqrt(1/2), sqrt(2)), f = m - 1, s = f / (2 + f), ln(1 + f) =
// f - (f^2/2 - s (f^2/2 + R(s^2))) with its degree-14 minimax R, plus k
// ln(2) in two parts. log2(x) = k + ln(m) log2(e), the product as a
// double-double.
//
//===----------------------------------------------------------------------===//

#include "ExpandMath.h"

#include <limits>

using namespace mlir;

namespace mlir::ktc::expand {
namespace {

// ln(2) as a double and the rest (Cody and Waite).
constexpr double kLn2Hi = 0x1.62e42fefa39efp-1;
constexpr double kLn2Lo = 0x1.abc9e3b39803fp-56;
constexpr double kLog2e = 0x1.71547652b82fep0;
constexpr double kLog2eLo = 0x1.777d0ffda0d24p-56;

/// e^(r + rLo) for |r| <= 0.35, |rLo| tiny: 1 + q with q = e^r - 1 = r +
/// r^2 P(r) (Horner, fma; P the Taylor series to r^11/13!), the sums 1 + q
/// and r + r^2 P carried by two-sum so that the result is rounded once.
Value expCore(F64 &k, Value r, Value rLo) {
  double coeffs[12];
  double factorial = 2;
  for (int i = 0; i < 12; ++i) {
    coeffs[i] = 1 / factorial; // 1/(i + 2)!
    factorial *= i + 3;
  }
  Value s = k.mul(k.mul(r, r), k.horner(r, coeffs));
  Value q = k.add(r, s);
  Value e1 = k.sub(s, k.sub(q, r)); // |r| >= |s|
  Value one = k.c(1.0);
  Value p = k.add(one, q);
  Value e2 = k.sub(q, k.sub(p, one)); // 1 >= |q|
  Value lo = k.add(k.add(e2, e1), k.fma(rLo, q, rLo));
  return k.add(p, lo);
}

/// p * 2^n for n (an integral f64) in [-1076, 1025], rounded once.
Value scale(F64 &k, Value p, Value n) {
  Value ni = k.toInt(n);
  Value n1 = k.shrs(ni, 1);
  Value n2 = k.isub(ni, n1);
  return k.mul(k.mul(p, k.pow2(n1)), k.pow2(n2));
}

Value expandExp2F64(F64 &k, Value x) {
  return exp2CoreF64(k, x, k.c(0.0));
}

/// x = m 2^k, m in [sqrt(1/2), sqrt(2)), x finite and > 0, and ln(m) =
/// f - (hfsq - sR) (fdlibm's e_log.c, its constants).
struct LogF64 {
  Value k, f, hfsq, sR;
};
LogF64 logCoreF64(F64 &k, Value x) {
  auto [e, m] = splitF64(k, x);
  Value big = k.cmp(arith::CmpFPredicate::OGT, m, k.c(0x1.6a09e667f3bcdp0));
  m = k.select(big, k.mul(m, k.c(0.5)), m);
  e = k.select(big, k.add(e, k.c(1.0)), e);
  Value f = k.sub(m, k.c(1.0)); // exact
  Value s = k.div(f, k.add(k.c(2.0), f));
  Value z = k.mul(s, s);
  Value w = k.mul(z, z);
  const double lg1 = 6.666666666666735130e-01, lg2 = 3.999999999940941908e-01,
               lg3 = 2.857142874366239149e-01, lg4 = 2.222219843214978396e-01,
               lg5 = 1.818357216161805012e-01, lg6 = 1.531383769920937332e-01,
               lg7 = 1.479819860511658591e-01;
  Value t1 = k.mul(w, k.fma(w, k.fma(w, k.c(lg6), k.c(lg4)), k.c(lg2)));
  Value t2 = k.mul(
      z, k.fma(w, k.fma(w, k.fma(w, k.c(lg7), k.c(lg5)), k.c(lg3)),
               k.c(lg1)));
  Value rr = k.add(t2, t1);
  Value hfsq = k.mul(k.mul(k.c(0.5), f), f);
  return {e, f, hfsq, k.mul(s, k.add(hfsq, rr))};
}

/// log/log2 of the special arguments: NaN below zero and for NaN, -inf at
/// zero, +inf at +inf.
Value logSpecialsF64(F64 &k, Value x, Value result) {
  double inf = std::numeric_limits<double>::infinity();
  result = k.select(k.cmp(arith::CmpFPredicate::OEQ, x, k.c(inf)), x, result);
  result = k.select(k.cmp(arith::CmpFPredicate::OEQ, x, k.c(0.0)),
                    k.c(-inf), result);
  return k.select(k.cmp(arith::CmpFPredicate::ULT, x, k.c(0.0)),
                  k.c(std::numeric_limits<double>::quiet_NaN()), result);
}

Value expandLogF64(F64 &k, Value x) {
  // fdlibm's ln2_hi has 32 trailing zero bits: k * ln2_hi is exact.
  const double ln2Hi = 6.93147180369123816490e-01,
               ln2Lo = 1.90821492927058770002e-10;
  Value safe = k.select(k.cmp(arith::CmpFPredicate::OGT, x, k.c(0.0)), x,
                        k.c(1.0)); // specials are selected at the end
  safe = k.select(k.cmp(arith::CmpFPredicate::OLT, safe,
                        k.c(std::numeric_limits<double>::infinity())),
                  safe, k.c(1.0));
  LogF64 p = logCoreF64(k, safe);
  // k ln2_hi - ((hfsq - (sR + k ln2_lo)) - f), in fdlibm's order: ln(m)
  // is never rounded on its own.
  Value inner = k.sub(k.sub(p.hfsq, k.fma(p.k, k.c(ln2Lo), p.sR)), p.f);
  return logSpecialsF64(k, x, k.sub(k.mul(p.k, k.c(ln2Hi)), inner));
}

Value expandLog2F64(F64 &k, Value x) {
  Value safe = k.select(k.cmp(arith::CmpFPredicate::OGT, x, k.c(0.0)), x,
                        k.c(1.0));
  safe = k.select(k.cmp(arith::CmpFPredicate::OLT, safe,
                        k.c(std::numeric_limits<double>::infinity())),
                  safe, k.c(1.0));
  LogF64 p = logCoreF64(k, safe);
  Value ln = k.sub(p.f, k.sub(p.hfsq, p.sR));
  Value hi = k.mul(ln, k.c(kLog2e));
  Value lo = k.fma(ln, k.c(kLog2eLo), k.fma(ln, k.c(kLog2e), k.neg(hi)));
  Value sum = k.add(p.k, hi);
  Value err = k.add(k.sub(p.k, sum), hi); // exact: |k| >= |hi| or k = 0
  return logSpecialsF64(k, x, k.add(sum, k.add(err, lo)));
}

} // namespace

Value expF64(F64 &k, Value x) {
  Value t = clamp(k, x, -746.0, 710.0);
  Value n = k.rint(k.mul(t, k.c(kLog2e)));
  Value nn = k.neg(n);
  Value rh = k.fma(nn, k.c(kLn2Hi), t); // exact: both on 2^-54's grid
  Value r = k.fma(nn, k.c(kLn2Lo), rh);
  Value rLo = k.fma(nn, k.c(kLn2Lo), k.sub(rh, r));
  return keepNaN(k, x, scale(k, expCore(k, r, rLo), n));
}

Value exp2CoreF64(F64 &k, Value hi, Value lo) {
  Value t = clamp(k, hi, -1076.0, 1025.0);
  Value n = k.rint(t);
  Value f = k.sub(t, n); // exact, |f| <= 1/2
  Value rHi = k.mul(f, k.c(kLn2Hi));
  Value rLo = k.fma(f, k.c(kLn2Lo), k.fma(f, k.c(kLn2Hi), k.neg(rHi)));
  rLo = k.fma(lo, k.c(kLn2Hi), rLo);
  return keepNaN(k, hi, scale(k, expCore(k, rHi, rLo), n));
}

SplitF64 splitF64(F64 &k, Value x) {
  Value tiny = k.cmp(arith::CmpFPredicate::OLT, x, k.c(0x1p-1022));
  Value scaled = k.select(tiny, k.mul(x, k.c(0x1p54)), x);
  Value b = k.bits(scaled);
  Value e = k.isub(k.shrs(b, 52), k.select(tiny, k.ci(1023 + 54), k.ci(1023)));
  Value m = k.fromBits(k.bor(k.band(b, 0x000fffffffffffffLL),
                             0x3ff0000000000000LL));
  return {k.toFloat(e), m};
}

void populateExpandMathF64(RewritePatternSet &patterns) {
  patterns.add<ExpandF64Pattern<math::ExpOp, expF64>,
               ExpandF64Pattern<math::Exp2Op, expandExp2F64>,
               ExpandF64Pattern<math::LogOp, expandLogF64>,
               ExpandF64Pattern<math::Log2Op, expandLog2F64>>(
      patterns.getContext());
  populateExpandMathF64Trig(patterns);
  populateExpandMathF64Special(patterns);
  populateExpandMathF64Pow(patterns);
}

} // namespace mlir::ktc::expand
