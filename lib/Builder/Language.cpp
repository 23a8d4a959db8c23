//===- Language.cpp - sigmoid, flip, swizzle2d, assume ---------------------===//
//
// The rest of Triton's language (issue 19), written with ktc's own ops as
// Triton's standard library writes them: sigmoid is 1 / (1 + exp(-x));
// flip swaps the halves of the flipped dimension bit by bit with xor_sum
// (reversing an index of a power-of-two dimension flips all its bits);
// swizzle2d is integer arithmetic. assume is llvm.assume on a scalar.
// (max_constancy is in Hints.cpp, debug_barrier in Debug.cpp.)
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace ktc {

using detail::TraceImpl;
using detail::typeStr;

Value sigmoid(const Operand &x, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value v = t.resolve(x, {}, loc);
  if (!isa<FloatType>(getElementTypeOrSelf(v.getType())))
    t.fail(loc, "sigmoid() needs floats, got " + typeStr(v.getType()) +
                    "; cast() integers first");
  Value e = exp(-Operand(t.wrap(v), loc), loc);
  return Operand(1, loc) / (Operand(1, loc) + Operand(e, loc));
}

Value flip(const Operand &x, std::optional<int> dim, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value v = t.resolve(x, {}, loc);
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type)
    t.fail(loc, "flip() needs a block, got " + typeStr(v.getType()));
  int rank = int(type.getRank());
  int d = dim.value_or(rank - 1);
  if (d < -rank || d >= rank)
    t.fail(loc, "flip() dimension " + std::to_string(d) +
                    " is out of range for a block of rank " +
                    std::to_string(rank));
  if (d < 0)
    d += rank;
  Type element = type.getElementType();
  if (isa<mlir::ktc::PtrType>(element))
    t.fail(loc, "flip() of a block of pointers; flip the offsets instead");
  std::vector<int64_t> shape(type.getShape().begin(), type.getShape().end());
  int64_t n = shape[d];
  if (n == 1)
    return t.wrap(v);
  // Integers of the element's width; xor moves their bits unchanged.
  DType original = t.dtypeOf(v);
  Value y = t.wrap(v);
  unsigned width = element.getIntOrFloatBitWidth();
  if (width == 1)
    y = cast(y, DType::i8, loc);
  else if (isa<FloatType>(element))
    y = bitcast(y, width == 8    ? DType::i8
                   : width == 16 ? DType::i16
                   : width == 32 ? DType::i32
                                 : DType::i64,
                loc);
  int64_t before = 1, after = 1;
  for (int i = 0; i < d; ++i)
    before *= shape[i];
  for (int i = d + 1; i < rank; ++i)
    after *= shape[i];
  // Index bit s of the dimension as a dimension of 2, all else around it:
  // a ^ (a ^ b) = b swaps each pair.
  for (int64_t s = 1; s < n; s *= 2) {
    y = reshape(y, {before * n / (2 * s), 2, s * after}, loc);
    y = Operand(y, loc) ^ Operand(xor_sum(y, 1, /*keep_dims=*/true, loc), loc);
  }
  y = reshape(y, shape, loc);
  if (width == 1)
    return Operand(y, loc) != Operand(0, loc);
  if (isa<FloatType>(element))
    return bitcast(y, original, loc);
  return y;
}

std::pair<Value, Value> swizzle2d(const Operand &i, const Operand &j,
                                  const Operand &size_i, const Operand &size_j,
                                  const Operand &size_g, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  const char *names[] = {"i", "j", "size_i", "size_j", "size_g"};
  const Operand *ops[] = {&i, &j, &size_i, &size_j, &size_g};
  for (int k = 0; k < 5; ++k) {
    if (ops[k]->kind() == Operand::Kind::Int)
      continue;
    Type type = ops[k]->kind() == Operand::Kind::Value
                    ? t.use(ops[k]->value(), loc).getType()
                    : t.b.getF32Type();
    Type e = getElementTypeOrSelf(type);
    if (!isa<IntegerType>(e) || e.isInteger(1))
      t.fail(loc, std::string("swizzle2d() needs integers; ") + names[k] +
                      " is " + typeStr(type));
  }
  auto o = [&](const Value &v) { return Operand(v, loc); };
  // Triton's swizzle2d (triton/language/standard.py), step by step.
  Value ij = o(i * size_j) + j;
  Value sizeGJ = size_g * size_j;
  Value groupId = o(ij) / o(sizeGJ);
  Value offI = o(groupId) * size_g;
  Value sizeG = minimum(o(size_i - o(offI)), size_g, loc);
  Value r = o(ij) % o(sizeGJ);
  Value newI = o(offI) + o(o(r) % o(sizeG));
  Value newJ = o(r) / o(sizeG);
  return {newI, newJ};
}

void assume(const Operand &cond, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  if (cond.kind() == Operand::Kind::Bool) {
    if (!cond.int_value())
      t.fail(loc, "assume(false): the program could never run");
    return;
  }
  mlir::Value c = t.resolve(cond, t.b.getI1Type(), loc);
  if (c.getType() != t.b.getI1Type())
    t.fail(loc, "assume() needs a scalar boolean (i1) condition, got " +
                    typeStr(c.getType()) +
                    (isa<RankedTensorType>(c.getType())
                         ? "; reduce a block first (e.g. min(x > 0) != 0)"
                         : ""));
  LLVM::AssumeOp::create(t.b, t.loc(loc), c);
}

} // namespace ktc
