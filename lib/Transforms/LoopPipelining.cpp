//===- LoopPipelining.cpp - what the loop pipeliners share ----------------===//
//
// See LoopPipelining.h.
//
//===----------------------------------------------------------------------===//

#include "LoopPipelining.h"

#include "dialect/KtcDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::ktc;

/// `arg` as an induction of `loop`, if it is one.
static std::optional<Induction> inductionOf(scf::ForOp loop,
                                            BlockArgument arg) {
  OpOperand *yielded = loop.getTiedLoopYieldedValue(arg);
  OpOperand *init = loop.getTiedLoopInit(arg);
  if (!yielded || !init)
    return std::nullopt;
  Operation *step = yielded->get().getDefiningOp();
  if (!step || step->getParentOp() != loop.getOperation() ||
      !isa<AddPtrOp, arith::AddIOp>(step) || step->getOperand(0) != arg)
    return std::nullopt;
  Value inc = step->getOperand(1);
  if (loop->isAncestor(inc.getParentRegion()->getParentOp()))
    return std::nullopt; // computed in the loop
  return Induction{arg, init->get(), inc};
}

Value Induction::advance(OpBuilder &b, Location loc, Value base,
                         int64_t k) const {
  if (k == 0)
    return base;
  Type type = inc.getType();
  Type element = getElementTypeOrSelf(type);
  TypedAttr times = b.getIntegerAttr(element, k);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    times = DenseElementsAttr::get(tensor, cast<Attribute>(times));
  Value step = arith::MulIOp::create(
      b, loc, inc, arith::ConstantOp::create(b, loc, type, times));
  if (isa<PtrType>(getElementTypeOrSelf(base.getType())))
    return AddPtrOp::create(b, loc, base.getType(), base, step);
  return arith::AddIOp::create(b, loc, base, step);
}

void AddressSlice::clone(OpBuilder &b, IRMapping &map, Value loopIv,
                         Value iv, int64_t k, bool inLoop) const {
  map.map(loopIv, iv);
  for (const Induction &c : carried)
    map.map(c.arg,
            c.advance(b, c.arg.getLoc(), inLoop ? Value(c.arg) : c.init, k));
  for (Operation *op : ops)
    b.clone(*op, map);
}

std::optional<AddressSlice> mlir::ktc::addressSlice(scf::ForOp loop,
                                                    ValueRange roots) {
  llvm::SetVector<Operation *> slice;
  llvm::SetVector<BlockArgument> args;
  SmallVector<Value> work(roots.begin(), roots.end());
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner()->getParentOp() == loop.getOperation() &&
          arg != loop.getInductionVar())
        args.insert(arg); // loop-carried: an induction, or no slice
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
  AddressSlice out;
  for (BlockArgument arg : args) {
    std::optional<Induction> induction = inductionOf(loop, arg);
    if (!induction)
      return std::nullopt;
    out.carried.push_back(*induction);
  }
  out.ops.assign(slice.begin(), slice.end());
  llvm::sort(out.ops, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  return out;
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
