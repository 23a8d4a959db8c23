//===- CheapBlocks.cpp - copies of cheap blocks, one per use ---------------===//
//
// Before layouts are assigned, a block that is cheap to compute (an arange,
// a splat, a constant, or an elementwise tree of them) and used in several
// places is copied per use, so that each copy can take the layout its use
// wants (a row index used as x[:, None] and x[None, :] in one kernel, a
// mask shared by a load and a transposed store). CSE merges the copies
// that end up alike.
//
//===----------------------------------------------------------------------===//

#include "CheapBlocks.h"

#include "dialect/KtcDialect.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::ktc;

/// Ops whose block results are cheap to compute again where they are used:
/// no memory, no reduction, no loop-carried value feeds them.
static bool isCheap(Operation *op, DenseMap<Operation *, bool> &memo) {
  if (!op)
    return false; // a block argument
  auto it = memo.find(op);
  if (it != memo.end())
    return it->second;
  bool cheap = false;
  StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
  if (op->getNumResults() == 1 && op->getNumRegions() == 0 &&
      (isa<ArangeOp, SplatOp, ExpandDimsOp, BroadcastOp, AddPtrOp,
           ConvertLayoutOp>(op) ||
       dialect == "arith" || dialect == "math")) {
    cheap = true;
    for (Value v : op->getOperands())
      if (isa<RankedTensorType>(v.getType()) &&
          !isCheap(v.getDefiningOp(), memo))
        cheap = false;
  }
  return memo[op] = cheap;
}

/// Gives every use of a cheap block its own copy, made where the original
/// is (so that a copy inside a loop costs nothing more per iteration), or
/// just before a use in the original's own block.
void mlir::ktc::copyCheapBlocksPerUse(func::FuncOp func) {
  DenseMap<Operation *, bool> memo;
  constexpr int kMaxCopies = 4096; // a DAG must not blow up
  int copies = 0;
  for (bool changed = true; changed && copies < kMaxCopies;) {
    changed = false;
    SmallVector<Operation *> ops;
    func.walk([&](Operation *op) { ops.push_back(op); });
    for (Operation *op : ops) {
      if (op->getNumResults() != 1 ||
          !isa<RankedTensorType>(op->getResult(0).getType()) ||
          !isCheap(op, memo) || op->getResult(0).hasOneUse() ||
          op->getResult(0).use_empty())
        continue;
      auto uses = llvm::make_early_inc_range(op->getResult(0).getUses());
      bool first = true;
      for (OpOperand &use : uses) {
        // A use further down the original's own block (past a loop) gets
        // its copy just before it: nothing held across the loop for it.
        bool below = use.getOwner()->getBlock() == op->getBlock();
        if (first && !below) {
          first = false;
          continue;
        }
        OpBuilder b(op->getContext());
        if (below)
          b.setInsertionPoint(use.getOwner());
        else
          b.setInsertionPointAfter(op);
        Operation *copy = b.clone(*op);
        memo[copy] = true;
        use.set(copy->getResult(0));
        changed = true;
        ++copies;
      }
      if (op->use_empty()) {
        memo.erase(op);
        op->erase();
      }
    }
  }
}

