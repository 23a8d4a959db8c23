//===- LoopPipelining.cpp - what the loop pipeliners share ----------------===//
//
// See LoopPipelining.h.
//
//===----------------------------------------------------------------------===//

#include "LoopPipelining.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::ktc;

std::optional<SmallVector<Operation *>>
mlir::ktc::addressSlice(scf::ForOp loop, ValueRange roots) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> work(roots.begin(), roots.end());
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner()->getParentOp() == loop.getOperation() &&
          arg != loop.getInductionVar())
        return std::nullopt; // a loop-carried value
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!loop->isProperAncestor(def))
      continue; // defined outside the loop
    if (def->getParentOp() != loop.getOperation() || !isPure(def) ||
        def->getNumRegions() != 0)
      return std::nullopt;
    if (slice.insert(def))
      llvm::append_range(work, def->getOperands());
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  return ordered;
}

static Value widen(OpBuilder &b, Location loc, Value v, bool unsignedCmp) {
  Type type = v.getType();
  if (!type.isInteger() || type.getIntOrFloatBitWidth() >= 64)
    return v;
  return unsignedCmp
             ? Value(arith::ExtUIOp::create(b, loc, b.getI64Type(), v))
             : Value(arith::ExtSIOp::create(b, loc, b.getI64Type(), v));
}

LoopBounds LoopBounds::of(OpBuilder &b, scf::ForOp loop) {
  bool unsignedCmp = loop.getUnsignedCmp();
  return {loop.getStep(), widen(b, loop.getLoc(), loop.getStep(), unsignedCmp),
          widen(b, loop.getLoc(), loop.getUpperBound(), unsignedCmp),
          unsignedCmp};
}

std::pair<Value, Value> LoopBounds::advance(OpBuilder &b, Location loc,
                                            Value iv, int64_t k) const {
  auto constant = [&](Type t, int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, t, b.getIntegerAttr(t, v));
  };
  Value next = arith::AddIOp::create(
      b, loc, iv, arith::MulIOp::create(b, loc, step, constant(iv.getType(), k)));
  Value wideNext = arith::AddIOp::create(
      b, loc, widen(b, loc, iv, unsignedCmp),
      arith::MulIOp::create(b, loc, wideStep,
                            constant(wideStep.getType(), k)));
  Value inRange = arith::CmpIOp::create(
      b, loc, unsignedCmp ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt,
      wideNext, wideUb);
  return {next, inRange};
}
