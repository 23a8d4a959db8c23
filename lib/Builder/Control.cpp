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

void for_range(const Operand &start, const Operand &end, const Operand &step,
               const std::function<void(Value)> &body, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  if (step.kind() == Operand::Kind::Int && step.int_value() <= 0)
    t.fail(loc, "for_range step must be positive, got " +
                    std::to_string(step.int_value()));
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

  CarriedVars carried(t);
  Location l = t.loc(loc);
  auto forOp = scf::ForOp::create(t.b, l, lb, ub, st, carried.values(loc));
  OpBuilder::InsertionGuard guard(t.b);
  Block *bodyBlock = forOp.getBody();
  // Without iter_args the builder adds an empty scf.yield; we add our own.
  if (!bodyBlock->empty())
    bodyBlock->getTerminator()->erase();
  t.b.setInsertionPointToEnd(bodyBlock);
  carried.set(forOp.getRegionIterArgs());
  try {
    runBody(t, carried, [&] { body(t.wrap(forOp.getInductionVar())); }, loc);
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
