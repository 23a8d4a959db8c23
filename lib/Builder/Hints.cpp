//===- Hints.cpp - multiple_of, max_contiguous, cache hints ---------------===//
//
// Triton's tl.multiple_of / tl.max_contiguous / tl.max_constancy become the
// discardable attributes ktc.multiple_of / ktc.max_contiguous /
// ktc.max_constancy on the op defining the
// value (a scalar kernel argument's multiple_of its ktc.divisibility), which
// the axis analysis takes as divisibility and contiguity. The cache hints
// of load and store become the ops' cache_modifier / eviction_policy. Bad
// values are errors at the user's line.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace ktc {

using detail::TraceImpl;
using detail::typeStr;

namespace {

std::string list(const std::vector<int64_t> &values) {
  std::string s;
  for (size_t i = 0; i < values.size(); ++i)
    s += (i ? ", " : "") + std::to_string(values[i]);
  return values.size() == 1 ? s : "{" + s + "}";
}

Value hint(const char *what, StringRef attrName, const Operand &x,
           const std::vector<int64_t> &values, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  std::string call = std::string(what) + "(x, " + list(values) + ")";
  if (x.kind() != Operand::Kind::Value)
    t.fail(loc, call + " needs a kernel value, not a literal");
  mlir::Value v = t.use(x.value(), x.loc());
  Type element = getElementTypeOrSelf(v.getType());
  if (!isa<mlir::ktc::PtrType>(element) && !element.isInteger(32) &&
      !element.isInteger(64))
    t.fail(loc, call + " needs i32, i64 or pointer values, got " +
                    typeStr(v.getType()));
  size_t rank = std::max<size_t>(1, mlir::ktc::getShapeOrScalar(v.getType())
                                        .size());
  if (values.size() != rank)
    t.fail(loc, call + ": " + std::to_string(values.size()) +
                    " value(s) for " + typeStr(v.getType()) +
                    "; give one per dimension (" + std::to_string(rank) +
                    ")");
  for (int64_t n : values)
    if (n <= 0 || (n & (n - 1)) != 0)
      t.fail(loc, call + ": " + std::to_string(n) +
                      " is not a positive power of two");
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    // A kernel's scalar argument: multiple_of is its divisibility (what
    // the launcher's specialisation would have found); max_contiguous of
    // a scalar says nothing.
    Operation *owner = arg.getOwner()->getParentOp();
    if (owner != t.func.getOperation())
      t.fail(loc, call + " of a loop's or branch's block argument; hint the "
                          "value computed from it instead");
    if (attrName == mlir::ktc::KtcDialect::getMultipleOfAttrName()) {
      StringRef name = mlir::ktc::KtcDialect::getDivisibilityAttrName();
      int64_t old = 1;
      if (auto a = t.func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                         name))
        old = a.getInt();
      t.func.setArgAttr(arg.getArgNumber(), name,
                        t.b.getI32IntegerAttr(int32_t(std::min<int64_t>(
                            std::max(old, values[0]), int64_t(1) << 30))));
    }
    return x.value();
  }
  Operation *def = v.getDefiningOp();
  if (def->getNumResults() != 1)
    t.fail(loc, call + " of one of several results; hint a value of its own");
  std::vector<int64_t> merged = values;
  if (auto old = def->getAttrOfType<DenseI64ArrayAttr>(attrName))
    for (size_t i = 0; i < merged.size() && i < size_t(old.size()); ++i)
      merged[i] = std::max(merged[i], old[i]);
  def->setAttr(attrName, t.b.getDenseI64ArrayAttr(merged));
  return x.value();
}

void checkHints(TraceImpl &t, const char *what, const CacheHints &hints,
                const std::vector<std::string> &modifiers, Loc loc) {
  const std::string &c = hints.cache_modifier, &e = hints.eviction_policy;
  if (!c.empty() &&
      std::find(modifiers.begin(), modifiers.end(), c) == modifiers.end()) {
    std::string expected;
    for (size_t i = 0; i < modifiers.size(); ++i)
      expected += (i ? ", " : "") + modifiers[i];
    t.fail(loc, std::string(what) + ": unknown cache_modifier '" + c +
                    "' (expected " + expected + ")");
  }
  if (!e.empty() && e != "evict_first" && e != "evict_last")
    t.fail(loc, std::string(what) + ": unknown eviction_policy '" + e +
                    "' (expected evict_first or evict_last)");
  if (!c.empty() && !e.empty())
    t.fail(loc, std::string(what) +
                    ": give a cache_modifier or an eviction_policy, not both "
                    "(PTX's ld and st take one or the other)");
}

template <typename Op> void setHints(TraceImpl &t, Op op, const CacheHints &h) {
  if (!h.cache_modifier.empty())
    op.setCacheModifierAttr(t.b.getStringAttr(h.cache_modifier));
  if (!h.eviction_policy.empty())
    op.setEvictionPolicyAttr(t.b.getStringAttr(h.eviction_policy));
}

} // namespace

Value multiple_of(const Operand &x, const std::vector<int64_t> &values,
                  Loc loc) {
  return hint("multiple_of", mlir::ktc::KtcDialect::getMultipleOfAttrName(),
              x, values, loc);
}
Value multiple_of(const Operand &x, int64_t value, Loc loc) {
  return multiple_of(x, std::vector<int64_t>{value}, loc);
}
Value max_contiguous(const Operand &x, const std::vector<int64_t> &values,
                     Loc loc) {
  return hint("max_contiguous",
              mlir::ktc::KtcDialect::getMaxContiguousAttrName(), x, values,
              loc);
}
Value max_contiguous(const Operand &x, int64_t value, Loc loc) {
  return max_contiguous(x, std::vector<int64_t>{value}, loc);
}

// Triton's tl.max_constancy (issue 19): the attribute ktc.max_constancy,
// named here and in AxisInfo.cpp and KtcDialect.cpp (no ODS name: the .td
// files stay as they are).
Value max_constancy(const Operand &x, const std::vector<int64_t> &values,
                    Loc loc) {
  return hint("max_constancy", "ktc.max_constancy", x, values, loc);
}
Value max_constancy(const Operand &x, int64_t value, Loc loc) {
  return max_constancy(x, std::vector<int64_t>{value}, loc);
}

Value load(const Operand &ptr, const Operand &mask, const Operand &other,
           const CacheHints &hints, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  checkHints(t, "load", hints, {".ca", ".cg", ".cv"}, loc);
  Value v = load(ptr, mask, other, loc);
  setHints(t,
           cast<mlir::ktc::LoadOp>(
               detail::Access::raw(v).getDefiningOp()),
           hints);
  return v;
}

void store(const Operand &ptr, const Operand &value, const Operand &mask,
           const CacheHints &hints, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  checkHints(t, "store", hints, {".wb", ".cg", ".cs", ".wt"}, loc);
  store(ptr, value, mask, loc);
  // The store just built, before the insertion point.
  setHints(t, cast<mlir::ktc::StoreOp>(&*std::prev(t.b.getInsertionPoint())),
           hints);
}

} // namespace ktc
