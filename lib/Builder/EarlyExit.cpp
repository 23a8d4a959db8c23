//===- EarlyExit.cpp - return_if inside loops and branches ----------------===//
//
// How a program leaves early (EarlyExit.h): open exits are scf.ifs whose
// else branch holds the rest of their body; closing one gives it the live
// Vars and the "left" flag as results; loops and branches that contain an
// exit carry the flag out, loops guard each iteration (and a while_ its
// condition) by it, and the code after them is a new open exit. At any
// point where code runs, no exit has been taken yet, so a body starts with
// the flag false and only its end needs the value.
//
// Ops are only ever moved (regions taken whole), never recreated, so the
// values the trace knows (TraceImpl::signedness) stay valid; the ops that
// are replaced have had no uses yet.
//
//===----------------------------------------------------------------------===//

#include "EarlyExit.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace ktc::detail {

static mlir::Value boolConstant(OpBuilder &b, Location l, bool v) {
  return arith::ConstantOp::create(b, l, b.getBoolAttr(v));
}

void openExit(TraceImpl &t, mlir::Value cond, Location loc) {
  auto ifOp = scf::IfOp::create(t.b, loc, TypeRange(), cond,
                                /*withElseRegion=*/true);
  TraceImpl::OpenExit exit{ifOp, {}};
  for (Var *v : t.vars)
    exit.saved.emplace_back(v, v->get());
  t.exits.push_back(std::move(exit));
  // The rest of the body goes before the else branch's scf.yield.
  t.b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
}

void dropExits(TraceImpl &t, size_t depth) {
  if (t.exits.size() > depth)
    t.exits.resize(depth);
}

mlir::Value closeExits(TraceImpl &t, size_t depth, Location loc) {
  mlir::Value left; // the flag of the exit closed last (inner), if any
  while (t.exits.size() > depth) {
    TraceImpl::OpenExit exit = std::move(t.exits.back());
    t.exits.pop_back();
    auto old = cast<scf::IfOp>(exit.op);
    // The Vars alive now were all alive when it opened: they are the
    // enclosing body's carried Vars (the body's own are gone by now).
    SmallVector<mlir::Value> taken, stayed;
    SmallVector<Type> types;
    for (Var *v : t.vars) {
      auto it = llvm::find_if(exit.saved,
                              [&](const auto &s) { return s.first == v; });
      if (it == exit.saved.end())
        t.fail(std::source_location::current(),
               "ktc internal error: a Var alive at the end of a body was "
               "not alive at its return_if");
      taken.push_back(Access::raw(it->second));
      stayed.push_back(Access::raw(v->get()));
      types.push_back(taken.back().getType());
    }
    types.push_back(t.b.getI1Type());
    t.b.setInsertionPoint(old);
    taken.push_back(boolConstant(t.b, loc, true));
    stayed.push_back(left ? left : boolConstant(t.b, loc, false));
    auto ifOp = scf::IfOp::create(t.b, old.getLoc(), types,
                                  old.getCondition(), /*addThenBlock=*/false,
                                  /*addElseBlock=*/false);
    ifOp.getThenRegion().takeBody(old.getThenRegion());
    ifOp.getElseRegion().takeBody(old.getElseRegion());
    ifOp.thenYield()->setOperands(taken);
    ifOp.elseYield()->setOperands(stayed);
    old.erase();
    for (auto [v, r] : llvm::zip(t.vars, ifOp.getResults()))
      Access::set(*v, t.wrap(r));
    left = ifOp.getResults().back();
    t.b.setInsertionPointAfter(ifOp);
  }
  return left;
}

/// Moves the ops of `block` before its terminator into the else branch of
/// an scf.if on `flag`, whose then branch yields `whenSet`; the terminator
/// then takes the if's results (whose types are those of its operands).
static void guardBlock(OpBuilder &b, Block *block, mlir::Value flag,
                       ValueRange whenSet, Location loc) {
  Operation *term = block->getTerminator();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(block);
  auto ifOp = scf::IfOp::create(b, loc, term->getOperandTypes(), flag,
                                /*withElseRegion=*/true);
  Block *otherwise = ifOp.elseBlock();
  otherwise->getOperations().splice(otherwise->end(), block->getOperations(),
                                    std::next(ifOp->getIterator()),
                                    term->getIterator());
  b.setInsertionPointToEnd(otherwise);
  scf::YieldOp::create(b, loc, term->getOperands());
  b.setInsertionPointToEnd(ifOp.thenBlock());
  scf::YieldOp::create(b, loc, whenSet);
  term->setOperands(ifOp.getResults());
}

scf::IfOp addExitFlag(TraceImpl &t, scf::IfOp op, mlir::Value thenLeft,
                      mlir::Value elseLeft, Location loc) {
  OpBuilder::InsertionGuard guard(t.b);
  t.b.setInsertionPoint(op);
  mlir::Value no = boolConstant(t.b, loc, false);
  SmallVector<Type> types(op.getResultTypes());
  types.push_back(t.b.getI1Type());
  auto ifOp = scf::IfOp::create(t.b, op.getLoc(), types, op.getCondition(),
                                /*addThenBlock=*/false,
                                /*addElseBlock=*/false);
  ifOp.getThenRegion().takeBody(op.getThenRegion());
  ifOp.getElseRegion().takeBody(op.getElseRegion());
  Operation *y = ifOp.thenYield();
  y->insertOperands(y->getNumOperands(), thenLeft ? thenLeft : no);
  y = ifOp.elseYield();
  y->insertOperands(y->getNumOperands(), elseLeft ? elseLeft : no);
  op.erase();
  return ifOp;
}

scf::ForOp addExitFlag(TraceImpl &t, scf::ForOp op, mlir::Value left,
                       Location loc) {
  OpBuilder::InsertionGuard guard(t.b);
  t.b.setInsertionPoint(op);
  SmallVector<mlir::Value> inits(op.getInitArgs());
  inits.push_back(boolConstant(t.b, loc, false));
  auto forOp = scf::ForOp::create(t.b, op.getLoc(), op.getLowerBound(),
                                  op.getUpperBound(), op.getStep(), inits,
                                  nullptr, op.getUnsignedCmp());
  forOp.getRegion().takeBody(op.getRegion());
  Block *body = forOp.getBody();
  mlir::Value flag = body->addArgument(t.b.getI1Type(), loc);
  Operation *yield = body->getTerminator();
  yield->insertOperands(yield->getNumOperands(), left);
  // An iteration after the exit does nothing: it passes the values on.
  guardBlock(t.b, body, flag, forOp.getRegionIterArgs(), loc);
  op.erase();
  return forOp;
}

scf::WhileOp addExitFlag(TraceImpl &t, scf::WhileOp op, mlir::Value left,
                         Location loc) {
  OpBuilder::InsertionGuard guard(t.b);
  t.b.setInsertionPoint(op);
  // Constants go before the new loop: the code after it follows it.
  mlir::Value no = boolConstant(t.b, loc, false);
  SmallVector<mlir::Value> inits(op.getInits());
  inits.push_back(no);
  SmallVector<Type> types(op.getResultTypes());
  types.push_back(t.b.getI1Type());
  auto whileOp = scf::WhileOp::create(t.b, op.getLoc(), types, inits);
  whileOp.getBefore().takeBody(op.getBefore());
  whileOp.getAfter().takeBody(op.getAfter());
  Block *before = &whileOp.getBefore().front();
  Block *after = &whileOp.getAfter().front();
  mlir::Value flag = before->addArgument(t.b.getI1Type(), loc);
  after->addArgument(t.b.getI1Type(), loc);
  Operation *yield = after->getTerminator();
  yield->insertOperands(yield->getNumOperands(), left);
  // Once set, the condition is false without being evaluated (it may load
  // or call), and the loop hands its values on as they are.
  auto cond = cast<scf::ConditionOp>(before->getTerminator());
  SmallVector<mlir::Value> whenSet{no};
  for (BlockArgument a : before->getArguments().drop_back())
    whenSet.push_back(a);
  SmallVector<mlir::Value> operands{cond.getCondition()};
  llvm::append_range(operands, cond.getArgs());
  // guardBlock needs the terminator's operands to be the guarded values.
  cond->setOperands(operands);
  guardBlock(t.b, before, flag, whenSet, loc);
  cond->insertOperands(cond->getNumOperands(), flag);
  op.erase();
  return whileOp;
}

} // namespace ktc::detail
