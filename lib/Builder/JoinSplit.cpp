//===- JoinSplit.cpp - join, split, interleave and cat of blocks ----------===//
//
// Triton's tl.join, tl.split, tl.interleave and tl.cat, written with the
// dialect's own shape ops, so that every target runs them as it runs those:
// - join(a, b): expand_dims of each along a new last dimension, broadcast
//   to size 2 there, and a select on arange(0, 2) == 0. Where the layout
//   keeps that dimension in each thread the index is a constant per
//   register and the select folds away: free; otherwise the layouts are
//   converted as for any expand_dims.
// - split(x): a reduction along the last dimension (of size 2) of the
//   block and its index there, keeping the element of index 0 (or 1):
//   within the thread where the layout keeps the pair together, the same
//   constant compare; across lanes a shuffle.
// - interleave and cat: join, then a permute and a reshape.
// The checks are made here, at the user's line.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace ktc {

using detail::TraceImpl;
using detail::typeStr;

namespace {
/// The two operands of join/interleave/cat: literals take the other's
/// element type; blocks or scalars of one element type, not pointers.
std::pair<mlir::Value, mlir::Value> pairOperands(TraceImpl &t,
                                                 const Operand &a,
                                                 const Operand &b,
                                                 const char *what, Loc loc) {
  auto [va, vb] = t.resolvePair(a, b, loc);
  Type ea = getElementTypeOrSelf(va.getType());
  Type eb = getElementTypeOrSelf(vb.getType());
  if (ea != eb || t.isUnsigned(va) != t.isUnsigned(vb))
    t.fail(loc, std::string(what) + " takes two values of one element type, "
                    "got " + typeStr(va.getType()) + " and " +
                    typeStr(vb.getType()) + "; convert one with .to()");
  if (isa<mlir::ktc::PtrType>(ea))
    t.fail(loc, std::string(what) + " of pointers (" + typeStr(va.getType()) +
                    ") is not supported; join the offsets and add them to "
                    "the pointer");
  return {va, vb};
}

/// The i32 block of `shape` (last dimension 2) holding each element's
/// index along the last dimension.
Value lastIndex(const std::vector<int64_t> &shape, Loc loc) {
  Value idx = arange(0, 2, loc);
  for (size_t d = 0; d + 1 < shape.size(); ++d)
    idx = expand_dims(idx, 0, loc);
  return broadcast_to(idx, shape, loc);
}

std::vector<int64_t> toVector(ArrayRef<int64_t> shape) {
  return std::vector<int64_t>(shape.begin(), shape.end());
}
} // namespace

Value join(const Operand &a, const Operand &b, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  auto [va, vb] = pairOperands(t, a, b, "join()", loc);
  SmallVector<int64_t> shape =
      t.broadcastShape(va.getType(), vb.getType(), loc);
  if (shape.empty()) { // two scalars: a block of two
    Value pair = join(t.wrap(t.broadcastTo(va, {1}, loc)),
                      t.wrap(t.broadcastTo(vb, {1}, loc)), loc);
    return reshape(pair, {2}, loc);
  }
  int rank = shape.size();
  if (rank >= mlir::ktc::kMaxBlockRank)
    t.fail(loc, "join() of two " + typeStr(RankedTensorType::get(
                                       shape, getElementTypeOrSelf(
                                                  va.getType()))) +
                    " blocks would make a rank-" + std::to_string(rank + 1) +
                    " block; blocks have rank 1, 2 or 3 (interleave() and "
                    "cat() take rank-3 blocks)");
  std::vector<int64_t> full = toVector(shape);
  full.push_back(2);
  t.checkBlockShape(full, loc); // the size limit
  Value x = broadcast_to(expand_dims(t.wrap(t.broadcastTo(va, shape, loc)),
                                     rank, loc),
                         full, loc);
  Value y = broadcast_to(expand_dims(t.wrap(t.broadcastTo(vb, shape, loc)),
                                     rank, loc),
                         full, loc);
  return where(lastIndex(full, loc) == 0, x, y, loc);
}

std::pair<Value, Value> split(const Operand &x, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value v = t.resolve(x, {}, loc);
  auto tensor = dyn_cast<RankedTensorType>(v.getType());
  if (!tensor)
    t.fail(loc, "split() takes a block whose last dimension has size 2, got "
                "the scalar " + typeStr(v.getType()));
  if (tensor.getShape().back() != 2)
    t.fail(loc, "split() takes a block whose last dimension has size 2, got "
                "a " + typeStr(tensor));
  if (isa<mlir::ktc::PtrType>(tensor.getElementType()))
    t.fail(loc, "split() of pointers (" + typeStr(tensor) +
                    ") is not supported; split the offsets");
  int last = tensor.getRank() - 1;
  Value block = t.wrap(v);
  Value idx = lastIndex(toVector(tensor.getShape()), loc);
  // The element whose index is `want`: of two partials, the one holding
  // the lower (higher) index; associative and commutative, so every
  // target's order gives it.
  auto pick = [&](bool low) {
    return reduce(
        {block, idx}, last,
        [low](const std::vector<Value> &p, const std::vector<Value> &q) {
          Value first = low ? p[1] < q[1] : p[1] > q[1];
          return std::vector<Value>{where(first, p[0], q[0]),
                                    where(first, p[1], q[1])};
        },
        false, loc)[0];
  };
  return {pick(true), pick(false)};
}

Value interleave(const Operand &a, const Operand &b, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  auto [va, vb] = pairOperands(t, a, b, "interleave()", loc);
  SmallVector<int64_t> shape =
      t.broadcastShape(va.getType(), vb.getType(), loc);
  if (shape.empty())
    return join(t.wrap(va), t.wrap(vb), loc);
  Value x = t.wrap(t.broadcastTo(va, shape, loc));
  Value y = t.wrap(t.broadcastTo(vb, shape, loc));
  // The leading dimensions merged (a rank-3 block joins as rank 2).
  std::vector<int64_t> out = toVector(shape);
  out.back() *= 2;
  int64_t lead = 1;
  for (size_t d = 0; d + 1 < shape.size(); ++d)
    lead *= shape[d];
  if (shape.size() == 3) {
    x = reshape(x, {lead, shape.back()}, loc);
    y = reshape(y, {lead, shape.back()}, loc);
  }
  return reshape(join(x, y, loc), out, loc);
}

Value cat(const Operand &a, const Operand &b, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  auto [va, vb] = pairOperands(t, a, b, "cat()", loc);
  auto ta = dyn_cast<RankedTensorType>(va.getType());
  auto tb = dyn_cast<RankedTensorType>(vb.getType());
  if (!ta || !tb || ta.getShape() != tb.getShape())
    t.fail(loc, "cat() takes two blocks of one shape, got " +
                    typeStr(va.getType()) + " and " + typeStr(vb.getType()));
  std::vector<int64_t> shape = toVector(ta.getShape());
  std::vector<int64_t> out = shape;
  out[0] *= 2;
  t.checkBlockShape(out, loc);
  // [s0, rest] -> join -> [s0, rest, 2] -> [2, s0, rest] -> [2 s0, ...].
  int64_t rest = ta.getNumElements() / shape[0];
  Value x = t.wrap(va), y = t.wrap(vb);
  if (shape.size() == 1)
    return reshape(trans(join(x, y, loc), loc), out, loc);
  if (shape.size() == 3) {
    x = reshape(x, {shape[0], rest}, loc);
    y = reshape(y, {shape[0], rest}, loc);
  }
  return reshape(permute(join(x, y, loc), {2, 0, 1}, loc), out, loc);
}

} // namespace ktc
