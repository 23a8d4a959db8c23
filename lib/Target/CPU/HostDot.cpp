//===- HostDot.cpp - ktc.dot on the host ----------------------------------===//
//
// Each element of a dot's result is acc = fma(a[m, k], b[k, n], acc) for k
// from 0 up: one rounding a step. f16 and bf16 operands are widened to f32
// first (their products are exact in f32, so the fma is the sum's only
// rounding); tf32 operands are rounded to 10 mantissa bits, ties away from
// zero (cvt.rna.tf32.f32). The GPUs' FMA path (blocks too small for the
// matrix cores, f32 in ieee precision) computes the same sums in the same
// order: the same bits.
//
// Fast without changing a bit: each operand is first copied into an f32
// block of its own (a linalg.map), widened or rounded once per element, not
// once per use; a map is no linalg.generic, so elementwise fusion pulls
// neither it nor the operand's producer (its loads and masks) into the
// dot. The dot is then a linalg.generic over (m, k, n), n the innermost
// loop: every element's chain of fmas still runs k ascending, but
// consecutive n are independent elements at consecutive addresses, which
// LLVM's loop vectoriser widens to the host's vector registers (the i, k, j
// order of a plain C++ matmul loop).
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

/// `x`, a block of the dot's operands, as a new f32 block: widened (f16,
/// bf16), rounded (tf32) or copied (f32), each element once.
Value operandAsF32(OpBuilder &b, Location loc, Value x, bool tf32) {
  Type f32 = b.getF32Type();
  auto type = cast<RankedTensorType>(x.getType());
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(), f32);
  auto map = linalg::MapOp::create(
      b, loc, ValueRange{x}, init,
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value v = args[0];
        if (v.getType() != f32)
          v = arith::ExtFOp::create(b, loc, f32, v);
        else if (tf32)
          v = roundToTf32(b, loc, v);
        linalg::YieldOp::create(b, loc, v);
      });
  return map.getResult()[0];
}

struct DotLowering : OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();
    AffineExpr m, k, n;
    bindDims(ctx, m, k, n);
    auto map = [&](ArrayRef<AffineExpr> exprs) {
      return AffineMap::get(3, 0, exprs, ctx);
    };
    bool tf32 = op.getInputPrecision() == InputPrecision::TF32;
    Value a = operandAsF32(rewriter, loc, adaptor.getA(), tf32);
    Value b = operandAsF32(rewriter, loc, adaptor.getB(), tf32);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{adaptor.getAcc().getType()},
        ValueRange{a, b}, ValueRange{adaptor.getAcc()},
        ArrayRef<AffineMap>{map({m, k}), map({k, n}), map({m, n})},
        ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                      utils::IteratorType::reduction,
                                      utils::IteratorType::parallel},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          linalg::YieldOp::create(
              b, loc,
              ValueRange{math::FmaOp::create(b, loc, args[0], args[1],
                                             args[2])});
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
