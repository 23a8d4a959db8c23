//===- Standard.cpp - histogram, gather, softmax --------------------------===//
//
// Triton's tl.histogram, tl.gather and tl.softmax written with the
// builder's own operations (sort is in Sort.cpp). histogram and gather are
// one-hot compares against an arange, reduced along the compared
// dimension: a count (sum of i32) for histogram, the one selected element
// (xor_sum of its bits, all others zero) for gather, so the bits are exact
// on every target. softmax is Triton's standard.py: exp(x - max) / sum.
//
//===----------------------------------------------------------------------===//

#include "ktc/Standard.h"
#include "ktc/Ops.h"

#include "Trace.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace ktc {

using detail::TraceImpl;
using detail::typeStr;

namespace {

std::string shapeStr(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

DType intOfWidth(unsigned width) {
  return width <= 8    ? DType::i8
         : width == 16 ? DType::i16
         : width == 32 ? DType::i32
                       : DType::i64;
}

/// x's bits as a signed integer block (booleans as i8), and back.
Value toBits(const Value &x, DType type, std::source_location loc) {
  if (is_float(type))
    return bitcast(x, intOfWidth(bit_width(type)), loc);
  if (type == DType::i1 || is_unsigned(type))
    return cast(x, intOfWidth(bit_width(type)), loc);
  return x;
}
Value fromBits(const Value &bits, DType type, std::source_location loc) {
  if (is_float(type))
    return bitcast(bits, type, loc);
  if (type == DType::i1)
    return Operand(bits, loc) != Operand(0, loc);
  if (is_unsigned(type))
    return cast(bits, type, loc);
  return bits;
}

/// A block operand (not of pointers) of `what`.
mlir::Value block(TraceImpl &t, const Operand &x, const std::string &what,
                  const char *name, std::source_location loc) {
  mlir::Value v = t.resolve(x, {}, loc);
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type)
    t.fail(loc,
           what + "() needs a block " + name + ", got " + typeStr(v.getType()));
  if (isa<mlir::ktc::PtrType>(type.getElementType()))
    t.fail(loc, what + "() of a block of pointers; use the offsets instead");
  return v;
}

/// The one-hot compares of histogram and gather form one block: at most
/// a block's size (TraceImpl::checkBlockShape's limit).
constexpr int64_t kMaxPairs = int64_t(1) << 20;

bool isInteger(Type type) {
  Type e = getElementTypeOrSelf(type);
  return isa<IntegerType>(e) && !e.isInteger(1);
}

} // namespace

Value histogram(const Operand &x, int64_t num_bins, const Operand &mask,
                Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value v = block(t, x, "histogram", "x", loc);
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getRank() != 1 || !isInteger(type))
    t.fail(loc, "histogram() needs a 1-D block of integers, got " +
                    typeStr(type) +
                    (isInteger(type) ? "; reshape() it to 1-D first"
                                     : "; cast() it to an integer first"));
  if (num_bins <= 0 || (num_bins & (num_bins - 1)) != 0)
    t.fail(loc, "histogram() num_bins must be a positive power of two, got " +
                    std::to_string(num_bins));
  int64_t n = type.getDimSize(0);
  if (n * num_bins > kMaxPairs)
    t.fail(loc, "histogram() of " + std::to_string(n) + " elements into " +
                    std::to_string(num_bins) + " bins compares " +
                    std::to_string(n * num_bins) +
                    " pairs, more than a block's limit of 1048576 (2^20); "
                    "count smaller blocks and add the counts");
  auto o = [&](const Value &w) { return Operand(w, loc); };
  Value in = t.wrap(v);
  Value bins = expand_dims(arange(0, num_bins, loc), 1, loc);
  Value hit = o(expand_dims(in, 0, loc)) == o(bins); // [num_bins, n]
  if (mask.present()) {
    mlir::Value m = t.resolve(mask, t.b.getI1Type(), loc);
    auto mtype = dyn_cast<RankedTensorType>(m.getType());
    if (!getElementTypeOrSelf(m.getType()).isInteger(1) ||
        (mtype && mtype.getShape() != type.getShape()))
      t.fail(loc, "histogram() mask must be booleans (i1) of x's shape " +
                      shapeStr({n}) + ", got " + typeStr(m.getType()));
    Value mk = t.wrap(m);
    if (mtype)
      mk = expand_dims(mk, 0, loc);
    hit = o(hit) & o(mk);
  }
  return sum(cast(hit, DType::i32, loc), 1, false, loc);
}

Value gather(const Operand &src, const Operand &index, int axis, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value s = block(t, src, "gather", "src", loc);
  mlir::Value ix = block(t, index, "gather", "index", loc);
  auto stype = cast<RankedTensorType>(s.getType());
  auto itype = cast<RankedTensorType>(ix.getType());
  if (!isInteger(itype))
    t.fail(loc, "gather() index must be integers, got " + typeStr(itype));
  int rank = int(stype.getRank());
  std::vector<int64_t> sshape(stype.getShape().begin(), stype.getShape().end());
  std::vector<int64_t> ishape(itype.getShape().begin(), itype.getShape().end());
  if (axis < -rank || axis >= rank)
    t.fail(loc, "gather() axis " + std::to_string(axis) +
                    " is out of range for a block of rank " +
                    std::to_string(rank));
  if (axis < 0)
    axis += rank;
  bool match = itype.getRank() == rank;
  for (int i = 0; match && i < rank; ++i)
    match = i == axis || ishape[i] == sshape[i];
  if (!match)
    t.fail(loc, "gather() index of shape " + shapeStr(ishape) +
                    " does not fit src of shape " + shapeStr(sshape) +
                    " along axis " + std::to_string(axis) +
                    ": the same rank, and the same size on every other axis");
  DType element = t.dtypeOf(s);
  // The gathered axis last, the others flattened into rows.
  std::vector<int> order, inverse(rank);
  for (int i = 0; i < rank; ++i)
    if (i != axis)
      order.push_back(i);
  order.push_back(axis);
  for (int i = 0; i < rank; ++i)
    inverse[order[i]] = i;
  std::vector<int64_t> moved;
  for (int i : order)
    moved.push_back(ishape[i]);
  Value sv = t.wrap(s), iv = t.wrap(ix);
  if (axis != rank - 1) {
    sv = permute(sv, order, loc);
    iv = permute(iv, order, loc);
  }
  int64_t k = sshape[axis], m = ishape[axis];
  int64_t rows = stype.getNumElements() / k;
  if (rows * m * k > kMaxPairs)
    t.fail(loc, "gather() of " + std::to_string(rows * m) + " elements from " +
                    std::to_string(k) + " along the axis compares " +
                    std::to_string(rows * m * k) +
                    " pairs, more than a block's limit of 1048576 (2^20); "
                    "gather in smaller blocks");
  auto o = [&](const Value &w) { return Operand(w, loc); };
  Value bits = reshape(toBits(sv, element, loc), {rows, 1, k}, loc);
  Value at = reshape(iv, {rows, m, 1}, loc);
  Value hit = o(at) == o(reshape(arange(0, k, loc), {1, 1, k}, loc));
  Value picked = xor_sum(where(o(hit), o(bits), Operand(0, loc), loc), 2, false,
                         loc); // [rows, m]
  Value out = fromBits(reshape(picked, moved, loc), element, loc);
  if (axis != rank - 1)
    out = permute(out, inverse, loc);
  return out;
}

Value softmax(const Operand &x, std::optional<int> dim, bool ieee_rounding,
              Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value v = block(t, x, "softmax", "x", loc);
  auto type = cast<RankedTensorType>(v.getType());
  if (!isa<FloatType>(type.getElementType()))
    t.fail(loc, "softmax() needs floats, got " + typeStr(type) +
                    "; cast() integers first");
  int rank = int(type.getRank());
  int d = dim.value_or(0);
  if (d < -rank || d >= rank)
    t.fail(loc, "softmax() dimension " + std::to_string(d) +
                    " is out of range for a block of rank " +
                    std::to_string(rank));
  if (d < 0)
    d += rank;
  auto o = [&](const Value &w) { return Operand(w, loc); };
  Value in = t.wrap(v);
  Value z = o(in) - o(max(in, d, /*keep_dims=*/true, loc));
  Value num = exp(z, loc);
  Value den = sum(num, d, /*keep_dims=*/true, loc);
  Value r = ieee_rounding ? div_rn(num, den, loc) : fdiv(num, den, loc);
  return r.dtype() == in.dtype() ? r : cast(r, in.dtype(), loc);
}

} // namespace ktc
