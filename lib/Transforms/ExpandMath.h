//===- ExpandMath.h - f32 arithmetic for ktc-expand-math --------*- C++ -*-===//
//
// The helpers every expansion of ktc-expand-math builds with (ExpandMath.cpp:
// exp, exp2, log, log2; ExpandMathFunctions.cpp: tanh, erf, sin, cos, pow):
// exactly rounded f32 and i32 operations on scalars or tensors, and the
// exp2/log cores they share.
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

namespace mlir::ktc::expand {

/// f32 and i32 arithmetic on values shaped like `like` (a scalar or a
/// tensor).
struct F32 {
  OpBuilder &b;
  Location loc;
  Type f32, i32;

  F32(OpBuilder &b, Location loc, Type like)
      : b(b), loc(loc), f32(withElement(like, b.getF32Type())),
        i32(withElement(like, b.getI32Type())) {}

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
  Value c(float v) { return splat(f32, b.getF32FloatAttr(v)); }
  Value ci(int32_t v) { return splat(i32, b.getI32IntegerAttr(v)); }
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
  Value bits(Value x) { return arith::BitcastOp::create(b, loc, i32, x); }
  Value fromBits(Value x) { return arith::BitcastOp::create(b, loc, f32, x); }
  Value iadd(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value isub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value shl(Value x, int s) { return arith::ShLIOp::create(b, loc, x, ci(s)); }
  Value shrs(Value x, int s) { return arith::ShRSIOp::create(b, loc, x, ci(s)); }
  Value band(Value x, int32_t m) { return arith::AndIOp::create(b, loc, x, ci(m)); }
  Value bor(Value x, int32_t m) { return arith::OrIOp::create(b, loc, x, ci(m)); }

  /// 2^k for an integer k in [-126, 127].
  Value pow2(Value k) { return fromBits(shl(iadd(k, ci(127)), 23)); }
  /// rint(t) for |t| < 2^22: the FPU rounds t + 1.5 * 2^23 to an integer.
  Value rint(Value t) {
    Value magic = c(12582912.0f);
    return sub(add(t, magic), magic);
  }
};

/// 2^(hi + lo), |lo| tiny, hi already clamped to [-151, 129].
Value exp2Core(F32 &k, Value hi, Value lo);
/// x clamped to [lo, hi]; NaN passes through.
Value clamp(F32 &k, Value x, float lo, float hi);
/// `result`, or x where x is NaN.
Value keepNaN(F32 &k, Value x, Value result);
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
      x = arith::ExtFOp::create(rewriter, loc, k.f32, x);
    Value y = Expand(k, x);
    if (!element.isF32())
      y = arith::TruncFOp::create(rewriter, loc, type, y);
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// tanh, erf, sin, cos and pow (ExpandMathFunctions.cpp).
void populateExpandMathFunctions(RewritePatternSet &patterns);
/// exp, exp2, log and log2 of f64 (ExpandMathF64.cpp).
void populateExpandMathF64(RewritePatternSet &patterns);

} // namespace mlir::ktc::expand

#endif // KTC_LIB_TRANSFORMS_EXPANDMATH_H
