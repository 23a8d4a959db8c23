//===- Sort.cpp - sort: a bitonic network of ktc ops ---------------------===//
//
// Triton's tl.sort (triton/language/standard.py) written with the builder's
// own operations. Every element type becomes a signed integer key of its
// width whose order is the sort's (floats: IEEE 754's total order with
// NaNs made one quiet NaN; unsigned: the sign bit flipped), so the network
// compares integers only and every target gives the same bits. A round of
// the network views the sorted dimension as [pairs, 2, distance]: xor_sum
// over the middle dimension of 2 gives each element its partner (a ^ (a ^
// b) = b, as flip does), and each element keeps the min or the max of the
// two by its side of the pair and the direction of its bitonic sequence.
//
//===----------------------------------------------------------------------===//

#include "ktc/Ops.h"
#include "ktc/Standard.h"

#include "Trace.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace ktc {

using detail::TraceImpl;
using detail::typeStr;

namespace {

DType intOfWidth(unsigned width) {
  return width <= 8    ? DType::i8
         : width == 16 ? DType::i16
         : width == 32 ? DType::i32
                       : DType::i64;
}

/// The largest positive value of a `width`-bit signed integer: the mask of
/// every bit but the sign.
int64_t maxPositive(unsigned width) {
  return width == 64 ? INT64_MAX : (int64_t(1) << (width - 1)) - 1;
}

/// The bits of +infinity and of the quiet NaN of a float type (f8e4m3fn
/// has no infinity: its largest finite value stands in, so only 0x7f and
/// 0xff are NaN).
std::pair<int64_t, int64_t> infAndNaN(DType type) {
  switch (type) {
  case DType::f16:
    return {0x7c00, 0x7e00};
  case DType::bf16:
    return {0x7f80, 0x7fc0};
  case DType::f32:
    return {0x7f800000, 0x7fc00000};
  case DType::f64:
    return {0x7ff0000000000000, 0x7ff8000000000000};
  case DType::f8e5m2:
    return {0x7c, 0x7e};
  default: // f8e4m3fn
    return {0x7e, 0x7f};
  }
}

/// The signed integer key of x whose order is the sort's.
Value toKey(const Value &x, DType type, std::source_location loc) {
  auto o = [&](const Value &v) { return Operand(v, loc); };
  unsigned width = bit_width(type);
  if (type == DType::i1)
    return cast(x, DType::i8, loc);
  if (is_unsigned(type))
    return o(cast(x, intOfWidth(width), loc)) ^
           Operand(INT64_MIN >> (64 - width), loc);
  if (!is_float(type))
    return x;
  // Floats: -x's bits are x's with the sign flipped; flipping the other
  // bits of negative numbers too orders them as signed integers.
  auto [inf, nan] = infAndNaN(type);
  Value bits = bitcast(x, intOfWidth(width), loc);
  Value magnitude = o(bits) & Operand(maxPositive(width), loc);
  bits =
      where(o(magnitude) > Operand(inf, loc), Operand(nan, loc), o(bits), loc);
  Value sign = o(bits) >> Operand(int(width - 1), loc);
  return o(bits) ^ o(o(sign) & Operand(maxPositive(width), loc));
}

/// The inverse of toKey (the float transform is its own inverse: the sign
/// bit is unchanged).
Value fromKey(const Value &key, DType type, std::source_location loc) {
  auto o = [&](const Value &v) { return Operand(v, loc); };
  unsigned width = bit_width(type);
  if (type == DType::i1)
    return o(key) != Operand(0, loc);
  if (is_unsigned(type))
    return cast(o(key) ^ Operand(INT64_MIN >> (64 - width), loc), type, loc);
  if (!is_float(type))
    return key;
  Value sign = o(key) >> Operand(int(width - 1), loc);
  Value bits = o(key) ^ o(o(sign) & Operand(maxPositive(width), loc));
  return bitcast(bits, type, loc);
}

/// Sorts the rows of a [rows, n] block of keys.
Value bitonic(Value y, int64_t rows, int64_t n, bool descending,
              std::source_location loc) {
  auto o = [&](const Value &v) { return Operand(v, loc); };
  int stages = 0;
  while ((int64_t(1) << stages) < n)
    ++stages;
  // [1, 2, 1]: true on the left side of each pair.
  Value left = reshape(o(arange(0, 2, loc)) == Operand(0, loc), {1, 2, 1}, loc);
  for (int s = 1; s <= stages; ++s) {
    // Stage s merges bitonic runs of 2^s into sorted runs, ascending and
    // descending in turn (bit s of the position), all one way at the end.
    for (int i = 0; i < s; ++i) {
      int64_t distance = int64_t(1) << (s - 1 - i);
      int64_t pairs = rows * n / (2 * distance);
      Value y3 = reshape(y, {pairs, 2, distance}, loc);
      Value partner = o(y3) ^ o(xor_sum(y3, 1, /*keep_dims=*/true, loc));
      Value lo = minimum(o(y3), o(partner), loc);
      Value hi = maximum(o(y3), o(partner), loc);
      Value takeLo;
      if (s < stages) {
        // Bit s of the position is bit i of the pair's row (2 distance =
        // 2^(s - i) elements a row).
        Value down = o(o(o(arange(0, pairs, loc)) >> Operand(i, loc)) &
                       Operand(1, loc)) != Operand(0, loc);
        takeLo = o(left) != o(reshape(down, {pairs, 1, 1}, loc));
      } else {
        takeLo = descending ? Value(!o(left)) : left;
      }
      y = reshape(where(o(takeLo), o(lo), o(hi), loc), {rows, n}, loc);
    }
  }
  return y;
}

} // namespace

Value sort(const Operand &x, std::optional<int> dim, bool descending, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value v = t.resolve(x, {}, loc);
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type)
    t.fail(loc, "sort() needs a block, got " + typeStr(v.getType()));
  if (isa<mlir::ktc::PtrType>(type.getElementType()))
    t.fail(loc, "sort() of a block of pointers; sort the offsets instead");
  int rank = int(type.getRank());
  int d = dim.value_or(rank - 1);
  if (d < -rank || d >= rank)
    t.fail(loc, "sort() dimension " + std::to_string(d) +
                    " is out of range for a block of rank " +
                    std::to_string(rank));
  if (d < 0)
    d += rank;
  DType element = t.dtypeOf(v);
  std::vector<int64_t> shape(type.getShape().begin(), type.getShape().end());
  int64_t n = shape[d];
  Value y = t.wrap(v);
  if (n == 1)
    return y;
  // The sorted dimension last, the others flattened into rows.
  std::vector<int> order, inverse(rank);
  for (int i = 0; i < rank; ++i)
    if (i != d)
      order.push_back(i);
  order.push_back(d);
  for (int i = 0; i < rank; ++i)
    inverse[order[i]] = i;
  std::vector<int64_t> moved;
  for (int i : order)
    moved.push_back(shape[i]);
  if (d != rank - 1)
    y = permute(y, order, loc);
  int64_t rows = type.getNumElements() / n;
  Value key = toKey(reshape(y, {rows, n}, loc), element, loc);
  y = fromKey(bitonic(key, rows, n, descending, loc), element, loc);
  y = reshape(y, moved, loc);
  if (d != rank - 1)
    y = permute(y, inverse, loc);
  return y;
}

} // namespace ktc
