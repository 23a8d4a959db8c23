//===- ExpandMathF64Pow.cpp - f64 pow on every target ---------------------===//
//
// ktc-expand-math for f64 pow (issue 19): x^y = 2^(y log2|x|) in exactly
// rounded f64 operations, as the f32 pow (ExpandMathFunctions.cpp), so the
// host, NVPTX and AMDGPU compute the same bits; the measured error against
// long double (test/unit/MathF64FunctionsTest.cpp) is in docs/numerics.md.
//
// A result within 1 ulp needs y log2|x| to about 2^-60 absolute (it reaches
// 1075), so log2|x| is the double-double of ExpandMathF64Log.cpp (about
// 2^-67 relative). The product with y is split with an fma, 2^(hi + lo) is
// the f64 exp2 core (rounded once), and IEEE 754's special cases are
// selected last (powSpecials, shared with f32).
//
//===----------------------------------------------------------------------===//

#include "ExpandMath.h"

#include <limits>

using namespace mlir;
using namespace mlir::ktc::expand;

namespace {

using P = arith::CmpFPredicate;

Value expandPowF64(F64 &k, Value x, Value y) {
  const double inf = std::numeric_limits<double>::infinity();
  Value ax = k.abs(x);
  Value zero = k.cmp(P::OEQ, ax, k.c(0.0));
  Value isInf = k.cmp(P::OEQ, ax, k.c(inf));
  Value bad = k.either(zero, k.either(isInf, k.cmp(P::UNO, ax, ax)));
  auto [lh, ll] = log2WideF64(k, k.select(bad, k.c(1.0), ax));
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
