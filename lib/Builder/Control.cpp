//===- Control.cpp - for_range and if_, carrying ktc::Vars -----------------===//
//
// Every Var alive when a loop or branch starts is carried through it: an
// iter_arg of the scf.for (yielded with its value at the end of the body) or
// a result of the scf.if (yielded by both branches). Vars the body does not
// assign come out unchanged, and the canonicaliser drops their iter_args
// and results.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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

/// Calls `body`, then checks that it left the Vars it saw alive.
void runBody(TraceImpl &t, const CarriedVars &carried,
             const std::function<void()> &body, Loc loc) {
  body();
  for (Var *v : carried.vars)
    if (!llvm::is_contained(t.vars, v))
      t.fail(loc, "a ktc::Var declared outside a loop or branch was "
                  "destroyed inside it");
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
  OpBuilder::InsertionGuard guard(t.b);
  Block *bodyBlock = forOp.getBody();
  // Without iter_args the builder adds an empty scf.yield; we add our own.
  if (!bodyBlock->empty())
    bodyBlock->getTerminator()->erase();
  t.b.setInsertionPointToEnd(bodyBlock);
  carried.set(forOp.getRegionIterArgs());
  mlir::Value iv = arith::AddIOp::create(
      t.b, l, lb, arith::MulIOp::create(t.b, l, forOp.getInductionVar(), st));
  try {
    runBody(t, carried, [&] { body(t.wrap(iv)); }, loc);
  } catch (...) {
    carried.reset();
    throw;
  }
  scf::YieldOp::create(t.b, l, carried.values(loc));
  carried.set(forOp.getResults());
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
  OpBuilder::InsertionGuard guard(t.b);
  // Without results (no Var alive) the builder ends both blocks with an
  // empty scf.yield; we add our own after the body.
  for (Block *block : {ifOp.thenBlock(), ifOp.elseBlock()})
    if (!block->empty())
      block->getTerminator()->erase();
  try {
    t.b.setInsertionPointToEnd(ifOp.thenBlock());
    runBody(t, carried, then, loc);
    scf::YieldOp::create(t.b, l, carried.values(loc));
    carried.reset();
    t.b.setInsertionPointToEnd(ifOp.elseBlock());
    if (otherwise)
      runBody(t, carried, otherwise, loc);
    scf::YieldOp::create(t.b, l, carried.values(loc));
  } catch (...) {
    carried.reset();
    throw;
  }
  carried.set(ifOp.getResults());
}

} // namespace ktc
