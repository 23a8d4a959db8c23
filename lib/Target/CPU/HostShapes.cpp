//===- HostShapes.cpp - ktc's shape ops on the host -----------------------===//
//
// See HostShapes.h. expand_dims and reshape are tensor.expand_shape /
// tensor.collapse_shape (row-major, as ktc's reshape is), which bufferise
// to views; broadcast is a linalg.generic reading the unit dimensions at 0,
// trans a linalg.transpose (result dimension i is source dimension perm[i],
// linalg's convention too).
//
//===----------------------------------------------------------------------===//

#include "HostShapes.h"

#include "dialect/KtcDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::ktc;

namespace {

/// An empty tensor of `type` (the destination of a linalg op).
Value empty(OpBuilder &b, Location loc, RankedTensorType type) {
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType());
}

/// Groups every dimension of a rank-`rank` tensor into one (collapsing it
/// to 1-D, or expanding 1-D to it).
SmallVector<ReassociationIndices> allInOne(int64_t rank) {
  ReassociationIndices all;
  for (int64_t i = 0; i < rank; ++i)
    all.push_back(i);
  return {all};
}

struct ExpandDimsLowering : OpConversionPattern<ExpandDimsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ExpandDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    // Each source dimension keeps its place; the new unit dimension joins
    // the group of its left neighbour (of the first dimension at axis 0).
    int64_t rank = op.getSrc().getType().getRank(), axis = op.getAxis();
    SmallVector<ReassociationIndices> reassociation;
    for (int64_t i = 0; i < rank; ++i)
      reassociation.push_back({i < axis ? i : i + 1});
    if (axis == 0)
      reassociation.front().insert(reassociation.front().begin(), 0);
    else
      reassociation[axis - 1].push_back(axis);
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, type, adaptor.getSrc(), reassociation);
    return success();
  }
};

struct BroadcastLowering : OpConversionPattern<BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    RankedTensorType srcType = op.getSrc().getType();
    int64_t rank = type.getRank();
    SmallVector<AffineExpr> exprs;
    for (int64_t i = 0; i < rank; ++i)
      exprs.push_back(srcType.getDimSize(i) == 1 && type.getDimSize(i) != 1
                          ? rewriter.getAffineConstantExpr(0)
                          : rewriter.getAffineDimExpr(i));
    SmallVector<AffineMap> maps{
        AffineMap::get(rank, 0, exprs, rewriter.getContext()),
        rewriter.getMultiDimIdentityMap(rank)};
    auto generic = linalg::GenericOp::create(
        rewriter, op.getLoc(), TypeRange{type}, ValueRange{adaptor.getSrc()},
        ValueRange{empty(rewriter, op.getLoc(), type)}, maps,
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [](OpBuilder &b, Location loc, ValueRange args) {
          linalg::YieldOp::create(b, loc, args[0]);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

struct TransLowering : OpConversionPattern<TransOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    SmallVector<int64_t> perm(op.getPerm());
    auto transpose = linalg::TransposeOp::create(
        rewriter, op.getLoc(), adaptor.getSrc(),
        empty(rewriter, op.getLoc(), type), perm);
    rewriter.replaceOp(op, transpose.getResults());
    return success();
  }
};

struct ReshapeLowering : OpConversionPattern<ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    // Through the 1-D block of the same elements: collapse, then expand.
    Value v = adaptor.getSrc();
    int64_t srcRank = op.getSrc().getType().getRank();
    if (srcRank > 1)
      v = tensor::CollapseShapeOp::create(rewriter, loc, v, allInOne(srcRank));
    if (type.getRank() > 1)
      v = tensor::ExpandShapeOp::create(rewriter, loc, type, v,
                                        allInOne(type.getRank()));
    rewriter.replaceOp(op, v);
    return success();
  }
};

} // namespace

void mlir::ktc::populateHostShapePatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns.add<ExpandDimsLowering, BroadcastLowering, TransLowering,
               ReshapeLowering>(converter, patterns.getContext());
}
