//===- Combine.cpp - the ktc-combine pass ---------------------------------===//
//
// Pointer and mask rewrites that move integer arithmetic, so they are a pass
// of their own rather than canonicalisations (see KtcPasses.td).
//
//===----------------------------------------------------------------------===//

#include "dialect/KtcPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::ktc {
#define GEN_PASS_DEF_KTCCOMBINE
#include "dialect/KtcPasses.h.inc"
} // namespace mlir::ktc

using namespace mlir;
using namespace mlir::ktc;

namespace {

/// addptr(addptr(p, a), b) -> addptr(p, a + b), for offsets of one type.
struct FoldNestedAddPtr : OpRewritePattern<AddPtrOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddPtrOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getPtr().getDefiningOp<AddPtrOp>();
    if (!inner || inner.getOffset().getType() != op.getOffset().getType())
      return failure();
    Value sum = arith::AddIOp::create(rewriter, op.getLoc(), inner.getOffset(),
                                      op.getOffset());
    rewriter.replaceOpWithNewOp<AddPtrOp>(op, op.getType(), inner.getPtr(),
                                          sum);
    return success();
  }
};

/// select(m, load(p, mask m), o) -> load(p, mask m, other o).
struct FoldSelectOfMaskedLoad : OpRewritePattern<arith::SelectOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::SelectOp op,
                                PatternRewriter &rewriter) const override {
    auto load = op.getTrueValue().getDefiningOp<LoadOp>();
    if (!load || !load.getMask() || load.getOther() ||
        load.getMask() != op.getCondition() || !load->hasOneUse())
      return failure();
    auto merged = rewriter.replaceOpWithNewOp<LoadOp>(
        op, load.getPtr(), load.getMask(), op.getFalseValue());
    merged.setCacheModifierAttr(load.getCacheModifierAttr());
    merged.setEvictionPolicyAttr(load.getEvictionPolicyAttr());
    rewriter.eraseOp(load);
    return success();
  }
};

/// addptr(splat(p), splat(i)) -> splat(addptr(p, i)): one scalar add.
struct HoistSplatAddPtr : OpRewritePattern<AddPtrOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddPtrOp op,
                                PatternRewriter &rewriter) const override {
    auto ptr = op.getPtr().getDefiningOp<SplatOp>();
    auto offset = op.getOffset().getDefiningOp<SplatOp>();
    if (!ptr || !offset)
      return failure();
    Value scalar = AddPtrOp::create(rewriter, op.getLoc(),
                                    ptr.getSrc().getType(), ptr.getSrc(),
                                    offset.getSrc());
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), scalar);
    return success();
  }
};

struct KtcCombinePass : mlir::ktc::impl::KtcCombineBase<KtcCombinePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldNestedAddPtr, FoldSelectOfMaskedLoad, HoistSplatAddPtr>(
        &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
