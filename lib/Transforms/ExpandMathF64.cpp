//===- ExpandMathF64.cpp - f64 exp, exp2, log, log2 on every target -------===//
//
// ktc-expand-math for f64 (issue 19): the GPU targets have no f64 exp2 or
// log2 instruction, so these are written, as the f32 ones (ExpandMath.cpp),
// with exactly rounded f64 operations (add, mul, fma, correctly rounded
// division, integer bit moves): the host, NVPTX and AMDGPU compute the same
// bits. Errors measured on the host against long double (test/unit/
// MathF64Test.cpp; docs/numerics.md): exp and exp2 below 0.76 ulp, log and
// log2 below 0.51 (rounded once from a double-double); exact at the special
// arguments. The other f64 functions (sin, cos, tanh, erf, pow) are in
// ExpandMathF64{Trig,Special,Pow}.cpp, registered from
// populateExpandMathF64.
//
// exp(x): n = rint(x log2(e)), r = x - n ln(2) (Cody and Waite, ln(2) in two
// parts, fma; the first step exact, the second's error kept as r_lo), e^r
// = 1 + q, q = r + r^2 P(r) with P the Taylor series to r^13/13! (|r| <=
// 0.35: the rest is below 2^-60), the two sums by two-sum so that 1 + q is
// rounded once; times 2^n as two exact powers of two so that a subnormal
// result is rounded once. exp2(x): n = rint(x), r = (x - n) ln(2) as a
// double-double, the same core. log(x) = e ln(2) + ln(m) and log2(x) = e +
// ln(m) log2(e) from ExpandMathF64Log.cpp's double-double ln(m), ln(2) in
// two parts (fdlibm's), each rounded once at the end.
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

/// x where it is finite and > 0, else 1 (the specials are selected last).
Value positiveFinite(F64 &k, Value x) {
  Value safe = k.select(k.cmp(arith::CmpFPredicate::OGT, x, k.c(0.0)), x,
                        k.c(1.0));
  return k.select(k.cmp(arith::CmpFPredicate::OLT, safe,
                        k.c(std::numeric_limits<double>::infinity())),
                  safe, k.c(1.0));
}

Value expandLogF64(F64 &k, Value x) {
  // fdlibm's ln2_hi has 32 trailing zero bits: e ln2_hi is exact.
  const double ln2Hi = 6.93147180369123816490e-01,
               ln2Lo = 1.90821492927058770002e-10;
  auto [e, hi, lo] = lnWideF64(k, positiveFinite(k, x));
  // e ln2_hi + hi by fast two-sum (|e ln2_hi| >= ln 2 > |hi| or e = 0).
  Value a = k.mul(e, k.c(ln2Hi));
  Value s = k.add(a, hi);
  Value sLo = k.add(k.sub(a, s), hi);
  Value rest = k.fma(e, k.c(ln2Lo), k.add(sLo, lo));
  return logSpecialsF64(k, x, k.add(s, rest));
}

Value expandLog2F64(F64 &k, Value x) {
  auto [hi, lo] = log2WideF64(k, positiveFinite(k, x));
  return logSpecialsF64(k, x, k.add(hi, lo));
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
