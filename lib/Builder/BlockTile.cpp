//===- BlockTile.cpp - the tiles of block pointers and descriptors --------===//
//
// The carried parts of a BlockPtr or TensorDescriptor (one ktc::Var each),
// and their tiles, written with the ops of Ops.h, so that every target
// runs them as it runs the pointer spelling:
// - the tile's pointers are (base + sum_d offset_d * stride_d) + sum_d
//   arange(block_d) * stride_d: a scalar start, which a loop's advance
//   changes, plus a block of offsets that does not change (LICM hoists
//   it), all in i64 (the products of a stride and an offset may pass
//   2^31). The axis analysis sees a stride of 1 (a literal, or an argument
//   the launch found equal to 1) as contiguity along that dimension, and
//   divisibility through the offsets, so the tile loads 16 bytes at a time
//   where the pointer spelling would;
// - the mask of a checked dimension d is -offset_d <= arange(block_d) <
//   shape_d - offset_d, along d, broadcast over the others; `other` is the
//   padding (0 or NaN).
//
//===----------------------------------------------------------------------===//

#include "BlockTile.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;

namespace ktc::detail {

//===----------------------------------------------------------------------===//
// The carried parts.
//===----------------------------------------------------------------------===//

CarriedParts::CarriedParts(const CarriedParts &other) : made(other.made) {
  for (const auto &v : other.vars)
    vars.push_back(std::make_unique<Var>(v->get(), other.made));
}

CarriedParts &CarriedParts::operator=(const CarriedParts &other) {
  if (this == &other)
    return *this;
  if (vars.empty()) { // moved from: new Vars
    CarriedParts copy(other);
    vars = std::move(copy.vars);
    made = other.made;
    return *this;
  }
  // The callers checked that the parts' types agree (the element type and
  // the rank), so each Var takes its value as it is.
  TraceImpl &t = TraceImpl::current(other.made);
  std::vector<Value> values;
  for (const auto &v : other.vars) {
    t.use(v->get(), other.made); // visible here
    values.push_back(v->get());
  }
  for (auto [var, value] : llvm::zip(vars, values))
    Access::set(*var, value);
  made = other.made;
  return *this;
}

CarriedParts &CarriedParts::operator=(CarriedParts &&other) {
  return *this = static_cast<const CarriedParts &>(other);
}

CarriedParts::~CarriedParts() = default;

std::string shapeList(const std::vector<int64_t> &values) {
  std::string s;
  for (size_t i = 0; i < values.size(); ++i)
    s += (i ? ", " : "") + std::to_string(values[i]);
  return "{" + s + "}";
}

/// Parts [from, from + n) of `parts`, as Values.
std::vector<Value> partsSlice(const CarriedParts &parts, size_t from,
                              size_t n) {
  std::vector<Value> out;
  for (size_t i = from; i < from + n; ++i)
    out.push_back(parts.vars[i]->get());
  return out;
}

/// The scalar pointer a tile is based on.
mlir::Value basePointer(TraceImpl &t, const Operand &base, const char *what,
                        Loc loc) {
  if (base.kind() != Operand::Kind::Value)
    t.fail(loc, std::string(what) + " needs a pointer as its base, not a "
                                    "literal");
  mlir::Value p = t.resolve(base, {}, loc);
  if (!isa<mlir::ktc::PtrType>(p.getType()))
    t.fail(loc, std::string(what) +
                    " needs a scalar pointer as its base, "
                    "got " +
                    typeStr(p.getType()));
  return p;
}

/// One integer of shape/strides/offsets as an i64 scalar.
static Value integerPart(TraceImpl &t, const Operand &op, const char *what,
                         const char *name, size_t index, Loc loc) {
  Type i64 = t.b.getI64Type();
  mlir::Value v = t.resolve(op, i64, loc);
  Type type = v.getType();
  if (isa<RankedTensorType>(type) || !isa<IntegerType>(type) ||
      type.isInteger(1))
    t.fail(loc, std::string(what) + ": " + name + "[" + std::to_string(index) +
                    "] must be a scalar integer, got " + typeStr(type));
  return t.wrap(t.castTo(v, i64, loc));
}

std::vector<Value> integerParts(TraceImpl &t, const std::vector<Operand> &ops,
                                const char *what, const char *name, Loc loc) {
  std::vector<Value> out;
  for (size_t i = 0; i < ops.size(); ++i)
    out.push_back(integerPart(t, ops[i], what, name, i, loc));
  return out;
}

/// Checks a tile's shape: 1 to 3 powers of two, within a block's limits.
void checkTile(TraceImpl &t, const std::vector<int64_t> &block,
               const char *what, Loc loc) {
  if (block.empty() || block.size() > size_t(mlir::ktc::kMaxBlockRank))
    t.fail(loc, std::string(what) + ": block_shape " + shapeList(block) +
                    " has " + std::to_string(block.size()) +
                    " dimensions; blocks have 1, 2 or 3");
  for (int64_t d : block)
    if (d <= 0 || (d & (d - 1)) != 0)
      t.fail(loc, std::string(what) + ": block_shape " + shapeList(block) +
                      ": " + std::to_string(d) + " is not a power of two");
  t.checkBlockShape(SmallVector<int64_t>(block.begin(), block.end()), loc);
}

void checkCount(TraceImpl &t, size_t got, size_t rank, const char *what,
                const char *name, Loc loc) {
  if (got != rank)
    t.fail(loc, std::string(what) + ": " + std::to_string(got) + " " + name +
                    " for a rank-" + std::to_string(rank) +
                    " block; give one per dimension");
}

static mlir::Type pointee(TraceImpl &t, const Value &base, Loc loc) {
  return cast<mlir::ktc::PtrType>(t.use(base, loc).getType()).getPointeeType();
}

/// arange(0, n) as i64, with size-1 dimensions around it so that it runs
/// along dimension `d` of a rank-`rank` block.
static Value alongDim(int64_t n, size_t d, size_t rank, Loc loc) {
  Value r = cast(arange(0, n, loc), DType::i64, loc);
  for (size_t i = 0; i < d; ++i)
    r = expand_dims(r, 0, loc);
  for (size_t i = d + 1; i < rank; ++i)
    r = expand_dims(r, int(i), loc);
  return r;
}

static bool isOne(TraceImpl &t, const Value &v, Loc loc) {
  return matchPattern(t.use(v, loc), m_One());
}

/// The tile's pointers: (base + sum_d offset_d * stride_d) + sum_d
/// arange(block_d) * stride_d.
static Value tilePointers(TraceImpl &t, const Value &base,
                          const std::vector<Value> &strides,
                          const std::vector<Value> &offsets,
                          const std::vector<int64_t> &block, Loc loc) {
  size_t rank = block.size();
  Value start;
  for (size_t d = 0; d < rank; ++d) {
    Value term = isOne(t, strides[d], loc)
                     ? offsets[d]
                     : Value(operator*(Operand(offsets[d], loc),
                                       Operand(strides[d], loc)));
    start = d == 0 ? term : operator+(Operand(start, loc), Operand(term, loc));
  }
  Value tile;
  for (size_t d = 0; d < rank; ++d) {
    Value idx = alongDim(block[d], d, rank, loc);
    if (!isOne(t, strides[d], loc))
      idx = operator*(Operand(idx, loc), Operand(strides[d], loc));
    tile = d == 0 ? idx : operator+(Operand(tile, loc), Operand(idx, loc));
  }
  tile = broadcast_to(tile, block, loc);
  Value first = operator+(Operand(base, loc), Operand(start, loc));
  return operator+(Operand(first, loc), Operand(tile, loc));
}

/// The mask of the elements inside [0, shape_d) along the dimensions
/// `checked`, as a block of `block`; none when `checked` is empty.
static Value tileMask(const std::vector<Value> &shape,
                      const std::vector<Value> &offsets,
                      const std::vector<int64_t> &block,
                      const std::vector<int> &checked, Loc loc) {
  Value mask;
  for (int d : checked) {
    Value idx = alongDim(block[d], d, block.size(), loc);
    Value lo = operator-(Operand(offsets[d], loc));
    Value hi = operator-(Operand(shape[d], loc), Operand(offsets[d], loc));
    Value inside = operator&(
        Operand(operator>=(Operand(idx, loc), Operand(lo, loc)), loc),
        Operand(operator<(Operand(idx, loc), Operand(hi, loc)), loc));
    mask = mask.valid() ? operator&(Operand(mask, loc), Operand(inside, loc))
                        : inside;
  }
  if (!mask.valid())
    return mask;
  return broadcast_to(mask, block, loc);
}

/// `other` for a padded load of element type `element`.
Operand paddingValue(TraceImpl &t, Padding padding, Type element,
                     const char *what, Loc loc) {
  if (padding == Padding::nan) {
    if (!isa<FloatType>(element))
      t.fail(loc, std::string(what) +
                      ": Padding::nan needs a floating-point element type, "
                      "got " +
                      typeStr(element));
    return Operand(double(NAN), loc);
  }
  if (isa<FloatType>(element))
    return Operand(0.0, loc);
  return Operand(0, loc);
}

/// A stored value: a scalar, or a block of the tile's shape.
static void checkStoredValue(TraceImpl &t, const Operand &value,
                             const std::vector<int64_t> &block,
                             const char *what, Loc loc) {
  if (!value.present())
    t.fail(loc, std::string(what) + " needs a value");
  if (value.kind() != Operand::Kind::Value)
    return;
  mlir::Value v = t.use(value.value(), loc);
  auto tensor = dyn_cast<RankedTensorType>(v.getType());
  if (tensor && std::vector<int64_t>(tensor.getShape().begin(),
                                     tensor.getShape().end()) != block)
    t.fail(loc, std::string(what) + ": a value of type " +
                    typeStr(v.getType()) + " does not fit the block " +
                    shapeList(block) +
                    "; store a block of that shape or a scalar");
}

/// The checked dimensions of a load or store through a BlockPtr.
std::vector<int> boundaryDims(TraceImpl &t, const std::vector<int> &dims,
                              size_t rank, const char *what, Loc loc) {
  std::vector<int> out;
  for (int d : dims) {
    if (d < 0 || size_t(d) >= rank)
      t.fail(loc, std::string(what) + ": boundary_check dimension " +
                      std::to_string(d) + " is out of range for a rank-" +
                      std::to_string(rank) + " block pointer");
    if (llvm::is_contained(out, d))
      t.fail(loc, std::string(what) + ": boundary_check names dimension " +
                      std::to_string(d) + " twice");
    out.push_back(d);
  }
  return out;
}

Value loadTile(TraceImpl &t, const Value &base, const std::vector<Value> &shape,
               const std::vector<Value> &strides,
               const std::vector<Value> &offsets,
               const std::vector<int64_t> &block,
               const std::vector<int> &checked, Padding padding,
               const char *what, Loc loc) {
  Type element = pointee(t, base, loc);
  Operand other = paddingValue(t, padding, element, what, loc);
  Value ptrs = tilePointers(t, base, strides, offsets, block, loc);
  Value mask = tileMask(shape, offsets, block, checked, loc);
  if (!mask.valid())
    return load(ptrs, Operand(Loc()), Operand(Loc()), loc);
  return load(ptrs, Operand(mask, loc), other, loc);
}

void storeTile(TraceImpl &t, const Value &base, const std::vector<Value> &shape,
               const std::vector<Value> &strides,
               const std::vector<Value> &offsets,
               const std::vector<int64_t> &block,
               const std::vector<int> &checked, const Operand &value,
               const char *what, Loc loc) {
  checkStoredValue(t, value, block, what, loc);
  Value ptrs = tilePointers(t, base, strides, offsets, block, loc);
  Value mask = tileMask(shape, offsets, block, checked, loc);
  if (!mask.valid())
    return store(ptrs, value, Operand(Loc()), loc);
  store(ptrs, value, Operand(mask, loc), loc);
}

} // namespace ktc::detail
