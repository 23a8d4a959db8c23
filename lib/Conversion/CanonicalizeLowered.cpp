//===- CanonicalizeLowered.cpp - the ktc-canonicalize-lowered pass ---------===//
//
// The canonicalizer for what convert-ktc-to-llvm leaves, where a K loop may
// carry over a thousand scalars (a BLOCK_K = 128 matmul's accumulators and
// its pipelined tiles) around a body of some 20k ops. MLIR's canonicalizer
// took minutes there: the greedy driver puts a loop back on its worklist
// after every change to an op in its body, and each visit runs scf.for's
// region-branch patterns, one of which compares every pair of carried
// values. Here the loops' patterns run apart from the others: each loop's
// to a fixpoint, once, between runs of the others to theirs. The patterns
// and folds are the canonicalizer's; only the order differs.
//
//===----------------------------------------------------------------------===//

#include "dialect/KtcPasses.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Rewrite/PatternApplicator.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::ktc {
#define GEN_PASS_DEF_KTCCANONICALIZELOWERED
#include "dialect/KtcPasses.h.inc"
} // namespace mlir::ktc

using namespace mlir;

namespace {

/// Whether `pattern` belongs to a loop that carries values (scf.for,
/// scf.while): those run apart.
bool isLoopPattern(const RewritePattern &pattern) {
  std::optional<OperationName> root = pattern.getRootKind();
  return root && (root->getStringRef() == scf::ForOp::getOperationName() ||
                  root->getStringRef() == scf::WhileOp::getOperationName());
}

/// Notes whether the op being rewritten is erased (a loop of one iteration
/// is inlined, a loop of none replaced by its inputs).
struct ErasureListener : RewriterBase::Listener {
  Operation *watched = nullptr;
  bool erased = false;
  void notifyOperationErased(Operation *op) override {
    erased |= op == watched;
  }
};

struct KtcCanonicalizeLoweredPass
    : mlir::ktc::impl::KtcCanonicalizeLoweredBase<KtcCanonicalizeLoweredPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    // What the canonicalizer collects, split in two.
    RewritePatternSet all(ctx), loops(ctx);
    for (Dialect *dialect : ctx->getLoadedDialects())
      dialect->getCanonicalizationPatterns(all);
    for (RegisteredOperationName op : ctx->getRegisteredOperations())
      op.getCanonicalizationPatterns(all, ctx);
    auto &native = all.getNativePatterns();
    for (auto &pattern : native)
      if (isLoopPattern(*pattern))
        loops.add(std::move(pattern));
    llvm::erase_if(native, [](const auto &pattern) { return !pattern; });
    others = std::make_shared<FrozenRewritePatternSet>(std::move(all));
    loopPatterns = std::make_shared<FrozenRewritePatternSet>(std::move(loops));
    return success();
  }

  void runOnOperation() override {
    // The canonicalizer's defaults.
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Normal);
    config.setMaxIterations(10);
    (void)applyPatternsGreedily(getOperation(), *others, config);
    for (unsigned round = 1; round < maxRounds; ++round) {
      if (!simplifyLoops())
        return;
      (void)applyPatternsGreedily(getOperation(), *others, config);
    }
  }

  /// Applies the loops' patterns to each loop until none applies; inner
  /// loops first. Returns whether anything changed.
  bool simplifyLoops() {
    SmallVector<Operation *> loops;
    getOperation()->walk([&](Operation *op) {
      if (isa<scf::ForOp, scf::WhileOp>(op))
        loops.push_back(op);
    });
    PatternApplicator applicator(*loopPatterns);
    applicator.applyDefaultCostModel();
    ErasureListener listener;
    PatternRewriter rewriter(&getContext());
    rewriter.setListener(&listener);
    bool changed = false;
    for (Operation *loop : loops) {
      listener.watched = loop;
      listener.erased = false;
      // Bounded, as the greedy driver bounds its rewrites: a pattern that
      // keeps succeeding without converging stops here.
      for (int i = 0; i < 100 && !listener.erased; ++i) {
        rewriter.setInsertionPoint(loop);
        if (failed(applicator.matchAndRewrite(loop, rewriter)))
          break;
        changed = true;
      }
    }
    return changed;
  }

  std::shared_ptr<const FrozenRewritePatternSet> others, loopPatterns;
};

} // namespace
