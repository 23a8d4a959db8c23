//===- RemoveLayoutConversions.cpp - the ktc-remove-layout-conversions pass ===//
//
// See KtcRemoveLayoutConversions in KtcPasses.td. Two rewrites, applied
// until nothing changes, with the conversions' own folds:
//
// - Backward rematerialisation: for a conversion of %x to layout L, walk
//   back from %x through ops that can be redone in L (splats, aranges,
//   constants; elementwise ops, addptr, broadcast, expand_dims), each value
//   wanting one layout (expand_dims' source the slice of its result's).
//   Where the walk stops (a load, a reduction, a loop's value, another
//   conversion), the value is converted instead. When the conversions
//   left cost less than the one removed (dialect/Relayout.h: nothing in
//   registers, the bytes moved by shuffles, four times that through shared
//   memory; an op copied because it has other users costs one a
//   element), the walked ops are cloned in their new layouts and the
//   conversion goes.
// - Reductions of conversions reduce first: a 1-D block reduces to a
//   scalar (no layout at all), a larger one to a smaller block converted
//   after.
//
//===----------------------------------------------------------------------===//

#include "dialect/KtcDialect.h"
#include "dialect/KtcPasses.h"
#include "dialect/LinearLayout.h"
#include "dialect/Relayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::ktc {
#define GEN_PASS_DEF_KTCREMOVELAYOUTCONVERSIONS
#include "dialect/KtcPasses.h.inc"
} // namespace mlir::ktc

using namespace mlir;
using namespace mlir::ktc;

namespace {

/// The most ops one rematerialisation walks.
constexpr size_t kMaxSlice = 64;

Type withLayout(Type t, Attribute layout) {
  auto tensor = cast<RankedTensorType>(t);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               layout);
}

int64_t elementBytes(Type t) {
  Type e = cast<RankedTensorType>(t).getElementType();
  return isa<PtrType>(e) ? 8 : std::max<int64_t>(1, e.getIntOrFloatBitWidth() / 8);
}

/// What moving `from` to `to` costs (see the file comment).
int64_t costOf(const LinearLayout &from, const LinearLayout &to,
               int64_t bytes) {
  switch (relayoutKind(from, to)) {
  case RelayoutKind::Registers:
    return 0;
  case RelayoutKind::Shuffles:
    return from.numElements() * bytes;
  case RelayoutKind::SharedMemory:
    return 4 * from.numElements() * bytes;
  }
  return 0;
}

/// The cost of converting block `v` to `layout`.
int64_t conversionCost(Value v, Attribute layout) {
  auto type = cast<RankedTensorType>(v.getType());
  return costOf(toLinearLayout(type),
                toLinearLayout(layout, type.getShape()), elementBytes(type));
}

bool isLayoutAttr(Attribute a) { return isa_and_nonnull<BlockedEncodingAttr, SliceEncodingAttr>(a); }

bool isElementwise(Operation *op) {
  StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
  return (dialect == "arith" || dialect == "math") &&
         op->getNumResults() == 1 && op->getNumRegions() == 0 &&
         isa<RankedTensorType>(op->getResult(0).getType()) &&
         !isa<arith::ConstantOp>(op);
}

/// Ops redone from nothing but scalars and attributes.
bool isSource(Operation *op) {
  if (isa<ArangeOp, SplatOp>(op))
    return true;
  auto c = dyn_cast<arith::ConstantOp>(op);
  return c && isa<DenseElementsAttr>(c.getValue());
}

struct Rematerialise : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    Attribute target = op.getType().getEncoding();
    // The layout each walked value is wanted in; the ops redone; the
    // values converted where the walk stops.
    DenseMap<Value, Attribute> want;
    SetVector<Operation *> redone;
    SmallVector<Value> leaves;
    int64_t cost = 0;
    SmallVector<std::pair<Value, Attribute>> work{{op.getSrc(), target}};
    while (!work.empty()) {
      auto [v, layout] = work.pop_back_val();
      auto [it, inserted] = want.try_emplace(v, layout);
      if (!inserted) {
        if (it->second != layout)
          return failure(); // one value wanted in two layouts
        continue;
      }
      auto type = cast<RankedTensorType>(v.getType());
      if (type.getEncoding() == layout)
        continue; // already there
      Operation *def = v.getDefiningOp();
      bool walk = def && redone.size() < kMaxSlice && def->getNumResults() == 1;
      if (walk && isSource(def)) {
        redone.insert(def);
        continue;
      }
      // A load used only here whose layout has the wanted one's map: the
      // same accesses, retyped (its pointers, mask and `other` with it).
      bool sameLoad = walk && isa<LoadOp>(def) && v.hasOneUse() &&
                      toLinearLayout(type) ==
                          toLinearLayout(layout, type.getShape());
      if (sameLoad || (walk && (isElementwise(def) || isa<AddPtrOp>(def) ||
                   (isa<BroadcastOp>(def) && isLayoutAttr(layout)) ||
                   (isa<ExpandDimsOp>(def) && isLayoutAttr(layout))))) {
        redone.insert(def);
        if (!v.hasOneUse())
          cost += type.getNumElements();
        for (Value operand : def->getOperands()) {
          if (!isa<RankedTensorType>(operand.getType()))
            continue;
          Attribute l = layout;
          if (auto e = dyn_cast<ExpandDimsOp>(def))
            l = SliceEncodingAttr::get(op.getContext(), e.getAxis(), layout);
          work.push_back({operand, l});
        }
        continue;
      }
      // Converted here: another conversion's source, or the value itself.
      if (auto inner = dyn_cast_or_null<ConvertLayoutOp>(def)) {
        // convert(convert(y)): y converted once (the inner conversion
        // stays for its other users, if any).
        redone.insert(def);
        Value src = inner.getSrc();
        if (cast<RankedTensorType>(src.getType()).getEncoding() != layout) {
          cost += conversionCost(src, layout);
          leaves.push_back(src);
        }
        continue;
      }
      cost += conversionCost(v, layout);
      leaves.push_back(v);
    }
    int64_t old = conversionCost(op.getSrc(), target);
    // Cheaper, or as cheap with fewer conversions (the one removed).
    if (!(cost < old || (cost == old && leaves.empty())))
      return failure();

    // Clone the walked ops in their new layouts, each where the original
    // is (so that it dominates the same uses), operands first.
    IRMapping map;
    std::function<Value(Value)> rebuild = [&](Value v) -> Value {
      if (Value done = map.lookupOrNull(v))
        return done;
      Attribute layout = want.lookup(v);
      auto type = cast<RankedTensorType>(v.getType());
      if (!layout || type.getEncoding() == layout)
        return v;
      Operation *def = v.getDefiningOp();
      OpBuilder::InsertionGuard guard(rewriter);
      if (def && redone.contains(def) && !isa<ConvertLayoutOp>(def)) {
        SmallVector<Value> operands;
        for (Value operand : def->getOperands())
          operands.push_back(isa<RankedTensorType>(operand.getType())
                                 ? rebuild(operand)
                                 : operand);
        rewriter.setInsertionPointAfter(def);
        Operation *clone = rewriter.clone(*def);
        clone->setOperands(operands);
        clone->getResult(0).setType(withLayout(type, layout));
        if (auto c = dyn_cast<arith::ConstantOp>(clone))
          c.setValueAttr(cast<DenseElementsAttr>(c.getValue())
                             .reshape(cast<ShapedType>(c.getType())));
        map.map(v, clone->getResult(0));
        return clone->getResult(0);
      }
      Value src = v;
      if (auto inner = dyn_cast_or_null<ConvertLayoutOp>(def))
        src = inner.getSrc();
      if (cast<RankedTensorType>(src.getType()).getEncoding() == layout) {
        map.map(v, src);
        return src;
      }
      if (Operation *at = src.getDefiningOp())
        rewriter.setInsertionPointAfter(at);
      else
        rewriter.setInsertionPointToStart(src.getParentBlock());
      Value moved = ConvertLayoutOp::create(rewriter, op.getLoc(),
                                            withLayout(type, layout), src);
      map.map(v, moved);
      return moved;
    };
    Value result = rebuild(op.getSrc());
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// reduce(convert_layout(x)) -> reduce(x) for a 1-D block (a scalar
/// result); -> convert_layout(reduce(x)) in the slice of x's layout for a
/// larger one.
struct ReduceFirst : OpRewritePattern<ReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReduceOp op,
                                PatternRewriter &rewriter) const override {
    auto convert = op.getSrc().getDefiningOp<ConvertLayoutOp>();
    if (!convert || !convert->hasOneUse())
      return failure();
    Value x = convert.getSrc();
    auto result = dyn_cast<RankedTensorType>(op.getType());
    if (!result) {
      rewriter.modifyOpInPlace(op, [&] { op.getSrcMutable().assign(x); });
      return success();
    }
    Attribute from = cast<RankedTensorType>(x.getType()).getEncoding();
    if (!isLayoutAttr(from) || !isLayoutAttr(result.getEncoding()))
      return failure();
    Attribute slice =
        SliceEncodingAttr::get(op.getContext(), op.getAxis(), from);
    // Only where converting the reduced block costs less.
    Type reducedType = withLayout(result, slice);
    auto reducedLayout = toLinearLayout(cast<RankedTensorType>(reducedType));
    int64_t after = costOf(reducedLayout, toLinearLayout(result),
                           elementBytes(result));
    if (after >= conversionCost(x, convert.getType().getEncoding()))
      return failure();
    auto reduced = ReduceOp::create(rewriter, op.getLoc(), reducedType,
                                    op.getKindAttr(), x, op.getAxisAttr());
    rewriter.replaceOpWithNewOp<ConvertLayoutOp>(op, result, reduced);
    return success();
  }
};

struct KtcRemoveLayoutConversionsPass
    : mlir::ktc::impl::KtcRemoveLayoutConversionsBase<
          KtcRemoveLayoutConversionsPass> {
  using Base::Base;

  /// The layout changes through shared memory, and the conversions.
  std::pair<int64_t, int64_t> count() {
    int64_t shared = 0, converts = 0;
    getOperation().walk([&](Operation *op) {
      if (!isa<ConvertLayoutOp, ExpandDimsOp, BroadcastOp, TransOp, ReshapeOp>(
              op))
        return;
      auto src = cast<RankedTensorType>(op->getOperand(0).getType());
      auto dst = cast<RankedTensorType>(op->getResult(0).getType());
      if (!isLayoutAttr(src.getEncoding()) || !isLayoutAttr(dst.getEncoding()))
        return; // unlaid-out, or matrix-instruction layouts
      converts += isa<ConvertLayoutOp>(op);
      shared += relayoutKind(op) == RelayoutKind::SharedMemory;
    });
    return {shared, converts};
  }

  void runOnOperation() override {
    auto [sharedBefore, convertsBefore] = count();
    RewritePatternSet patterns(&getContext());
    patterns.add<Rematerialise, ReduceFirst>(&getContext());
    ConvertLayoutOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    if (!report)
      return;
    auto [sharedAfter, convertsAfter] = count();
    getOperation().emitRemark()
        << "layout changes through shared memory: " << sharedBefore
        << " before, " << sharedAfter << " after; ktc.convert_layout: "
        << convertsBefore << " before, " << convertsAfter << " after";
  }
};

} // namespace
