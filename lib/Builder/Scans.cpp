//===- Scans.cpp - cumsum, cumprod and associative_scan --------------------===//
//
// A scan is one ktc.scan over one or more blocks of one shape; its combine
// region is traced here by calling the user's C++ function once with the
// region's scalar arguments (an earlier element of each block, then a later
// one). The function may use only those arguments and literals: the region
// is isolated from the kernel, so that every target can copy it wherever a
// combine is needed.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using mlir::ktc::PtrType;

namespace ktc {

using detail::Access;
using detail::TraceImpl;
using detail::typeStr;

namespace {

using CombineFn = std::function<SmallVector<mlir::Value>(ArrayRef<mlir::Value>)>;

/// Checks the operands of a scan named `what` (one shape, blocks of numbers,
/// `axis` in range) at `loc`.
void checkOperands(TraceImpl &t, const char *what, ArrayRef<mlir::Value> srcs,
                   int axis, Loc loc) {
  if (srcs.empty())
    t.fail(loc, std::string(what) + "() needs at least one block");
  auto first = dyn_cast<RankedTensorType>(srcs.front().getType());
  for (mlir::Value v : srcs) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type)
      t.fail(loc, std::string(what) + "() scans a block, got the scalar " +
                      typeStr(v.getType()));
    if (isa<PtrType>(type.getElementType()))
      t.fail(loc, std::string(what) + "() cannot scan pointers");
    if (type.getShape() != first.getShape())
      t.fail(loc, std::string(what) + "() scans blocks of one shape, got " +
                      typeStr(first) + " and " + typeStr(type));
  }
  if (axis < 0 || axis >= first.getRank())
    t.fail(loc, std::string(what) + "() axis " + std::to_string(axis) +
                    " is out of range for a rank-" +
                    std::to_string(first.getRank()) + " block");
}

/// A ktc.scan of `srcs` whose region `combine` fills (it returns the
/// region's results). On an error the half-built scan is erased and the
/// trace's insertion point and Vars are as before.
SmallVector<mlir::Value> buildScan(TraceImpl &t, const char *what,
                                   ArrayRef<mlir::Value> srcs, int axis,
                                   bool reverse, const CombineFn &combine,
                                   Loc loc) {
  checkOperands(t, what, srcs, axis, loc);
  auto scan = mlir::ktc::ScanOp::create(t.b, t.loc(loc), srcs, axis, reverse);
  Block &block = scan.getCombineBlock();
  std::vector<Value> before;
  for (Var *v : t.vars)
    before.push_back(v->get());
  auto restoreVars = [&] {
    for (auto [var, value] : llvm::zip(t.vars, before))
      Access::set(*var, value);
  };
  {
    OpBuilder::InsertionGuard guard(t.b);
    t.b.setInsertionPointToEnd(&block);
    try {
      SmallVector<mlir::Value> results = combine(
          SmallVector<mlir::Value>(block.getArguments().begin(),
                                   block.getArguments().end()));
      for (auto [var, value] : llvm::zip(t.vars, before))
        if (Access::raw(var->get()) != Access::raw(value))
          t.fail(loc, std::string(what) +
                          "(): the combine function assigned a ktc::Var "
                          "declared outside it; it must return its result");
      if (results.size() != srcs.size())
        t.fail(loc, std::string(what) + "(): the combine function returned " +
                        std::to_string(results.size()) + " values for " +
                        std::to_string(srcs.size()) + " blocks");
      for (auto [i, r] : llvm::enumerate(results)) {
        Type want = getElementTypeOrSelf(srcs[i].getType());
        if (r.getType() != want)
          t.fail(loc, std::string(what) + "(): the combine function must "
                          "return " + typeStr(want) +
                          (srcs.size() > 1 ? " for block " + std::to_string(i)
                                           : std::string()) +
                          " (a scalar of the element type), got " +
                          typeStr(r.getType()));
      }
      // Values from outside the combine (a captured ktc::Value).
      scan.getCombine().walk([&](Operation *op) {
        for (mlir::Value v : op->getOperands())
          if (!scan.getCombine().isAncestor(v.getParentRegion()))
            t.fail(loc, std::string(what) +
                            "(): the combine function may use only its "
                            "arguments and literals, not a value of the "
                            "kernel (" + typeStr(v.getType()) + ")");
      });
      for (mlir::Value r : results)
        if (!scan.getCombine().isAncestor(r.getParentRegion()))
          t.fail(loc, std::string(what) +
                          "(): the combine function may use only its "
                          "arguments and literals, not a value of the "
                          "kernel (" + typeStr(r.getType()) + ")");
      mlir::ktc::ScanReturnOp::create(t.b, t.loc(loc), results);
    } catch (...) {
      restoreVars();
      scan.erase();
      throw;
    }
  }
  return SmallVector<mlir::Value>(scan.getResults());
}

/// cumsum and cumprod: i1 in i32, f16/bf16 in f32 (rounded once per
/// element after the scan).
Value arithmeticScan(const char *what, bool product, const Operand &x,
                     int axis, bool reverse, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value v = t.resolve(x, {}, loc);
  checkOperands(t, what, {v}, axis, loc);
  Type element = getElementTypeOrSelf(v.getType());
  Type compute = element;
  if (element.isInteger(1))
    compute = t.b.getI32Type();
  else if (element.isF16() || element.isBF16())
    compute = t.b.getF32Type();
  v = t.castTo(v, compute, loc);
  Location l = t.loc(loc);
  bool isFloat = isa<FloatType>(compute);
  mlir::Value r = buildScan(
      t, what, {v}, axis, reverse,
      [&](ArrayRef<mlir::Value> args) -> SmallVector<mlir::Value> {
        mlir::Value a = args[0], b = args[1];
        if (product)
          return {isFloat ? arith::MulFOp::create(t.b, l, a, b).getResult()
                          : arith::MulIOp::create(t.b, l, a, b).getResult()};
        return {isFloat ? arith::AddFOp::create(t.b, l, a, b).getResult()
                        : arith::AddIOp::create(t.b, l, a, b).getResult()};
      },
      loc)[0];
  if (isFloat && compute != element)
    r = t.castTo(r, element, loc);
  return t.wrap(r);
}

} // namespace

Value cumsum(const Operand &x, int axis, bool reverse, Loc loc) {
  return arithmeticScan("cumsum", /*product=*/false, x, axis, reverse, loc);
}

Value cumprod(const Operand &x, int axis, bool reverse, Loc loc) {
  return arithmeticScan("cumprod", /*product=*/true, x, axis, reverse, loc);
}

Value associative_scan(const Operand &x, int axis,
                       const std::function<Value(Value, Value)> &combine,
                       bool reverse, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  if (!combine)
    t.fail(loc, "associative_scan() needs a combine function");
  mlir::Value v = t.resolve(x, {}, loc);
  return t.wrap(buildScan(
      t, "associative_scan", {v}, axis, reverse,
      [&](ArrayRef<mlir::Value> args) -> SmallVector<mlir::Value> {
        Value r = combine(t.wrap(args[0]), t.wrap(args[1]));
        return {t.use(r, loc)};
      },
      loc)[0]);
}

std::vector<Value> associative_scan(
    const std::vector<Value> &xs, int axis,
    const std::function<std::vector<Value>(const std::vector<Value> &,
                                           const std::vector<Value> &)>
        &combine,
    bool reverse, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  if (!combine)
    t.fail(loc, "associative_scan() needs a combine function");
  SmallVector<mlir::Value> srcs;
  for (const Value &x : xs)
    srcs.push_back(t.use(x, loc));
  size_t n = srcs.size();
  SmallVector<mlir::Value> results = buildScan(
      t, "associative_scan", srcs, axis, reverse,
      [&](ArrayRef<mlir::Value> args) -> SmallVector<mlir::Value> {
        std::vector<Value> a, b;
        for (size_t i = 0; i < n; ++i) {
          a.push_back(t.wrap(args[i]));
          b.push_back(t.wrap(args[n + i]));
        }
        SmallVector<mlir::Value> out;
        for (const Value &r : combine(a, b))
          out.push_back(t.use(r, loc));
        return out;
      },
      loc);
  std::vector<Value> out;
  for (mlir::Value r : results)
    out.push_back(t.wrap(r));
  return out;
}

} // namespace ktc
