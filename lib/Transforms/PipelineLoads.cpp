//===- PipelineLoads.cpp - the ktc-pipeline-loads pass --------------------===//
//
// Software pipelining of the loads in a loop (a kernel's num_stages): each
// load whose address and mask depend only on the induction variable, on
// values the loop advances by a fixed step (LoopPipelining.h) and on
// values from outside the loop is issued num_stages - 1 iterations ahead and
// carried to the iteration that uses it. The persistent fused softmax is the
// case it is for: while a program reduces and stores row i, row i + step is
// already on its way.
//
//   scf.for %i = %lb to %ub step %s {            %x0 = load(p(%lb), m(%lb) & lb < ub)
//     %x = load(p(%i), m(%i))           ==>      scf.for %i ... iter_args(%x = %x0) {
//     use(%x)                                      %n = load(p(%i+%s), m(%i+%s) & %i+%s < ub)
//   }                                              use(%x)
//                                                  yield %n
//                                                }
//
// A prefetched iteration that does not exist is masked off, so no address
// outside what the loop itself reads is ever touched. Like Triton's
// pipeliner, it moves loads above the stores of earlier iterations: a loop
// that reads what it wrote an iteration before must keep num_stages = 1.
//
//===----------------------------------------------------------------------===//

#include "AxisInfo.h"
#include "LoopPipelining.h"

#include "dialect/KtcPasses.h"
#include "dialect/KtcTypes.h"
#include "dialect/LinearLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

#include <map>


namespace mlir::ktc {
#define GEN_PASS_DEF_KTCPIPELINELOADS
#include "dialect/KtcPasses.h.inc"
} // namespace mlir::ktc

using namespace mlir;
using namespace mlir::ktc;

namespace {

/// One load to pipeline and the ops that compute its operands.
struct Candidate {
  LoadOp load;
  AddressSlice slice;
  int64_t distance; // iterations ahead, >= 1
};

struct PipelineLoadsPass
    : mlir::ktc::impl::KtcPipelineLoadsBase<PipelineLoadsPass> {
  using KtcPipelineLoadsBase::KtcPipelineLoadsBase;

  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp func) {
      if (!func->hasAttr(KtcDialect::getKernelAttrName()))
        return;
      unsigned stages =
          numStages ? unsigned(numStages)
                    : KtcDialect::getNumStages(func).value_or(1);
      if (stages < 2)
        return;
      SmallVector<scf::ForOp> loops;
      func.walk([&](scf::ForOp loop) { loops.push_back(loop); });
      std::optional<AxisAnalysis> axis;
      if (StringRef(arch).starts_with("sm_"))
        axis.emplace(func);
      // Element-wise dot operands on NVIDIA: at most elementwiseDistance.
      int64_t elementwise =
          std::min<int64_t>(stages - 1, int64_t(elementwiseDistance));
      for (scf::ForOp loop : loops)
        pipeline(loop, stages - 1, axis ? &*axis : nullptr, elementwise);
    });
  }

  /// The load of `c` for the iteration whose induction variable is `iv`,
  /// `k` iterations on (from the loop's current one, or before it from its
  /// first; the slice reads the loop's as `loopIv`), masked off unless
  /// `inRange`.
  static Value cloneLoad(OpBuilder &b, Value loopIv, const Candidate &c,
                         Value iv, int64_t k, bool inLoop, Value inRange) {
    IRMapping map;
    c.slice.clone(b, map, loopIv, iv, k, inLoop);
    LoadOp original = c.load;
    Location loc = original.getLoc();
    Value ptr = map.lookupOrDefault(original.getPtr());
    Value guard = inRange;
    if (auto tensor = dyn_cast<RankedTensorType>(ptr.getType()))
      guard = SplatOp::create(
          b, loc,
          RankedTensorType::get(tensor.getShape(), b.getI1Type(),
                                tensor.getEncoding()),
          inRange);
    Value mask = original.getMask()
                     ? Value(arith::AndIOp::create(
                           b, loc, map.lookupOrDefault(original.getMask()),
                           guard))
                     : guard;
    Value other =
        original.getOther() ? map.lookupOrDefault(original.getOther()) : Value();
    auto load = LoadOp::create(b, loc, ptr, mask, other);
    load->setDiscardableAttrs(original->getDiscardableAttrDictionary());
    load.setCacheModifierAttr(original.getCacheModifierAttr());
    load.setEvictionPolicyAttr(original.getEvictionPolicyAttr());
    return load.getResult();
  }

  /// Whether `load` is a dot operand read element by element: every user
  /// a dot taking it as A or B, accesses narrower than 4 bytes.
  static bool elementwiseDotOperand(LoadOp load, const AxisAnalysis &axis) {
    auto type = dyn_cast<RankedTensorType>(load.getType());
    if (!type || !type.getEncoding() || load->use_empty() ||
        !type.getElementType().isIntOrFloat())
      return false;
    for (OpOperand &use : load->getUses())
      if (!isa<DotOp>(use.getOwner()) || use.getOperandNumber() >= 2)
        return false;
    int64_t bits = type.getElementType().getIntOrFloatBitWidth();
    int dim = int(toLinearLayout(type).fastestDim());
    return axis.vectorWidth(load, dim) * bits < 32;
  }

  /// Each load `distance` iterations ahead; with `axis` given (NVIDIA
  /// targets), element-wise dot operands `elementwise` (0: they stay).
  void pipeline(scf::ForOp loop, int64_t distance, const AxisAnalysis *axis,
                int64_t elementwise) {
    SmallVector<Candidate> candidates;
    for (Operation &op : loop.getBody()->without_terminator()) {
      auto load = dyn_cast<LoadOp>(&op);
      if (!load)
        continue;
      int64_t d = axis && elementwiseDotOperand(load, *axis) ? elementwise
                                                             : distance;
      if (d < 1)
        continue;
      if (auto slice = addressSlice(loop, load->getOperands()))
        candidates.push_back({load, std::move(*slice), d});
    }
    if (candidates.empty())
      return;

    // The prologue: iterations lb, lb + step, ..., lb + (d-1)·step of each
    // candidate, whose d carried values start at `first[i]`.
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    LoopBounds bounds = LoopBounds::of(b, loop);
    SmallVector<Value> inits;
    SmallVector<size_t> first;
    for (const Candidate &c : candidates) {
      first.push_back(inits.size());
      for (int64_t k = 0; k < c.distance; ++k) {
        auto [iv, inRange] = bounds.advance(b, loc, loop.getLowerBound(), k);
        inits.push_back(
            cloneLoad(b, loop.getInductionVar(), c, iv, k, false, inRange));
      }
    }

    // The loop carries d loads of each candidate; the body issues the one
    // for iv + d·step first of all and uses the oldest.
    IRRewriter rewriter(loop.getContext());
    // The callback builds into the old body (its insertion point is the
    // old yield), before that body moves into the new loop; the carried
    // values then replace the loads.
    auto yields = [&](OpBuilder &yb, Location, ArrayRef<BlockArgument> args) {
      OpBuilder::InsertionGuard guard(yb);
      Block *body = yb.getInsertionBlock();
      Value loopIv = body->getArgument(0);
      yb.setInsertionPointToStart(body);
      SmallVector<Value> next;
      // One induction variable and range test per distance.
      std::map<int64_t, std::pair<Value, Value>> ahead;
      for (auto [i, c] : llvm::enumerate(candidates)) {
        auto it = ahead.find(c.distance);
        if (it == ahead.end()) {
          auto [iv, inRange] = bounds.advance(yb, loc, loopIv, c.distance);
          it = ahead.try_emplace(c.distance, iv, inRange).first;
        }
        auto [iv, inRange] = it->second;
        for (int64_t k = 1; k < c.distance; ++k)
          next.push_back(args[first[i] + k]);
        next.push_back(
            cloneLoad(yb, loopIv, c, iv, c.distance, true, inRange));
      }
      return next;
    };
    size_t firstArg = loop.getNumRegionIterArgs();
    FailureOr<LoopLikeOpInterface> replaced =
        cast<LoopLikeOpInterface>(loop.getOperation())
            .replaceWithAdditionalYields(rewriter, inits,
                                         /*replaceInitOperandUsesInLoop=*/false,
                                         yields);
    if (failed(replaced)) {
      loop.emitError("ktc-pipeline-loads: could not add the carried loads");
      return signalPassFailure();
    }
    auto newLoop = cast<scf::ForOp>(replaced->getOperation());
    for (auto [i, c] : llvm::enumerate(candidates)) {
      c.load.getResult().replaceAllUsesWith(
          newLoop.getRegionIterArgs()[firstArg + first[i]]);
      c.load.erase();
    }
  }
};

} // namespace
