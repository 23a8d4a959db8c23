//===- Control.cpp - for_range, while_, if_ and return_if ------------------===//
//
// Every Var alive when a loop or branch starts is carried through it: an
// iter_arg of the scf.for (yielded with its value at the end of the body),
// of the scf.while (passed by its condition region to its body), or a
// result of the scf.if (yielded by both branches). Vars the body does not
// assign come out unchanged, and the canonicaliser drops their iter_args
// and results. return_if puts the rest of its body in the else branch of
// an scf.if on a scalar, so that every thread of a program leaves together;
// inside loops and branches the exit is carried out of them as a flag
// (EarlyExit.cpp).
//
//===----------------------------------------------------------------------===//

#include "EarlyExit.h"
#include "Trace.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace ktc {

using detail::Access;
using detail::TraceImpl;
using detail::typeStr;

namespace {
/// Restores the insertion point and the carried Vars' values if the body
/// throws, so that the trace stays consistent while the error propagates.
struct CarriedVars {
  explicit CarriedVars(TraceImpl &t) : t(t), vars(t.vars) {
    for (Var *v : vars)
      initial.push_back(v->get());
  }
  SmallVector<mlir::Value> values(Loc loc) const {
    SmallVector<mlir::Value> out;
    for (Var *v : vars)
      out.push_back(t.use(v->get(), loc));
    return out;
  }
  SmallVector<Type> types() const {
    SmallVector<Type> out;
    for (const Value &v : initial)
      out.push_back(Access::raw(v).getType());
    return out;
  }
  void set(ValueRange values) {
    for (auto [var, value] : llvm::zip(vars, values))
      Access::set(*var, t.wrap(value));
  }
  void reset() {
    for (auto [var, value] : llvm::zip(vars, initial))
      Access::set(*var, value);
  }

  TraceImpl &t;
  std::vector<Var *> vars;
  std::vector<Value> initial;
};

/// OpBuilder::InsertionGuard that a construct with an early exit releases:
/// the code after it goes into the exit's else branch instead.
struct InsertionGuard {
  explicit InsertionGuard(OpBuilder &b) : b(b), ip(b.saveInsertionPoint()) {}
  ~InsertionGuard() {
    if (active)
      b.restoreInsertionPoint(ip);
  }
  void release() { active = false; }
  OpBuilder &b;
  OpBuilder::InsertPoint ip;
  bool active = true;
};

/// Calls `body`, checks that it left the Vars it saw alive, and closes the
/// exits it opened. Returns their i1 "a return_if was taken" flag, or null
/// when the body has no return_if.
mlir::Value runBody(TraceImpl &t, const CarriedVars &carried,
                    const std::function<void()> &body, Loc loc) {
  size_t depth = t.exits.size();
  try {
    body();
  } catch (...) {
    dropExits(t, depth);
    throw;
  }
  for (Var *v : carried.vars)
    if (!llvm::is_contained(t.vars, v))
      t.fail(loc, "a ktc::Var declared outside a loop or branch was "
                  "destroyed inside it");
  return closeExits(t, depth, t.loc(loc));
}
} // namespace

/// A scalar integer loop bound.
static mlir::Value bound(TraceImpl &t, const Operand &op, Type like,
                         const char *what, Loc loc) {
  mlir::Value v = t.resolve(op, like, loc);
  Type type = v.getType();
  if (isa<RankedTensorType>(type) || !isa<IntegerType>(type) ||
      type.isInteger(1))
    t.fail(loc, std::string("for_range ") + what +
                    " must be a scalar i32 or i64, got " + typeStr(type));
  return v;
}

/// How many times `range(lb, ub, st)` runs, as Python counts it, for any
/// step: none for a zero step or an empty range, and never an overflow (the
/// spans are taken as unsigned, where ub - lb of two signed values of the
/// loop's type always fits). Folds to a constant when the bounds are.
static mlir::Value tripCount(OpBuilder &b, Location l, mlir::Value lb,
                             mlir::Value ub, mlir::Value st) {
  Type type = lb.getType();
  auto constant = [&](int64_t v) -> mlir::Value {
    return arith::ConstantOp::create(b, l, b.getIntegerAttr(type, v));
  };
  using P = arith::CmpIPredicate;
  auto cmp = [&](P p, mlir::Value x, mlir::Value y) -> mlir::Value {
    return arith::CmpIOp::create(b, l, p, x, y);
  };
  mlir::Value zero = constant(0), one = constant(1);
  // num_programs (a persistent kernel's stride) is at least 1.
  mlir::Value up = st.getDefiningOp<mlir::ktc::NumProgramsOp>()
                       ? arith::ConstantOp::create(b, l, b.getBoolAttr(true))
                       : cmp(P::sgt, st, zero);
  mlir::Value has = arith::OrIOp::create(
      b, l, arith::AndIOp::create(b, l, up, cmp(P::slt, lb, ub)),
      arith::AndIOp::create(b, l, cmp(P::slt, st, zero), cmp(P::slt, ub, lb)));
  mlir::Value span = arith::SelectOp::create(
      b, l, up, arith::SubIOp::create(b, l, ub, lb),
      arith::SubIOp::create(b, l, lb, ub));
  // |step| as unsigned (|INT_MIN| too); 1 for a zero step, whose quotient
  // is not used, so that the division never traps.
  mlir::Value magnitude = arith::SelectOp::create(
      b, l, up, st, arith::SubIOp::create(b, l, zero, st));
  magnitude = arith::SelectOp::create(b, l, cmp(P::eq, st, zero), one,
                                      magnitude);
  mlir::Value q = arith::DivUIOp::create(
      b, l, arith::SubIOp::create(b, l, span, one), magnitude);
  return arith::SelectOp::create(b, l, has, arith::AddIOp::create(b, l, q, one),
                                 zero);
}

void for_range(const Operand &start, const Operand &end, const Operand &step,
               const std::function<void(Value)> &body, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  if (step.kind() == Operand::Kind::Int && step.int_value() == 0)
    t.fail(loc, "for_range step must not be zero");
  // Bounds share one type: i64 if any bound is i64, else i32.
  Type i32 = t.b.getI32Type(), i64 = t.b.getI64Type();
  Type type = i32;
  for (const Operand *op : {&start, &end, &step})
    if (op->kind() == Operand::Kind::Value) {
      Type ty = t.use(op->value(), loc).getType();
      if (ty == i64)
        type = i64;
    } else if (op->kind() == Operand::Kind::Int &&
               (op->int_value() > INT32_MAX || op->int_value() < INT32_MIN)) {
      type = i64;
    }
  mlir::Value lb = t.castTo(bound(t, start, type, "start", loc), type, loc);
  mlir::Value ub = t.castTo(bound(t, end, type, "end", loc), type, loc);
  mlir::Value st = t.castTo(bound(t, step, type, "step", loc), type, loc);

  // Python's range for every step, whatever its sign (scf.for needs a
  // positive one) and however close the bounds are to the type's limits
  // (i += step would wrap and never end): the loop counts k from 0 to the
  // trip count, unsigned (it can reach 2^N - 1), and the body sees
  // start + k * step in wrapping arithmetic, which is exact: every value
  // the range yields lies between start and end, so it fits the type.
  CarriedVars carried(t);
  Location l = t.loc(loc);
  mlir::Value trips = tripCount(t.b, l, lb, ub, st);
  auto forOp = scf::ForOp::create(
      t.b, l, arith::ConstantOp::create(t.b, l, t.b.getIntegerAttr(type, 0)),
      trips, arith::ConstantOp::create(t.b, l, t.b.getIntegerAttr(type, 1)),
      carried.values(loc), nullptr, /*unsignedCmp=*/true);
  InsertionGuard guard(t.b);
  Block *bodyBlock = forOp.getBody();
  // Without iter_args the builder adds an empty scf.yield; we add our own.
  if (!bodyBlock->empty())
    bodyBlock->getTerminator()->erase();
  t.b.setInsertionPointToEnd(bodyBlock);
  carried.set(forOp.getRegionIterArgs());
  mlir::Value iv = arith::AddIOp::create(
      t.b, l, lb, arith::MulIOp::create(t.b, l, forOp.getInductionVar(), st));
  mlir::Value left;
  try {
    left = runBody(t, carried, [&] { body(t.wrap(iv)); }, loc);
  } catch (...) {
    carried.reset();
    throw;
  }
  scf::YieldOp::create(t.b, l, carried.values(loc));
  if (!left) {
    carried.set(forOp.getResults());
    return;
  }
  forOp = addExitFlag(t, forOp, left, l);
  carried.set(forOp.getResults().drop_back());
  t.b.setInsertionPointAfter(forOp);
  openExit(t, forOp.getResults().back(), l);
  guard.release();
}

void if_(const Operand &cond, const std::function<void()> &then,
         const std::function<void()> &otherwise, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  if (cond.kind() == Operand::Kind::Bool) { // a C++ bool: decided now
    if (cond.int_value())
      then();
    else if (otherwise)
      otherwise();
    return;
  }
  mlir::Value c = t.resolve(cond, t.b.getI1Type(), loc);
  if (c.getType() != t.b.getI1Type())
    t.fail(loc, "if_ needs a scalar boolean (i1) condition, got " +
                    typeStr(c.getType()) +
                    (isa<RankedTensorType>(c.getType())
                         ? "; use where() to choose per element"
                         : ""));
  CarriedVars carried(t);
  Location l = t.loc(loc);
  auto ifOp = scf::IfOp::create(t.b, l, carried.types(), c,
                                /*withElseRegion=*/true);
  InsertionGuard guard(t.b);
  // Without results (no Var alive) the builder ends both blocks with an
  // empty scf.yield; we add our own after the body.
  for (Block *block : {ifOp.thenBlock(), ifOp.elseBlock()})
    if (!block->empty())
      block->getTerminator()->erase();
  mlir::Value thenLeft, elseLeft;
  try {
    t.b.setInsertionPointToEnd(ifOp.thenBlock());
    thenLeft = runBody(t, carried, then, loc);
    scf::YieldOp::create(t.b, l, carried.values(loc));
    carried.reset();
    t.b.setInsertionPointToEnd(ifOp.elseBlock());
    if (otherwise)
      elseLeft = runBody(t, carried, otherwise, loc);
    scf::YieldOp::create(t.b, l, carried.values(loc));
  } catch (...) {
    carried.reset();
    throw;
  }
  if (!thenLeft && !elseLeft) {
    carried.set(ifOp.getResults());
    return;
  }
  ifOp = addExitFlag(t, ifOp, thenLeft, elseLeft, l);
  carried.set(ifOp.getResults().drop_back());
  t.b.setInsertionPointAfter(ifOp);
  openExit(t, ifOp.getResults().back(), l);
  guard.release();
}

/// A scalar i1 condition, or an error at `loc` naming `what`.
static mlir::Value scalarCondition(TraceImpl &t, const Operand &cond,
                                   const std::string &what, Loc loc) {
  mlir::Value c = t.resolve(cond, t.b.getI1Type(), loc);
  if (c.getType() != t.b.getI1Type())
    t.fail(loc, what + " needs a scalar boolean (i1) condition, got " +
                    typeStr(c.getType()) +
                    (isa<RankedTensorType>(c.getType())
                         ? "; a block's elements may differ, so reduce it "
                           "first (e.g. max(x) > 0)"
                         : ""));
  return c;
}

void while_(const std::function<Value()> &cond,
            const std::function<void()> &body, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  CarriedVars carried(t);
  Location l = t.loc(loc);
  SmallVector<Type> types = carried.types();
  auto whileOp = scf::WhileOp::create(t.b, l, types, carried.values(loc));
  InsertionGuard guard(t.b);
  SmallVector<Location> locs(types.size(), l);
  Block *before = t.b.createBlock(&whileOp.getBefore(), {}, types, locs);
  Block *after = t.b.createBlock(&whileOp.getAfter(), {}, types, locs);
  mlir::Value left;
  try {
    // The condition sees the Vars as they enter each iteration; what it
    // assigns is what the body (or, on exit, the code after) sees.
    t.b.setInsertionPointToEnd(before);
    carried.set(before->getArguments());
    mlir::Value c;
    runBody(t, carried, [&] {
      c = scalarCondition(t, Operand(cond(), loc), "while_", loc);
    }, loc);
    scf::ConditionOp::create(t.b, l, c, carried.values(loc));
    t.b.setInsertionPointToEnd(after);
    carried.set(after->getArguments());
    left = runBody(t, carried, body, loc);
    scf::YieldOp::create(t.b, l, carried.values(loc));
  } catch (...) {
    carried.reset();
    throw;
  }
  if (!left) {
    carried.set(whileOp.getResults());
    return;
  }
  whileOp = addExitFlag(t, whileOp, left, l);
  carried.set(whileOp.getResults().drop_back());
  t.b.setInsertionPointAfter(whileOp);
  openExit(t, whileOp.getResults().back(), l);
  guard.release();
}

void return_if(const Operand &cond, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  if (cond.kind() == Operand::Kind::Bool && !cond.int_value())
    return; // a C++ false: nothing to leave
  mlir::Value c = scalarCondition(t, cond, "return_if", loc);
  // Loops and branches carry the exit out (EarlyExit.cpp); a combine
  // function's region cannot.
  for (Region *r = t.b.getInsertionBlock()->getParent();
       !isa<func::FuncOp>(r->getParentOp());
       r = r->getParentOp()->getParentRegion()) {
    Operation *op = r->getParentOp();
    if (!isa<scf::IfOp, scf::ForOp, scf::WhileOp>(op))
      t.fail(loc, "return_if cannot be called inside a combine function "
                  "(reduce, associative_scan): it leaves the whole program");
    if (auto w = dyn_cast<scf::WhileOp>(op); w && r == &w.getBefore())
      t.fail(loc, "return_if cannot be called in a while_ condition; call it "
                  "at the start of the body instead");
  }
  openExit(t, c, t.loc(loc));
}

void static_assert_(const Operand &cond, const std::string &message,
                    Loc loc) {
  std::optional<bool> known;
  if (cond.kind() == Operand::Kind::Bool || cond.kind() == Operand::Kind::Int)
    known = cond.int_value() != 0;
  else if (cond.kind() == Operand::Kind::Float)
    known = cond.float_value() != 0;
  if (!known) {
    TraceImpl &t = TraceImpl::current(loc);
    mlir::Value c = t.resolve(cond, t.b.getI1Type(), loc);
    APInt bits;
    if (!c.getType().isInteger(1) || !matchPattern(c, m_ConstantInt(&bits)))
      t.fail(loc, "static_assert_ needs a condition known when the kernel is "
                  "traced (a constexpr, a C++ value or a constant), got a "
                  "value computed at run time of type " +
                      typeStr(c.getType()));
    known = !bits.isZero();
  }
  if (!*known)
    throw Error("static assertion failed: " + message, loc);
}

} // namespace ktc
