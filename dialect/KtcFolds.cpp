//===- KtcFolds.cpp - ktc folders and canonicalisation patterns -----------===//
//
// Only rewrites that are plainly right: they never change which memory is
// touched or how integers wrap.
//
//===----------------------------------------------------------------------===//

#include "dialect/KtcDialect.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::ktc;

/// A splat constant reshaped to `type`, or null.
static Attribute reshapeSplat(Attribute attr, Type type) {
  auto splat = dyn_cast_if_present<SplatElementsAttr>(attr);
  if (!splat)
    return {};
  return SplatElementsAttr::get(cast<ShapedType>(type),
                                splat.getSplatValue<Attribute>());
}

//===----------------------------------------------------------------------===//
// splat
//===----------------------------------------------------------------------===//

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  // splat(constant c) -> dense<c>
  Attribute value = adaptor.getSrc();
  if (isa_and_present<IntegerAttr, FloatAttr>(value))
    return SplatElementsAttr::get(getType(), value);
  return {};
}

//===----------------------------------------------------------------------===//
// expand_dims
//===----------------------------------------------------------------------===//

OpFoldResult ExpandDimsOp::fold(FoldAdaptor adaptor) {
  return reshapeSplat(adaptor.getSrc(), getType());
}

namespace {
/// expand_dims, broadcast, trans or reshape of splat(x) -> splat(x).
template <typename OpTy>
struct ReshapeOfSplat : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto splat = op.getSrc().template getDefiningOp<SplatOp>();
    if (!splat)
      return failure();
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
    return success();
  }
};

/// broadcast(broadcast(x)) -> broadcast(x).
struct BroadcastOfBroadcast : OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<BroadcastOp>();
    if (!inner)
      return failure();
    rewriter.replaceOpWithNewOp<BroadcastOp>(op, op.getType(), inner.getSrc());
    return success();
  }
};
} // namespace

void ExpandDimsOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                               MLIRContext *context) {
  results.add<ReshapeOfSplat<ExpandDimsOp>>(context);
}

//===----------------------------------------------------------------------===//
// broadcast
//===----------------------------------------------------------------------===//

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return reshapeSplat(adaptor.getSrc(), getType());
}

void BroadcastOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<ReshapeOfSplat<BroadcastOp>, BroadcastOfBroadcast>(context);
}

//===----------------------------------------------------------------------===//
// trans
//===----------------------------------------------------------------------===//

OpFoldResult TransOp::fold(FoldAdaptor adaptor) {
  // The identity permutation (of the same type: layouts may differ).
  if (getSrc().getType() == getType() &&
      llvm::all_of(llvm::enumerate(getPerm()),
                   [](auto p) { return int64_t(p.index()) == p.value(); }))
    return getSrc();
  return reshapeSplat(adaptor.getSrc(), getType());
}

namespace {
/// trans(trans(x, inner), outer) -> trans(x, inner[outer[i]]).
struct TransOfTrans : OpRewritePattern<TransOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<TransOp>();
    if (!inner)
      return failure();
    ArrayRef<int32_t> first = inner.getPerm();
    SmallVector<int32_t> perm;
    for (int32_t p : op.getPerm())
      perm.push_back(first[p]);
    rewriter.replaceOpWithNewOp<TransOp>(op, op.getType(), inner.getSrc(),
                                         perm);
    return success();
  }
};

/// reshape(reshape(x)) -> reshape(x).
struct ReshapeOfReshape : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<ReshapeOp>();
    if (!inner)
      return failure();
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), inner.getSrc());
    return success();
  }
};
} // namespace

void TransOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<ReshapeOfSplat<TransOp>, TransOfTrans>(context);
}

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return reshapeSplat(adaptor.getSrc(), getType());
}

void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<ReshapeOfSplat<ReshapeOp>, ReshapeOfReshape>(context);
}

//===----------------------------------------------------------------------===//
// convert_layout
//===----------------------------------------------------------------------===//

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return reshapeSplat(adaptor.getSrc(), getType());
}

namespace {
/// convert_layout(convert_layout(x)) -> convert_layout(x) (or x), and a
/// conversion of a splat is a splat in the new layout.
struct ConvertOfConvert : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    Value src = op.getSrc();
    if (auto inner = src.getDefiningOp<ConvertLayoutOp>()) {
      if (inner.getSrc().getType() == op.getType())
        rewriter.replaceOp(op, inner.getSrc());
      else
        rewriter.replaceOpWithNewOp<ConvertLayoutOp>(op, op.getType(),
                                                     inner.getSrc());
      return success();
    }
    if (auto splat = src.getDefiningOp<SplatOp>()) {
      rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
      return success();
    }
    return failure();
  }
};
} // namespace

void ConvertLayoutOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                  MLIRContext *context) {
  results.add<ConvertOfConvert>(context);
}

//===----------------------------------------------------------------------===//
// addptr
//===----------------------------------------------------------------------===//

OpFoldResult AddPtrOp::fold(FoldAdaptor adaptor) {
  // addptr(p, 0) -> p
  if (matchPattern(adaptor.getOffset(), m_Zero()))
    return getPtr();
  return {};
}

//===----------------------------------------------------------------------===//
// load and store with constant masks
//===----------------------------------------------------------------------===//

namespace {
/// load(p, mask true, other o) -> load(p); load(p, mask false, other o) -> o.
struct LoadConstantMask : OpRewritePattern<LoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LoadOp op,
                                PatternRewriter &rewriter) const override {
    Value mask = op.getMask();
    if (!mask)
      return failure();
    if (matchPattern(mask, m_One())) {
      // The hints are read before the replacement erases `op`.
      StringAttr cache = op.getCacheModifierAttr(),
                 evict = op.getEvictionPolicyAttr();
      auto load = rewriter.replaceOpWithNewOp<LoadOp>(
          op, op.getPtr(), Value(), Value());
      load.setCacheModifierAttr(cache);
      load.setEvictionPolicyAttr(evict);
      return success();
    }
    if (matchPattern(mask, m_Zero()) && op.getOther()) {
      rewriter.replaceOp(op, op.getOther());
      return success();
    }
    return failure();
  }
};

/// store(p, v, mask true) -> store(p, v); store(p, v, mask false) -> nothing.
struct StoreConstantMask : OpRewritePattern<StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StoreOp op,
                                PatternRewriter &rewriter) const override {
    Value mask = op.getMask();
    if (!mask)
      return failure();
    if (matchPattern(mask, m_One())) {
      rewriter.modifyOpInPlace(op, [&] { op.getMaskMutable().clear(); });
      return success();
    }
    if (matchPattern(mask, m_Zero())) {
      rewriter.eraseOp(op);
      return success();
    }
    return failure();
  }
};
} // namespace

void LoadOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                         MLIRContext *context) {
  results.add<LoadConstantMask>(context);
}

void StoreOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<StoreConstantMask>(context);
}

//===----------------------------------------------------------------------===//
// reduce
//===----------------------------------------------------------------------===//

namespace {
/// max/min of splat(x) -> x (or splat(x) of the reduced shape).
struct ExtremumOfSplat : OpRewritePattern<ReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReduceOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getKind() == ReduceKind::Sum)
      return failure();
    auto splat = op.getSrc().getDefiningOp<SplatOp>();
    if (!splat)
      return failure();
    if (isa<RankedTensorType>(op.getType()))
      rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
    else
      rewriter.replaceOp(op, splat.getSrc());
    return success();
  }
};
} // namespace

void ReduceOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<ExtremumOfSplat>(context);
}
