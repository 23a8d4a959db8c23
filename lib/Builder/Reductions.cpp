//===- Reductions.cpp - sum/max/min, argmax/argmin, xor_sum, reduce -------===//
//
// Every reduction takes an axis or all of them (`all_axes`) and keep_dims.
// sum, max and min are ktc.reduce; the others are ktc.reduce_with, whose
// combine region is traced by calling the C++ combine once with the
// region's arguments (traceCombine). All axes reduce one axis after the
// other, last first: the combines are associative and commutative, so
// this is one order among those a single reduction may take (a sum of
// f16/bf16 accumulates in f32 throughout and rounds once at the end).
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

/// The block `x` as an mlir::Value, checked for reduction `what`.
mlir::Value reducible(TraceImpl &t, const Operand &x, const char *what,
                      Loc loc) {
  mlir::Value v = t.resolve(x, {}, loc);
  auto tensor = dyn_cast<RankedTensorType>(v.getType());
  if (!tensor)
    t.fail(loc, std::string(what) + "() reduces a block, got the scalar " +
                    typeStr(v.getType()));
  if (isa<PtrType>(tensor.getElementType()))
    t.fail(loc, std::string(what) + "() cannot reduce pointers");
  return v;
}

void checkAxis(TraceImpl &t, mlir::Value v, std::optional<int> axis,
               const char *what, Loc loc) {
  int64_t rank = cast<RankedTensorType>(v.getType()).getRank();
  if (axis && (*axis < 0 || *axis >= rank))
    t.fail(loc, std::string(what) + "() axis " + std::to_string(*axis) +
                    " is out of range for a rank-" + std::to_string(rank) +
                    " block");
}

using AlongAxis =
    std::function<SmallVector<mlir::Value>(ArrayRef<mlir::Value>, int)>;

/// Reduces `values` (blocks of one shape) along `axis`, or along every axis
/// from the last to the first, with `one` (a single axis); keep_dims puts
/// back the reduced axes as unit dimensions.
std::vector<Value> reduceAxes(TraceImpl &t, ArrayRef<mlir::Value> values,
                              std::optional<int> axis, bool keepDims,
                              const AlongAxis &one, Loc loc) {
  int rank = cast<RankedTensorType>(values.front().getType()).getRank();
  SmallVector<mlir::Value> current(values);
  if (axis) {
    current = one(current, *axis);
  } else {
    for (int a = rank - 1; a >= 0; --a)
      current = one(current, a);
  }
  std::vector<Value> out;
  for (mlir::Value v : current) {
    Value r = t.wrap(v);
    if (keepDims) {
      if (axis)
        r = expand_dims(r, *axis, loc);
      else
        for (int i = 0; i < rank; ++i)
          r = expand_dims(r, 0, loc);
    }
    out.push_back(r);
  }
  return out;
}

/// Traces `combine` into a new ktc.reduce_with of `srcs` along `axis`.
SmallVector<mlir::Value> traceCombine(TraceImpl &t, ArrayRef<mlir::Value> srcs,
                                      int axis, const CombineN &combine,
                                      const char *what, Loc loc) {
  Location l = t.loc(loc);
  SmallVector<Type> results, elements;
  for (mlir::Value v : srcs) {
    auto type = cast<RankedTensorType>(v.getType());
    results.push_back(mlir::ktc::ReduceWithOp::reducedType(type, axis));
    elements.push_back(type.getElementType());
  }
  auto op = mlir::ktc::ReduceWithOp::create(t.b, l, results, srcs, axis);
  Block *block = new Block();
  op.getCombine().push_back(block);
  for (int side = 0; side < 2; ++side)
    for (Type e : elements)
      block->addArgument(e, l);
  size_t n = srcs.size();
  std::vector<Value> a, b;
  for (size_t i = 0; i < n; ++i) {
    a.push_back(t.wrap(block->getArgument(i)));
    b.push_back(t.wrap(block->getArgument(n + i)));
  }
  std::vector<Value> before;
  for (Var *var : t.vars)
    before.push_back(var->get());
  auto failHere = [&](const std::string &message) {
    for (auto [var, value] : llvm::zip(t.vars, before))
      Access::set(*var, value);
    op.erase();
    t.fail(loc, std::string(what) + "(): " + message);
  };
  std::vector<Value> returned;
  {
    OpBuilder::InsertionGuard guard(t.b);
    t.b.setInsertionPointToEnd(block);
    try {
      returned = combine(a, b);
    } catch (...) {
      for (auto [var, value] : llvm::zip(t.vars, before))
        Access::set(*var, value);
      op.erase();
      throw;
    }
    for (auto [var, value] : llvm::zip(t.vars, before))
      if (Access::raw(var->get()) != Access::raw(value))
        failHere("the combine function assigns a ktc::Var declared outside "
                 "it; a combine computes only from its arguments");
    if (returned.size() != n)
      failHere("the combine function returns " +
               std::to_string(returned.size()) + " values for " +
               std::to_string(n) + " reduced blocks");
    SmallVector<mlir::Value> raw;
    for (auto [i, v] : llvm::enumerate(returned)) {
      mlir::Value r = t.use(v, loc);
      if (r.getType() != elements[i])
        failHere("the combine function must return " +
                 typeStr(elements[i]) + (n > 1 ? " for block " +
                                                     std::to_string(i)
                                               : std::string()) +
                 " (the block's element type), got " + typeStr(r.getType()));
      raw.push_back(r);
    }
    // Only scalars computed from the arguments: the region is isolated.
    for (mlir::Value r : raw)
      if (!op.getCombine().isAncestor(r.getParentRegion()))
        failHere("the combine function returns a value from outside it; "
                 "it may only compute from its arguments");
    for (Operation &inner : *block) {
      for (mlir::Value v : inner.getOperands())
        if (!op.getCombine().isAncestor(v.getParentRegion()))
          failHere("the combine function uses a value from outside it (" +
                   typeStr(v.getType()) +
                   "); it may only compute from its arguments");
      for (Type type : inner.getResultTypes())
        if (isa<RankedTensorType>(type))
          failHere("the combine function computes on scalars, but makes a "
                   "block (" + typeStr(type) + ")");
      if (inner.getNumRegions())
        failHere("the combine function cannot use for_range or if_; use "
                 "where()");
    }
    mlir::ktc::ReduceReturnOp::create(t.b, l, raw);
  }
  return SmallVector<mlir::Value>(op.getResults().begin(),
                                 op.getResults().end());
}

/// The blocks of `xs`, checked to be reducible and of one shape.
SmallVector<mlir::Value> reducibles(TraceImpl &t, const std::vector<Value> &xs,
                                    const char *what, Loc loc) {
  if (xs.empty())
    t.fail(loc, std::string(what) + "() needs at least one block");
  SmallVector<mlir::Value> vs;
  for (const Value &x : xs) {
    vs.push_back(reducible(t, x, what, loc));
    auto shape = cast<RankedTensorType>(vs.back().getType()).getShape();
    if (shape != cast<RankedTensorType>(vs.front().getType()).getShape())
      t.fail(loc, std::string(what) + "() reduces blocks of one shape, got " +
                      typeStr(vs.front().getType()) + " and " +
                      typeStr(vs.back().getType()));
  }
  return vs;
}

Value reduceKind(mlir::ktc::ReduceKind kind, const char *what,
                 const Operand &x, std::optional<int> axis, bool keepDims,
                 Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value v = reducible(t, x, what, loc);
  checkAxis(t, v, axis, what, loc);
  Type element = cast<RankedTensorType>(v.getType()).getElementType();
  bool sum = kind == mlir::ktc::ReduceKind::Sum;
  if (element.isInteger(1) && sum)
    v = t.castTo(v, t.b.getI32Type(), loc); // count the true elements
  bool isUnsigned = t.isUnsigned(v);
  // Sums of 8- and 16-bit integers are i32 or u32, as in Triton.
  if (sum && isa<IntegerType>(element) && !element.isInteger(1) &&
      element.getIntOrFloatBitWidth() < 32)
    v = t.castTo(v, isUnsigned ? DType::u32 : DType::i32, loc);
  // Unsigned max/min: the signed ones with the sign bit flipped there and
  // back (ktc.reduce's max and min are signed).
  Location l = t.loc(loc);
  auto flip = [&](mlir::Value x, bool toUnsigned) {
    Type e = getElementTypeOrSelf(x.getType());
    mlir::Value bit = t.broadcastTo(
        arith::ConstantOp::create(
            t.b, l,
            t.b.getIntegerAttr(e, APInt::getSignedMinValue(
                                      e.getIntOrFloatBitWidth()))),
        mlir::ktc::getShapeOrScalar(x.getType()), loc);
    return t.markUnsigned(arith::XOrIOp::create(t.b, l, x, bit), toUnsigned);
  };
  bool flipped = isUnsigned && !sum;
  if (flipped)
    v = flip(v, false);
  // All axes of a 16-bit float sum: f32 throughout, rounded once.
  bool widened = sum && !axis && isa<FloatType>(element) &&
                 !element.isF32() &&
                 cast<RankedTensorType>(v.getType()).getRank() > 1;
  if (widened)
    v = t.castTo(v, t.b.getF32Type(), loc);
  std::vector<Value> r = reduceAxes(
      t, v, axis, keepDims,
      [&](ArrayRef<mlir::Value> vs, int a) -> SmallVector<mlir::Value> {
        return {mlir::ktc::ReduceOp::create(t.b, t.loc(loc), kind, vs[0], a)
                    .getResult()};
      },
      loc);
  if (flipped)
    return t.wrap(flip(t.use(r[0], loc), true));
  return widened ? cast(r[0], detail::fromMlir(element), loc) : r[0];
}

/// Argmax's (greater) or argmin's combine of (value, index) pairs: the
/// first index among the largest (smallest) values; NaN beats numbers, and
/// NaNs tie. An order-independent choice, hence the same on every target.
std::vector<Value> argCombine(bool greater, const std::vector<Value> &a,
                              const std::vector<Value> &b, Loc loc) {
  Value va = a[0], vb = b[0];
  DType d = va.dtype();
  // Compare 16-bit floats in f32 and booleans in i32 (exact either way).
  if (d == DType::f16 || d == DType::bf16)
    va = cast(va, DType::f32, loc), vb = cast(vb, DType::f32, loc);
  else if (d == DType::i1)
    va = cast(va, DType::i32, loc), vb = cast(vb, DType::i32, loc);
  Value wins = greater ? va > vb : va < vb;
  Value ties = va == vb;
  if (is_float(d)) {
    Value nanA = va != va, nanB = vb != vb;
    wins = wins | (nanA & !nanB);
    ties = ties | (nanA & nanB);
  }
  Value take = wins | (ties & (a[1] < b[1]));
  return {where(take, a[0], b[0], loc), where(take, a[1], b[1], loc)};
}

Value argReduce(bool greater, const char *what, const Operand &x,
                std::optional<int> axis, bool keepDims, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value v = reducible(t, x, what, loc);
  checkAxis(t, v, axis, what, loc);
  auto type = cast<RankedTensorType>(v.getType());
  std::vector<int64_t> shape(type.getShape().begin(), type.getShape().end());
  int rank = shape.size();
  // Each element's index along the axis, or in row-major order.
  Value index;
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    if (axis && d != *axis)
      continue;
    Value along = arange(0, shape[d], loc);
    for (int e = 0; e < rank; ++e)
      if (e != d)
        along = expand_dims(along, e < d ? 0 : e, loc);
    if (stride != 1)
      along = along * int32_t(stride);
    stride *= shape[d];
    index = index.valid() ? index + along : along;
  }
  index = broadcast_to(index, shape, loc);
  mlir::Value raw = t.use(index, loc);
  auto combine = [&](const std::vector<Value> &a, const std::vector<Value> &b) {
    return argCombine(greater, a, b, loc);
  };
  std::vector<Value> r = reduceAxes(
      t, {v, raw}, axis, keepDims,
      [&](ArrayRef<mlir::Value> vs, int a) {
        return traceCombine(t, vs, a, combine, what, loc);
      },
      loc);
  // An index, signed whatever the values were.
  return t.wrap(t.markUnsigned(t.use(r[1], loc), false));
}

} // namespace

Value max(const Operand &x, std::optional<int> axis, bool keep_dims, Loc loc) {
  return reduceKind(mlir::ktc::ReduceKind::Max, "max", x, axis, keep_dims,
                    loc);
}
Value min(const Operand &x, std::optional<int> axis, bool keep_dims, Loc loc) {
  return reduceKind(mlir::ktc::ReduceKind::Min, "min", x, axis, keep_dims,
                    loc);
}
Value sum(const Operand &x, std::optional<int> axis, bool keep_dims, Loc loc) {
  return reduceKind(mlir::ktc::ReduceKind::Sum, "sum", x, axis, keep_dims,
                    loc);
}

Value argmax(const Operand &x, std::optional<int> axis, bool keep_dims,
             Loc loc) {
  return argReduce(true, "argmax", x, axis, keep_dims, loc);
}
Value argmin(const Operand &x, std::optional<int> axis, bool keep_dims,
             Loc loc) {
  return argReduce(false, "argmin", x, axis, keep_dims, loc);
}

Value xor_sum(const Operand &x, std::optional<int> axis, bool keep_dims,
              Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value v = reducible(t, x, "xor_sum", loc);
  Type element = cast<RankedTensorType>(v.getType()).getElementType();
  if (!isa<IntegerType>(element))
    t.fail(loc, "xor_sum() needs an integer block, got " +
                    typeStr(v.getType()));
  checkAxis(t, v, axis, "xor_sum", loc);
  return reduce(t.wrap(v), axis, [](Value a, Value b) { return a ^ b; },
                keep_dims, loc);
}

Value reduce(const Operand &x, std::optional<int> axis, const Combine &combine,
             bool keep_dims, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  if (!combine)
    t.fail(loc, "reduce() needs a combine function");
  mlir::Value v = reducible(t, x, "reduce", loc);
  std::vector<Value> r = reduce(
      std::vector<Value>{t.wrap(v)}, axis,
      [&](const std::vector<Value> &a, const std::vector<Value> &b) {
        return std::vector<Value>{combine(a[0], b[0])};
      },
      keep_dims, loc);
  return r[0];
}

std::vector<Value> reduce(const std::vector<Value> &xs,
                          std::optional<int> axis, const CombineN &combine,
                          bool keep_dims, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  if (!combine)
    t.fail(loc, "reduce() needs a combine function");
  SmallVector<mlir::Value> vs = reducibles(t, xs, "reduce", loc);
  checkAxis(t, vs.front(), axis, "reduce", loc);
  return reduceAxes(
      t, vs, axis, keep_dims,
      [&](ArrayRef<mlir::Value> values, int a) {
        return traceCombine(t, values, a, combine, "reduce", loc);
      },
      loc);
}

} // namespace ktc
