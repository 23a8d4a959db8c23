//===- HostDot.cpp - ktc.dot on the host ----------------------------------===//
//
// A dot is a linalg.generic over (m, n, k), k the innermost loop, whose body
// is acc = fma(a[m, k], b[k, n], acc): k in ascending order, one rounding a
// step. f16 and bf16 operands are widened to f32 first (their products are
// exact in f32, so the fma is the sum's only rounding); tf32 operands are
// rounded to 10 mantissa bits, ties away from zero (cvt.rna.tf32.f32). The
// GPUs' FMA path (blocks too small for the matrix cores, f32 in ieee
// precision) computes the same sums in the same order: the same bits.
//
//===----------------------------------------------------------------------===//

#include "HostShapes.h"

#include "dialect/KtcDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::ktc;

namespace {

/// x rounded to tf32: the nearest value with 10 mantissa bits, ties away
/// from zero; NaN and infinities unchanged (a carry out of the mantissa
/// rounds up to the next binade, or to infinity, as cvt.rna does).
Value roundToTf32(OpBuilder &b, Location loc, Value x) {
  Type i32 = b.getI32Type();
  auto c = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  Value bits = arith::BitcastOp::create(b, loc, i32, x);
  Value rounded = arith::AndIOp::create(
      b, loc, arith::AddIOp::create(b, loc, bits, c(0x1000)), c(~0x1fff));
  Value magnitude = arith::AndIOp::create(b, loc, bits, c(0x7fffffff));
  Value finite = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                       magnitude, c(0x7f800000));
  Value result = arith::SelectOp::create(b, loc, finite, rounded, bits);
  return arith::BitcastOp::create(b, loc, b.getF32Type(), result);
}

struct DotLowering : OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MLIRContext *ctx = op.getContext();
    AffineExpr m, n, k;
    bindDims(ctx, m, n, k);
    auto map = [&](ArrayRef<AffineExpr> exprs) {
      return AffineMap::get(3, 0, exprs, ctx);
    };
    bool tf32 = op.getInputPrecision() == InputPrecision::TF32;
    auto generic = linalg::GenericOp::create(
        rewriter, op.getLoc(), TypeRange{adaptor.getAcc().getType()},
        ValueRange{adaptor.getA(), adaptor.getB()},
        ValueRange{adaptor.getAcc()},
        ArrayRef<AffineMap>{map({m, k}), map({k, n}), map({m, n})},
        ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                      utils::IteratorType::parallel,
                                      utils::IteratorType::reduction},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Type f32 = b.getF32Type();
          Value x = args[0], y = args[1];
          if (x.getType() != f32) {
            x = arith::ExtFOp::create(b, loc, f32, x);
            y = arith::ExtFOp::create(b, loc, f32, y);
          } else if (tf32) {
            x = roundToTf32(b, loc, x);
            y = roundToTf32(b, loc, y);
          }
          linalg::YieldOp::create(
              b, loc, ValueRange{math::FmaOp::create(b, loc, x, y, args[2])});
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

} // namespace

void mlir::ktc::populateHostDotPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<DotLowering>(converter, patterns.getContext());
}
