//===- ExpandMath.h - f32 arithmetic for ktc-expand-math --------*- C++ -*-===//
//
// The helpers every expansion of ktc-expand-math builds with (ExpandMath.cpp:
// exp, exp2, log, log2; ExpandMathFunctions.cpp: tanh, erf, sin, cos, pow;
// ExpandMathF64.cpp: f64 exp, exp2, log, log2 (ExpandMathF64Log.cpp: their
// double-double logarithm); ExpandMathF64Trig.cpp: f64 sin, cos;
// ExpandMathF64Special.cpp: f64 tanh, erf; ExpandMathF64Pow.cpp: f64 pow):
// exactly rounded f32/i32 and f64/i64 operations on scalars or tensors, the
// f32 exp2/log cores, the f64 exp and log cores and pow's special cases.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_TRANSFORMS_EXPANDMATH_H
#define KTC_LIB_TRANSFORMS_EXPANDMATH_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>
#include <cstdint>
#include <limits>

namespace mlir::ktc::expand {

/// Exactly rounded floating-point and integer arithmetic of one width
/// (float with int32_t, double with int64_t) on values shaped like `like`
/// (a scalar or a tensor).
template <typename Float, typename Int> struct Arith {
  static_assert(sizeof(Float) == sizeof(Int), "a float and its bits");
  /// The significand's bits after the point, and the exponent's bias.
  static constexpr int kFraction = std::numeric_limits<Float>::digits - 1;
  static constexpr int kBias = std::numeric_limits<Float>::max_exponent - 1;

  OpBuilder &b;
  Location loc;
  Type f, i; // the float and the integer type, shaped like `like`

  Arith(OpBuilder &b, Location loc, Type like)
      : b(b), loc(loc),
        f(withElement(like, sizeof(Float) == 4 ? b.getF32Type()
                                               : b.getF64Type())),
        i(withElement(like, b.getIntegerType(8 * sizeof(Int)))) {}

  static Type withElement(Type t, Type e) {
    if (auto s = dyn_cast<ShapedType>(t))
      return s.clone(e);
    return e;
  }
  Value splat(Type type, TypedAttr scalar) {
    if (auto s = dyn_cast<ShapedType>(type))
      return arith::ConstantOp::create(b, loc, SplatElementsAttr::get(s, scalar));
    return arith::ConstantOp::create(b, loc, scalar);
  }
  Value c(Float v) {
    return splat(f, b.getFloatAttr(getElementTypeOrSelf(f), v));
  }
  Value ci(Int v) {
    return splat(i, b.getIntegerAttr(getElementTypeOrSelf(i), v));
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value fma(Value x, Value y, Value z) {
    return math::FmaOp::create(b, loc, x, y, z);
  }
  Value neg(Value x) { return arith::NegFOp::create(b, loc, x); }
  Value cmp(arith::CmpFPredicate p, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value bits(Value x) { return arith::BitcastOp::create(b, loc, i, x); }
  Value fromBits(Value x) { return arith::BitcastOp::create(b, loc, f, x); }
  Value toInt(Value x) { return arith::FPToSIOp::create(b, loc, i, x); }
  Value toFloat(Value x) { return arith::SIToFPOp::create(b, loc, f, x); }
  Value iadd(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value isub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value shl(Value x, int s) { return arith::ShLIOp::create(b, loc, x, ci(s)); }
  Value shrs(Value x, int s) { return arith::ShRSIOp::create(b, loc, x, ci(s)); }
  Value band(Value x, Int m) { return arith::AndIOp::create(b, loc, x, ci(m)); }
  Value bor(Value x, Int m) { return arith::OrIOp::create(b, loc, x, ci(m)); }
  Value abs(Value x) { return math::AbsFOp::create(b, loc, x); }
  Value copySign(Value mag, Value sign) {
    return math::CopySignOp::create(b, loc, mag, sign);
  }
  Value floor(Value x) { return math::FloorOp::create(b, loc, x); }
  Value roundEven(Value x) { return math::RoundEvenOp::create(b, loc, x); }
  /// Boolean and/or of two compares.
  Value both(Value p, Value q) { return arith::AndIOp::create(b, loc, p, q); }
  Value either(Value p, Value q) { return arith::OrIOp::create(b, loc, p, q); }
  /// c[0] + t (c[1] + t (c[2] + ...)), Horner with fma.
  Value horner(Value t, llvm::ArrayRef<Float> coeffs) {
    Value p = c(coeffs.back());
    for (Float v : llvm::reverse(coeffs.drop_back()))
      p = fma(p, t, c(v));
    return p;
  }

  /// 2^k for an integer k in the normal exponents' range ([-126, 127] for
  /// f32, [-1022, 1023] for f64).
  Value pow2(Value k) { return fromBits(shl(iadd(k, ci(kBias)), kFraction)); }
  /// rint(t) for |t| < 2^(kFraction - 1): the FPU rounds t + 1.5 *
  /// 2^kFraction to an integer.
  Value rint(Value t) {
    Value magic = c(Float(1.5) * std::ldexp(Float(1), kFraction));
    return sub(add(t, magic), magic);
  }
};

/// f32 and i32; f64 and i64 (ExpandMathF64.cpp).
using F32 = Arith<float, int32_t>;
using F64 = Arith<double, int64_t>;

/// x clamped to [lo, hi]; NaN passes through.
template <typename Float, typename Int>
Value clamp(Arith<Float, Int> &k, Value x, Float lo, Float hi) {
  Value low =
      k.select(k.cmp(arith::CmpFPredicate::OLT, x, k.c(lo)), k.c(lo), x);
  return k.select(k.cmp(arith::CmpFPredicate::OGT, low, k.c(hi)), k.c(hi),
                  low);
}
/// `result`, or x where x is NaN.
template <typename Float, typename Int>
Value keepNaN(Arith<Float, Int> &k, Value x, Value result) {
  return k.select(k.cmp(arith::CmpFPredicate::UNO, x, x), x, result);
}

/// e + (lnH + lnL) * log2(e) as a double word (hi, lo), log2(e) = lh + ll
/// in the float type's two parts; exact enough when |e| >= 1 > |ln|
/// log2(e) or e = 0 (a logarithm's exponent and its mantissa's ln).
template <typename Float, typename Int>
std::pair<Value, Value> log2FromLn(Arith<Float, Int> &k, Value e, Value lnH,
                                   Value lnL, Float lh, Float ll) {
  Value ph = k.mul(lnH, k.c(lh));
  Value pl = k.fma(lnH, k.c(lh), k.neg(ph));
  pl = k.add(pl, k.fma(lnH, k.c(ll), k.mul(lnL, k.c(lh))));
  Value sh = k.add(e, ph);
  Value sl = k.add(k.add(k.sub(e, sh), ph), pl);
  return {sh, sl};
}

/// 2^(hi + lo), |lo| tiny, hi already clamped to [-151, 129].
Value exp2Core(F32 &k, Value hi, Value lo);
Value expandExp(F32 &k, Value x);

/// ln(m) = hi + lo and the exponent e of x = m * 2^e, for finite x > 0.
struct LogParts {
  Value e, hi, lo;
};
LogParts logCore(F32 &k, Value x);
/// x = m * 2^e with m in [sqrt(1/2), sqrt(2)) and s + sLo = (m - 1) / (m + 1)
/// (ln(m) = 2 atanh(s)), for finite x > 0.
struct LogArg {
  Value e, s, sLo;
};
LogArg logReduce(F32 &k, Value x);

/// pow(x, y) from r = 2^(y log2|x|) (NaN where that product is NaN): C's
/// and IEEE 754's special cases. A negative x (-0 and -inf too) to an odd
/// integer is negative; a finite negative x to a finite non-integer is NaN;
/// (+-1)^(+-inf) = 1; 1^y = 1 and x^0 = 1, NaN included.
template <typename Float, typename Int>
Value powSpecials(Arith<Float, Int> &k, Value x, Value y, Value r) {
  using P = arith::CmpFPredicate;
  const Float inf = std::numeric_limits<Float>::infinity();
  Value yInt = k.cmp(P::OEQ, k.floor(y), y);
  Value yHalf = k.mul(y, k.c(Float(0.5)));
  Value yOdd = k.both(yInt, k.cmp(P::ONE, k.floor(yHalf), yHalf));
  Value xNeg = arith::CmpIOp::create(k.b, k.loc, arith::CmpIPredicate::slt,
                                     k.bits(x), k.ci(0));
  r = k.select(k.both(xNeg, yOdd), k.neg(r), r);
  Value nan = k.c(std::numeric_limits<Float>::quiet_NaN());
  Value negFinite =
      k.both(k.cmp(P::OLT, x, k.c(Float(0))), k.cmp(P::OGT, x, k.c(-inf)));
  Value yFinite = k.cmp(P::OLT, k.abs(y), k.c(inf));
  Value yNonInt = k.cmp(P::ONE, k.floor(y), y);
  r = k.select(k.both(negFinite, k.both(yFinite, yNonInt)), nan, r);
  Value one = k.c(Float(1));
  r = k.select(k.both(k.cmp(P::OEQ, k.abs(x), one),
                      k.cmp(P::OEQ, k.abs(y), k.c(inf))),
               one, r);
  return k.select(
      k.either(k.cmp(P::OEQ, x, one), k.cmp(P::OEQ, y, k.c(Float(0)))), one,
      r);
}

/// f64: e^x and 2^(hi + lo) (|lo| tiny, hi any f64) below 1 ulp
/// (ExpandMathF64.cpp).
Value expF64(F64 &k, Value x);
Value exp2CoreF64(F64 &k, Value hi, Value lo);
/// x = m 2^e with m in [1, 2) and e integral (an f64), for finite x > 0
/// (subnormals included).
struct SplitF64 {
  Value e, m;
};
SplitF64 splitF64(F64 &k, Value x);
/// ln(x) = e ln(2) + hi + lo and log2(x) = hi + lo to about 2^-67
/// relative, for finite x > 0 (ExpandMathF64Log.cpp).
struct LnWideF64 {
  Value e, hi, lo;
};
LnWideF64 lnWideF64(F64 &k, Value x);
std::pair<Value, Value> log2WideF64(F64 &k, Value x);

/// An f64 math op of one operand written out by Expand.
template <typename MathOp, Value (*Expand)(F64 &, Value)>
struct ExpandF64Pattern : OpRewritePattern<MathOp> {
  using OpRewritePattern<MathOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(MathOp op,
                                PatternRewriter &rewriter) const override {
    if (!getElementTypeOrSelf(op.getType()).isF64())
      return rewriter.notifyMatchFailure(op, "not f64");
    F64 k(rewriter, op.getLoc(), op.getType());
    rewriter.replaceOp(op, Expand(k, op.getOperand()));
    return success();
  }
};

template <typename MathOp, Value (*Expand)(F32 &, Value)>
struct ExpandPattern : OpRewritePattern<MathOp> {
  using OpRewritePattern<MathOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(MathOp op,
                                PatternRewriter &rewriter) const override {
    // fast_exp and friends (afn) keep the target's approximation.
    if (arith::bitEnumContainsAny(op.getFastmath(), arith::FastMathFlags::afn))
      return rewriter.notifyMatchFailure(op, "approximate by request");
    Type type = op.getType();
    Type element = getElementTypeOrSelf(type);
    if (!element.isF32() && !element.isF16() && !element.isBF16())
      return rewriter.notifyMatchFailure(op, "not f32, f16 or bf16");
    Location loc = op.getLoc();
    F32 k(rewriter, loc, type);
    Value x = op.getOperand();
    if (!element.isF32())
      x = arith::ExtFOp::create(rewriter, loc, k.f, x);
    Value y = Expand(k, x);
    if (!element.isF32())
      y = arith::TruncFOp::create(rewriter, loc, type, y);
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// tanh, erf, sin, cos and pow (ExpandMathFunctions.cpp).
void populateExpandMathFunctions(RewritePatternSet &patterns);
/// exp, exp2, log and log2 of f64 (ExpandMathF64.cpp), and the f64 functions
/// of the files below.
void populateExpandMathF64(RewritePatternSet &patterns);
/// sin and cos of f64 (ExpandMathF64Trig.cpp).
void populateExpandMathF64Trig(RewritePatternSet &patterns);
/// tanh and erf of f64 (ExpandMathF64Special.cpp).
void populateExpandMathF64Special(RewritePatternSet &patterns);
/// pow of f64 (ExpandMathF64Pow.cpp).
void populateExpandMathF64Pow(RewritePatternSet &patterns);

} // namespace mlir::ktc::expand

#endif // KTC_LIB_TRANSFORMS_EXPANDMATH_H
