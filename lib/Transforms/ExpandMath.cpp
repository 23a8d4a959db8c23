//===- ExpandMath.cpp - exp, exp2, log, log2 the same on every target -----===//
//
// See KtcExpandMath in KtcPasses.td (tanh, erf, sin, cos and pow are in
// ExpandMathFunctions.cpp, the shared helpers in ExpandMath.h). Each
// function is a few exactly specified f32 operations (add, mul, fma,
// correctly rounded division, integer bit moves), so every target that
// rounds those as IEEE says -- the host, NVPTX, AMDGPU -- computes the same
// bits. Measured in float32 emulation over ~3M arguments each: exp <= 1.08
// ulp, exp2 <= 0.98, log <= 1.50, log2 <= 1.03; exact at exact powers of
// two for exp2 and log2; subnormal arguments and results as IEEE.
//
// exp2(t): t = n + f with n = rint(t) and |f| <= 1/2; 2^f by a degree-6
// polynomial (Horner, fma); 2^n applied as two exact power-of-two factors
// so that a subnormal result is rounded once.
// exp(x): t = x * log2(e) carried as hi + lo (fma), n = rint(hi), f =
// (hi - n) + lo.
// log(x): x = m * 2^e with m in [sqrt(1/2), sqrt(2)); ln(m) = 2 atanh(s),
// s = (m - 1) / (m + 1) with its rounding error kept (s + s_lo), a degree-4
// odd series in s; e * ln(2) in two parts. log2 scales ln(m) by log2(e) in
// two parts and adds e.
//
//===----------------------------------------------------------------------===//

#include "ExpandMath.h"

#include "dialect/KtcPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>
#include <limits>

namespace mlir::ktc {
#define GEN_PASS_DEF_KTCEXPANDMATH
#include "dialect/KtcPasses.h.inc"
} // namespace mlir::ktc

using namespace mlir;
using namespace mlir::ktc::expand;

namespace mlir::ktc::expand {

/// 2^(hi + lo), |lo| tiny, hi already clamped to [-151, 129].
Value exp2Core(F32 &k, Value hi, Value lo) {
  Value n = k.rint(hi);
  Value f = k.add(k.sub(hi, n), lo);
  // Degree-6 Chebyshev fit of 2^f on [-1/2, 1/2], coefficients in f32.
  static const float coeffs[] = {0.00015461444854736328f,
                                 0.0013400427997112274f,
                                 0.009618056938052177f,
                                 0.05550327152013779f,
                                 0.24022650718688965f,
                                 0.6931471824645996f,
                                 1.0f};
  Value p = k.c(coeffs[0]);
  for (float c : llvm::ArrayRef(coeffs).drop_front())
    p = k.fma(p, f, k.c(c));
  Value ni = k.toInt(n);
  Value n1 = k.shrs(ni, 1);
  Value n2 = k.isub(ni, n1);
  return k.mul(k.mul(p, k.pow2(n1)), k.pow2(n2));
}

Value expandExp2(F32 &k, Value x) {
  Value t = clamp(k, x, -151.0f, 129.0f);
  return keepNaN(k, x, exp2Core(k, t, k.c(0.0f)));
}

Value expandExp(F32 &k, Value x) {
  constexpr double log2e = 1.4426950408889634;
  const float hi = float(log2e), lo = float(log2e - double(hi));
  Value t = clamp(k, x, -105.0f, 90.0f);
  Value tHi = k.mul(t, k.c(hi));
  Value tLo = k.fma(t, k.c(lo), k.fma(t, k.c(hi), k.neg(tHi)));
  return keepNaN(k, x, exp2Core(k, tHi, tLo));
}

LogArg logReduce(F32 &k, Value x) {
  // Subnormals: scaled into the normal range first.
  Value tiny = k.cmp(arith::CmpFPredicate::OLT, x, k.c(0x1p-126f));
  Value scaled = k.select(tiny, k.mul(x, k.c(0x1p23f)), x);
  Value b = k.bits(scaled);
  Value e = k.isub(k.shrs(b, 23), k.select(tiny, k.ci(127 + 23), k.ci(127)));
  Value m = k.fromBits(k.bor(k.band(b, 0x7fffff), 0x3f800000));
  Value big = k.cmp(arith::CmpFPredicate::OGT, m, k.c(1.41421356f));
  m = k.select(big, k.mul(m, k.c(0.5f)), m);
  e = k.select(big, k.iadd(e, k.ci(1)), e);
  Value u = k.sub(m, k.c(1.0f)); // exact
  Value two = k.c(2.0f);
  Value d = k.add(u, two);
  Value dErr = k.add(k.sub(two, d), u); // exact: d + dErr = u + 2
  Value s = k.div(u, d);
  Value rem = k.fma(k.neg(s), d, u); // u - s d, exact
  rem = k.fma(k.neg(s), dErr, rem);
  Value sLo = k.div(rem, d);
  Value ef = k.toFloat(e);
  return {ef, s, sLo};
}

LogParts logCore(F32 &k, Value x) {
  auto [ef, s, sLo] = logReduce(k, x);
  Value two = k.c(2.0f);
  Value s2 = k.mul(s, s);
  // 2 atanh(s) = 2s + s^3 (2/3 + s^2 (2/5 + s^2 (2/7 + s^2 2/9))).
  Value q = k.c(2.0f / 9);
  for (float c : {2.0f / 7, 2.0f / 5, 2.0f / 3})
    q = k.fma(q, s2, k.c(c));
  Value lo = k.fma(k.mul(s, s2), q, k.mul(two, sLo));
  return {ef, k.mul(two, s), lo};
}

} // namespace mlir::ktc::expand

namespace {

/// log/log2 of the special arguments: NaN below zero and for NaN, -inf at
/// zero, +inf at +inf.
Value logSpecials(F32 &k, Value x, Value result) {
  float inf = std::numeric_limits<float>::infinity();
  result = k.select(k.cmp(arith::CmpFPredicate::OEQ, x, k.c(inf)), x, result);
  result = k.select(k.cmp(arith::CmpFPredicate::OEQ, x, k.c(0.0f)),
                    k.c(-inf), result);
  return k.select(k.cmp(arith::CmpFPredicate::ULT, x, k.c(0.0f)),
                  k.c(std::numeric_limits<float>::quiet_NaN()), result);
}

Value expandLog(F32 &k, Value x) {
  constexpr double ln2 = 0.6931471805599453;
  const float ln2Hi = 0.693145751953125f; // 16 bits: e * ln2Hi is exact
  const float ln2Lo = float(ln2 - double(ln2Hi));
  LogParts p = logCore(k, x);
  Value r = k.add(k.add(k.mul(p.e, k.c(ln2Hi)), p.hi),
                  k.fma(p.e, k.c(ln2Lo), p.lo));
  return logSpecials(k, x, r);
}

Value expandLog2(F32 &k, Value x) {
  constexpr double log2e = 1.4426950408889634;
  const float hi = float(log2e), lo = float(log2e - double(hi));
  LogParts p = logCore(k, x);
  Value ln = k.add(p.hi, p.lo);
  Value lnErr = k.add(k.sub(p.hi, ln), p.lo);
  Value rHi = k.mul(ln, k.c(hi));
  Value rLo = k.fma(ln, k.c(hi), k.neg(rHi));
  rLo = k.add(rLo, k.fma(ln, k.c(lo), k.mul(lnErr, k.c(hi))));
  return logSpecials(k, x, k.add(k.add(p.e, rHi), rLo));
}

struct KtcExpandMathPass
    : mlir::ktc::impl::KtcExpandMathBase<KtcExpandMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandPattern<math::ExpOp, expandExp>,
                 ExpandPattern<math::Exp2Op, expandExp2>,
                 ExpandPattern<math::LogOp, expandLog>,
                 ExpandPattern<math::Log2Op, expandLog2>>(&getContext());
    populateExpandMathFunctions(patterns);
    populateExpandMathF64(patterns);
    // One pass over the ops: the expansions are not to be folded or
    // reassociated (they rely on each operation's rounding).
    GreedyRewriteConfig config;
    config.enableFolding(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config)))
      signalPassFailure();
  }
};

} // namespace
