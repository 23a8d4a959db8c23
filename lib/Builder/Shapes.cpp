//===- Shapes.cpp - trans, permute and reshape of blocks ------------------===//
//
// The builder's side of ktc.trans and ktc.reshape: the checks, at the
// user's line, that the dialect's verifiers would otherwise make later and
// less plainly. Results carry no layout (ktc-assign-layouts gives them one
// on a GPU).
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

using namespace mlir;

namespace ktc {

using detail::TraceImpl;
using detail::typeStr;

/// "[1, 0, 2]" for messages.
template <typename T> static std::string listStr(const std::vector<T> &list) {
  std::string s = "[";
  for (size_t i = 0; i < list.size(); ++i)
    s += (i ? ", " : "") + std::to_string(list[i]);
  return s + "]";
}

/// The block operand of a shape function; an error for a scalar.
static RankedTensorType blockOperand(TraceImpl &t, mlir::Value v,
                                     const char *what, Loc loc) {
  auto tensor = dyn_cast<RankedTensorType>(v.getType());
  if (!tensor)
    t.fail(loc, std::string(what) + " takes a block, got the scalar " +
                    typeStr(v.getType()));
  return tensor;
}

Value permute(const Operand &x, const std::vector<int> &dims, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value v = t.resolve(x, {}, loc);
  RankedTensorType tensor = blockOperand(t, v, "permute()", loc);
  int64_t rank = tensor.getRank();
  std::vector<bool> seen(rank, false);
  bool ok = static_cast<int64_t>(dims.size()) == rank;
  for (int d : dims) {
    ok = ok && d >= 0 && d < rank && !seen[d];
    if (ok)
      seen[d] = true;
  }
  if (!ok)
    t.fail(loc, "permute() dimensions " + listStr(dims) +
                    " are not a permutation of the " + std::to_string(rank) +
                    " dimensions of a " + typeStr(tensor) + " (each of 0 .. " +
                    std::to_string(rank - 1) + " once)");
  SmallVector<int32_t> perm(dims.begin(), dims.end());
  return t.wrap(mlir::ktc::TransOp::create(t.b, t.loc(loc), v, perm));
}

Value trans(const Operand &x, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value v = t.resolve(x, {}, loc);
  RankedTensorType tensor = blockOperand(t, v, "trans()", loc);
  if (tensor.getRank() != 2)
    t.fail(loc, "trans() transposes a 2-D block, got a " + typeStr(tensor) +
                    "; permute() reorders the dimensions of any block");
  return permute(x, {1, 0}, loc);
}

Value reshape(const Operand &x, const std::vector<int64_t> &shape, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value v = t.resolve(x, {}, loc);
  RankedTensorType tensor = blockOperand(t, v, "reshape()", loc);
  t.checkBlockShape(shape, loc); // rank, powers of two, size limit
  int64_t from = tensor.getNumElements(), to = 1;
  for (int64_t d : shape)
    to *= d; // checked above: at most 2^20
  if (from != to)
    t.fail(loc, "reshape() of a " + typeStr(tensor) + " (" +
                    std::to_string(from) + " elements) to " + listStr(shape) +
                    " (" + std::to_string(to) +
                    " elements): the element counts must be equal");
  auto type = RankedTensorType::get(shape, tensor.getElementType());
  return t.wrap(mlir::ktc::ReshapeOp::create(t.b, t.loc(loc), type, v));
}

} // namespace ktc
