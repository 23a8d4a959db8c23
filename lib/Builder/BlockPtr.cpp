//===- BlockPtr.cpp - block pointers and tensor descriptors ---------------===//
//
// Triton's make_block_ptr / advance and make_tensor_descriptor: the checks
// at the user's line, the parts (base, shape, strides, offsets) kept in
// ktc::Vars, so that for_range, while_ and if_ carry them (Control.cpp;
// the parts a loop does not change fold away when the trace is
// simplified), and the tiles of BlockTile.cpp.
//
//===----------------------------------------------------------------------===//

#include "BlockTile.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace ktc {

using namespace detail;

//===----------------------------------------------------------------------===//
// Block pointers.
//===----------------------------------------------------------------------===//

Value BlockPtr::base() const { return parts_.vars[0]->get(); }
std::vector<Value> BlockPtr::shape() const {
  return partsSlice(parts_, 1, rank());
}
std::vector<Value> BlockPtr::strides() const {
  return partsSlice(parts_, 1 + rank(), rank());
}
std::vector<Value> BlockPtr::offsets() const {
  return partsSlice(parts_, 1 + 2 * rank(), rank());
}

/// Fails unless a `kind` (base `to`, block `toBlock`) may be assigned one
/// with base `from` and block `fromBlock`: the same type, once both exist.
static void checkAssignable(TraceImpl &t, Loc loc, const char *kind,
                            const char *typeName, bool bothMade, const Value &to,
                            const std::vector<int64_t> &toBlock,
                            const Value &from,
                            const std::vector<int64_t> &fromBlock) {
  if (!bothMade)
    return;
  mlir::Type toType = t.use(to, loc).getType();
  mlir::Type fromType = t.use(from, loc).getType();
  if (toBlock == fromBlock && toType == fromType)
    return;
  t.fail(loc, std::string("cannot assign a ") + kind + " (base " +
                  typeStr(fromType) + ", block_shape " +
                  shapeList(fromBlock) + ") to one with base " +
                  typeStr(toType) + ", block_shape " + shapeList(toBlock) +
                  "; a " + typeName + " keeps its type");
}

BlockPtr &BlockPtr::operator=(const BlockPtr &other) {
  if (this == &other)
    return *this;
  Loc loc = other.parts_.made;
  checkAssignable(TraceImpl::current(loc), loc, "block pointer", "BlockPtr",
                  !parts_.vars.empty() && !other.parts_.vars.empty(), base(),
                  block_, other.base(), other.block_);
  parts_ = other.parts_;
  block_ = other.block_;
  order_ = other.order_;
  return *this;
}

BlockPtr make_block_ptr(const Operand &base, const std::vector<Operand> &shape,
                        const std::vector<Operand> &strides,
                        const std::vector<Operand> &offsets,
                        const std::vector<int64_t> &block_shape,
                        const std::vector<int> &order, Loc loc) {
  const char *what = "make_block_ptr";
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value p = basePointer(t, base, what, loc);
  checkTile(t, block_shape, what, loc);
  size_t rank = block_shape.size();
  checkCount(t, shape.size(), rank, what, "shape value(s)", loc);
  checkCount(t, strides.size(), rank, what, "stride(s)", loc);
  checkCount(t, offsets.size(), rank, what, "offset(s)", loc);
  checkCount(t, order.size(), rank, what, "order entries", loc);
  std::vector<int> sorted(order);
  llvm::sort(sorted);
  for (size_t i = 0; i < rank; ++i)
    if (sorted[i] != int(i))
      t.fail(loc,
             std::string(what) + ": order " +
                 shapeList(std::vector<int64_t>(order.begin(), order.end())) +
                 " is not a permutation of the dimensions 0 to " +
                 std::to_string(rank - 1));
  std::vector<Value> parts{t.wrap(p)};
  for (const auto *ops : {&shape, &strides, &offsets}) {
    const char *name = ops == &shape     ? "shape"
                       : ops == &strides ? "strides"
                                         : "offsets";
    for (Value v : integerParts(t, *ops, what, name, loc))
      parts.push_back(v);
  }
  BlockPtr r = BlockAccess::blockPtr();
  CarriedParts &c = BlockAccess::parts(r);
  c.made = loc;
  for (const Value &v : parts)
    c.vars.push_back(std::make_unique<Var>(v, loc));
  BlockAccess::block(r) = block_shape;
  BlockAccess::order(r) = order;
  return r;
}

BlockPtr advance(const BlockPtr &ptr, const std::vector<Operand> &offsets,
                 Loc loc) {
  const char *what = "advance";
  TraceImpl &t = TraceImpl::current(loc);
  size_t rank = ptr.rank();
  checkCount(t, offsets.size(), rank, what, "offset(s)", loc);
  std::vector<Value> deltas = integerParts(t, offsets, what, "offsets", loc);
  std::vector<Value> old = ptr.offsets();
  BlockPtr r = ptr; // new Vars, the same values
  CarriedParts &c = BlockAccess::parts(r);
  c.made = loc;
  for (size_t d = 0; d < rank; ++d)
    Access::set(*c.vars[1 + 2 * rank + d], operator+(Operand(old[d], loc),
                                                     Operand(deltas[d], loc)));
  return r;
}

Value load(const BlockPtr &ptr, const std::vector<int> &boundary_check,
           Padding padding, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  std::vector<int> checked =
      boundaryDims(t, boundary_check, ptr.rank(), "load", loc);
  return loadTile(t, ptr.base(), ptr.shape(), ptr.strides(), ptr.offsets(),
                  ptr.block_shape(), checked, padding, "load", loc);
}

void store(const BlockPtr &ptr, const Operand &value,
           const std::vector<int> &boundary_check, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  std::vector<int> checked =
      boundaryDims(t, boundary_check, ptr.rank(), "store", loc);
  storeTile(t, ptr.base(), ptr.shape(), ptr.strides(), ptr.offsets(),
            ptr.block_shape(), checked, value, "store", loc);
}

//===----------------------------------------------------------------------===//
// Tensor descriptors.
//===----------------------------------------------------------------------===//

Value TensorDescriptor::base() const { return parts_.vars[0]->get(); }
std::vector<Value> TensorDescriptor::shape() const {
  return partsSlice(parts_, 1, rank());
}
std::vector<Value> TensorDescriptor::strides() const {
  return partsSlice(parts_, 1 + rank(), rank());
}

TensorDescriptor &TensorDescriptor::operator=(const TensorDescriptor &other) {
  if (this == &other)
    return *this;
  Loc loc = other.parts_.made;
  checkAssignable(TraceImpl::current(loc), loc, "tensor descriptor", "TensorDescriptor",
                  !parts_.vars.empty() && !other.parts_.vars.empty(), base(),
                  block_, other.base(), other.block_);
  parts_ = other.parts_;
  block_ = other.block_;
  padding_ = other.padding_;
  return *this;
}

TensorDescriptor make_tensor_descriptor(const Operand &base,
                                        const std::vector<Operand> &shape,
                                        const std::vector<Operand> &strides,
                                        const std::vector<int64_t> &block_shape,
                                        Padding padding, Loc loc) {
  const char *what = "make_tensor_descriptor";
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value p = basePointer(t, base, what, loc);
  checkTile(t, block_shape, what, loc);
  size_t rank = block_shape.size();
  checkCount(t, shape.size(), rank, what, "shape value(s)", loc);
  checkCount(t, strides.size(), rank, what, "stride(s)", loc);
  Type element = cast<mlir::ktc::PtrType>(p.getType()).getPointeeType();
  paddingValue(t, padding, element, what, loc); // nan needs floats
  int64_t bits = element.getIntOrFloatBitWidth();
  if (block_shape.back() * bits < 128)
    t.fail(loc, std::string(what) + ": the block's last dimension spans " +
                    std::to_string(block_shape.back() * bits / 8) + " bytes (" +
                    std::to_string(block_shape.back()) + " x " +
                    typeStr(element) +
                    "); a tensor descriptor's spans at least 16");
  std::vector<Value> parts{t.wrap(p)};
  for (Value v : integerParts(t, shape, what, "shape", loc))
    parts.push_back(v);
  std::vector<Value> s = integerParts(t, strides, what, "strides", loc);
  APInt last;
  if (matchPattern(t.use(s.back(), loc), m_ConstantInt(&last)) && !last.isOne())
    t.fail(loc, std::string(what) +
                    ": the last stride must be 1 (the "
                    "innermost dimension is contiguous), "
                    "got " +
                    std::to_string(last.getSExtValue()));
  for (Value v : s)
    parts.push_back(v);
  TensorDescriptor r = BlockAccess::descriptor();
  CarriedParts &c = BlockAccess::parts(r);
  c.made = loc;
  for (const Value &v : parts)
    c.vars.push_back(std::make_unique<Var>(v, loc));
  BlockAccess::block(r) = block_shape;
  BlockAccess::padding(r) = padding;
  return r;
}

Value TensorDescriptor::load(const std::vector<Operand> &offsets,
                             Loc loc) const {
  const char *what = "tensor descriptor load";
  TraceImpl &t = TraceImpl::current(loc);
  checkCount(t, offsets.size(), rank(), what, "offset(s)", loc);
  std::vector<int> all;
  for (size_t d = 0; d < rank(); ++d)
    all.push_back(int(d));
  return loadTile(t, base(), shape(), strides(),
                  integerParts(t, offsets, what, "offsets", loc), block_, all,
                  padding_, what, loc);
}

void TensorDescriptor::store(const std::vector<Operand> &offsets,
                             const Operand &value, Loc loc) const {
  const char *what = "tensor descriptor store";
  TraceImpl &t = TraceImpl::current(loc);
  checkCount(t, offsets.size(), rank(), what, "offset(s)", loc);
  std::vector<int> all;
  for (size_t d = 0; d < rank(); ++d)
    all.push_back(int(d));
  storeTile(t, base(), shape(), strides(),
            integerParts(t, offsets, what, "offsets", loc), block_, all, value,
            what, loc);
}

Value load_tensor_descriptor(const TensorDescriptor &desc,
                             const std::vector<Operand> &offsets, Loc loc) {
  return desc.load(offsets, loc);
}

void store_tensor_descriptor(const TensorDescriptor &desc,
                             const std::vector<Operand> &offsets,
                             const Operand &value, Loc loc) {
  desc.store(offsets, value, loc);
}

} // namespace ktc
