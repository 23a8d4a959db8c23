//===- Ops.cpp - program ids, blocks, memory, reductions, math ------------===//

#include "Trace.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using mlir::ktc::PtrType;

namespace ktc {

using detail::TraceImpl;
using detail::typeStr;

static std::string str(int64_t v) { return std::to_string(v); }

//===----------------------------------------------------------------------===//
// Program ids and block construction
//===----------------------------------------------------------------------===//

static void checkAxis(TraceImpl &t, const char *what, int axis, Loc loc) {
  if (axis < 0 || axis > 2)
    t.fail(loc, std::string(what) + " axis must be 0, 1 or 2, got " +
                    str(axis));
}

Value program_id(int axis, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  checkAxis(t, "program_id", axis, loc);
  return t.wrap(mlir::ktc::ProgramIdOp::create(t.b, t.loc(loc), axis));
}

Value num_programs(int axis, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  checkAxis(t, "num_programs", axis, loc);
  return t.wrap(mlir::ktc::NumProgramsOp::create(t.b, t.loc(loc), axis));
}

Value arange(int64_t start, int64_t end, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  std::string call = "arange(" + str(start) + ", " + str(end) + ")";
  if (end <= start)
    t.fail(loc, call + ": end must be greater than start");
  if (start < INT32_MIN || end > INT32_MAX)
    t.fail(loc, call + ": the range must fit in i32");
  if (!llvm::isPowerOf2_64(end - start))
    t.fail(loc, call + ": the length " + str(end - start) +
                    " must be a power of two");
  t.checkBlockShape({end - start}, loc);
  return t.wrap(mlir::ktc::ArangeOp::create(t.b, t.loc(loc), start, end));
}

Value full(const std::vector<int64_t> &shape, const Operand &value,
           DType dtype, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  t.checkBlockShape(shape, loc);
  Type element = detail::toMlir(dtype, t.ctx);
  mlir::Value v = t.resolve(value, element, loc, is_unsigned(dtype));
  if (isa<RankedTensorType>(v.getType()))
    t.fail(loc, "full() takes a scalar value, not a " + typeStr(v.getType()));
  v = t.castTo(v, dtype, loc);
  return t.wrap(t.broadcastTo(v, shape, loc));
}

Value zeros(const std::vector<int64_t> &shape, DType dtype, Loc loc) {
  return full(shape, Operand(0, loc), dtype, loc);
}

Value expand_dims(const Operand &x, int axis, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value v = t.resolve(x, {}, loc);
  auto tensor = dyn_cast<RankedTensorType>(v.getType());
  if (!tensor) { // a scalar becomes a block of one element
    if (axis != 0)
      t.fail(loc, "expand_dims of a scalar takes axis 0, got " + str(axis));
    return t.wrap(t.broadcastTo(v, {1}, loc));
  }
  if (tensor.getRank() >= mlir::ktc::kMaxBlockRank)
    t.fail(loc, "expand_dims of a " + typeStr(tensor) + " would make a rank-" +
                    str(tensor.getRank() + 1) +
                    " block; blocks have rank 1, 2 or 3");
  if (axis < 0 || axis > tensor.getRank())
    t.fail(loc, "expand_dims axis " + str(axis) + " is out of range [0, " +
                    str(tensor.getRank()) + "]");
  return t.wrap(mlir::ktc::ExpandDimsOp::create(t.b, t.loc(loc), v, axis));
}

Value broadcast_to(const Operand &x, const std::vector<int64_t> &shape,
                   Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  t.checkBlockShape(shape, loc);
  return t.wrap(t.broadcastTo(t.resolve(x, {}, loc), shape, loc));
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// The pointer operand of a load or store, checked.
static mlir::Value pointerOperand(TraceImpl &t, const Operand &ptr,
                                  const char *what, Loc loc) {
  if (!ptr.present())
    t.fail(loc, std::string(what) + " needs a pointer");
  if (ptr.kind() != Operand::Kind::Value)
    t.fail(loc, std::string(what) +
                    " needs a pointer or a block of pointers, not a literal");
  mlir::Value p = t.resolve(ptr, {}, loc);
  if (!isa<PtrType>(getElementTypeOrSelf(p.getType())))
    t.fail(loc, std::string(what) +
                    " needs a pointer or a block of pointers, got " +
                    typeStr(p.getType()));
  return p;
}

/// The mask operand, broadcast together with the pointers.
static mlir::Value maskOperand(TraceImpl &t, const Operand &mask,
                               mlir::Value &ptr, const char *what, Loc loc) {
  if (!mask.present())
    return {};
  mlir::Value m = t.resolve(mask, t.b.getI1Type(), loc);
  if (!getElementTypeOrSelf(m.getType()).isInteger(1))
    t.fail(loc, std::string(what) + " mask must be boolean (i1), got " +
                    typeStr(m.getType()) + "; compare to get one");
  SmallVector<int64_t> shape;
  try {
    shape = t.broadcastShape(ptr.getType(), m.getType(), loc);
  } catch (const Error &) {
    t.fail(loc, std::string(what) + " mask of type " + typeStr(m.getType()) +
                    " does not match the pointers' type " +
                    typeStr(ptr.getType()));
  }
  ptr = t.broadcastTo(ptr, shape, loc);
  return t.broadcastTo(m, shape, loc);
}

Value load(const Operand &ptr, const Operand &mask, const Operand &other,
           Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value p = pointerOperand(t, ptr, "load", loc);
  mlir::Value m = maskOperand(t, mask, p, "load", loc);
  mlir::Value o;
  if (other.present()) {
    if (!m)
      t.fail(loc, "load: 'other' needs a mask (it fills the masked-off "
                  "elements)");
    Type pointee = cast<PtrType>(getElementTypeOrSelf(p.getType()))
                       .getPointeeType();
    o = t.resolve(other, pointee, loc);
    Type oe = getElementTypeOrSelf(o.getType());
    if (oe != pointee && !(isa<FloatType>(oe) && isa<FloatType>(pointee)) &&
        !(isa<IntegerType>(oe) && isa<IntegerType>(pointee)))
      t.fail(loc, "load: 'other' of type " + typeStr(o.getType()) +
                      " does not convert to the loaded type " +
                      typeStr(pointee));
    o = t.castTo(o, pointee, loc);
    try {
      o = t.broadcastTo(o, mlir::ktc::getShapeOrScalar(p.getType()), loc);
    } catch (const Error &) {
      t.fail(loc, "load: 'other' of type " + typeStr(o.getType()) +
                      " does not match the pointers' type " +
                      typeStr(p.getType()));
    }
  }
  return t.wrap(mlir::ktc::LoadOp::create(t.b, t.loc(loc), p, m, o));
}

void store(const Operand &ptr, const Operand &value, const Operand &mask,
           Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value p = pointerOperand(t, ptr, "store", loc);
  if (!value.present())
    t.fail(loc, "store needs a value");
  Type pointee =
      cast<PtrType>(getElementTypeOrSelf(p.getType())).getPointeeType();
  mlir::Value v = t.resolve(value, pointee, loc);
  Type ve = getElementTypeOrSelf(v.getType());
  if (isa<PtrType>(ve))
    t.fail(loc, "store: cannot store pointers");
  if (isa<FloatType>(ve) != isa<FloatType>(pointee))
    t.fail(loc, "store: a value of type " + typeStr(v.getType()) +
                    " cannot be stored through " +
                    typeStr(getElementTypeOrSelf(p.getType())) +
                    "; convert it with .to()");
  v = t.castTo(v, pointee, loc);
  mlir::Value m;
  if (mask.present()) {
    m = t.resolve(mask, t.b.getI1Type(), loc);
    if (!getElementTypeOrSelf(m.getType()).isInteger(1))
      t.fail(loc, "store mask must be boolean (i1), got " +
                      typeStr(m.getType()) + "; compare to get one");
  }
  // Pointers, value and mask broadcast to one shape; a block of values or
  // of mask bits needs a block of pointers (one address per element).
  SmallVector<int64_t> shape;
  try {
    shape = t.broadcastShape(p.getType(), v.getType(), loc);
    if (m)
      shape = t.broadcastShape(
          RankedTensorType::get(shape, t.b.getI1Type()), m.getType(), loc);
  } catch (const Error &) {
    t.fail(loc, "store: pointers " + typeStr(p.getType()) + ", value " +
                    typeStr(v.getType()) +
                    (m ? ", mask " + typeStr(m.getType()) : std::string()) +
                    " do not broadcast to one shape");
  }
  if (!isa<RankedTensorType>(p.getType()) && !shape.empty())
    t.fail(loc, "store: a block of values needs a block of pointers, got " +
                    typeStr(p.getType()));
  p = t.broadcastTo(p, shape, loc);
  v = t.broadcastTo(v, shape, loc);
  if (m)
    m = t.broadcastTo(m, shape, loc);
  mlir::ktc::StoreOp::create(t.b, t.loc(loc), p, v, m);
}

// Reductions: Reductions.cpp.

//===----------------------------------------------------------------------===//
// Elementwise functions
//===----------------------------------------------------------------------===//

namespace detail {
std::pair<mlir::Value, mlir::Value>
binaryOperands(TraceImpl &t, const Operand &a, const Operand &b,
               const char *what, std::source_location loc);
} // namespace detail

template <typename FloatOp, typename SIntOp, typename UIntOp>
static Value extremum(const Operand &a, const Operand &b, const char *what,
                      Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  auto [x, y] = detail::binaryOperands(t, a, b, what, loc);
  Type e = getElementTypeOrSelf(x.getType());
  Location l = t.loc(loc);
  if (isa<FloatType>(e))
    return t.wrap(FloatOp::create(t.b, l, x, y));
  if (e.isInteger(1) || t.isUnsigned(x))
    return t.wrap(UIntOp::create(t.b, l, x, y));
  return t.wrap(SIntOp::create(t.b, l, x, y));
}

Value maximum(const Operand &a, const Operand &b, Loc loc) {
  return extremum<arith::MaxNumFOp, arith::MaxSIOp, arith::MaxUIOp>(
      a, b, "maximum()", loc);
}
Value minimum(const Operand &a, const Operand &b, Loc loc) {
  return extremum<arith::MinNumFOp, arith::MinSIOp, arith::MinUIOp>(
      a, b, "minimum()", loc);
}

static Value floatDivide(const Operand &a, const Operand &b, bool fast,
                         const char *what, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  auto [x, y] = detail::binaryOperands(t, a, b, what, loc);
  if (!isa<FloatType>(getElementTypeOrSelf(x.getType())))
    t.fail(loc, std::string(what) + " needs floating-point operands, got " +
                    typeStr(x.getType()) +
                    "; convert them with .to(ktc::DType::f32)");
  return t.wrap(arith::DivFOp::create(
      t.b, t.loc(loc), x, y,
      fast ? arith::FastMathFlags::afn | arith::FastMathFlags::arcp
           : arith::FastMathFlags::none));
}

Value div_rn(const Operand &a, const Operand &b, Loc loc) {
  return floatDivide(a, b, false, "div_rn()", loc);
}
Value fdiv(const Operand &a, const Operand &b, Loc loc) {
  return floatDivide(a, b, true, "fdiv()", loc);
}

Value where(const Operand &cond, const Operand &a, const Operand &b,
            Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value c = t.resolve(cond, t.b.getI1Type(), loc);
  if (!getElementTypeOrSelf(c.getType()).isInteger(1))
    t.fail(loc, "where() condition must be boolean (i1), got " +
                    typeStr(c.getType()));
  auto [x, y] = detail::binaryOperands(t, a, b, "where()", loc);
  SmallVector<int64_t> shape = t.broadcastShape(c.getType(), x.getType(), loc);
  c = t.broadcastTo(c, shape, loc);
  x = t.broadcastTo(x, shape, loc);
  y = t.broadcastTo(y, shape, loc);
  return t.wrap(arith::SelectOp::create(t.b, t.loc(loc), c, x, y));
}

template <typename MathOp>
static Value floatFunction(const Operand &x, const char *what, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value v = t.resolve(x, {}, loc);
  Type e = getElementTypeOrSelf(v.getType());
  if (!isa<FloatType>(e) || isa<Float8E4M3FNType, Float8E5M2Type>(e))
    t.fail(loc, std::string(what) + "() needs a floating-point operand, got " +
                    typeStr(v.getType()) +
                    "; convert it with .to(ktc::DType::f32)");
  return t.wrap(MathOp::create(t.b, t.loc(loc), v));
}

template <typename MathOp>
static Value fastFloatFunction(const Operand &x, const char *what, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  Value v = floatFunction<MathOp>(x, what, loc);
  // afn: ktc-expand-math leaves it to the target's approximation.
  auto op = cast<MathOp>(t.resolve(v, {}, loc).getDefiningOp());
  op.setFastmath(arith::FastMathFlags::afn);
  return v;
}

Value fast_exp(const Operand &x, Loc loc) {
  return fastFloatFunction<math::ExpOp>(x, "fast_exp", loc);
}
Value fast_exp2(const Operand &x, Loc loc) {
  return fastFloatFunction<math::Exp2Op>(x, "fast_exp2", loc);
}
Value fast_log(const Operand &x, Loc loc) {
  return fastFloatFunction<math::LogOp>(x, "fast_log", loc);
}
Value fast_log2(const Operand &x, Loc loc) {
  return fastFloatFunction<math::Log2Op>(x, "fast_log2", loc);
}

Value exp(const Operand &x, Loc loc) {
  return floatFunction<math::ExpOp>(x, "exp", loc);
}
Value exp2(const Operand &x, Loc loc) {
  return floatFunction<math::Exp2Op>(x, "exp2", loc);
}
Value log(const Operand &x, Loc loc) {
  return floatFunction<math::LogOp>(x, "log", loc);
}
Value log2(const Operand &x, Loc loc) {
  return floatFunction<math::Log2Op>(x, "log2", loc);
}
Value sqrt(const Operand &x, Loc loc) {
  return floatFunction<math::SqrtOp>(x, "sqrt", loc);
}

Value abs(const Operand &x, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value v = t.resolve(x, {}, loc);
  Type e = getElementTypeOrSelf(v.getType());
  if (isa<FloatType>(e))
    return t.wrap(math::AbsFOp::create(t.b, t.loc(loc), v));
  if (isa<PtrType>(e) || e.isInteger(1))
    t.fail(loc, "abs() needs a number, got " + typeStr(v.getType()));
  if (t.isUnsigned(v))
    return t.wrap(v);
  return t.wrap(math::AbsIOp::create(t.b, t.loc(loc), v));
}

Value cast(const Operand &x, DType dtype, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value v = t.resolve(x, {}, loc);
  return t.wrap(t.castTo(v, dtype, loc));
}

void detail::cdivFails(int64_t a, int64_t b, Loc loc) {
  throw Error("cdiv(" + std::to_string(a) + ", " + std::to_string(b) +
                  (b == 0 ? "): division by zero"
                          : "): the result does not fit in int64"),
              loc);
}

void detail::nextPow2Fails(int64_t n, Loc loc) {
  throw Error("next_pow2(" + std::to_string(n) +
                  "): the result does not fit in int64",
              loc);
}

Value cdiv(const Operand &a, const Operand &b, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  auto [x, y] = detail::binaryOperands(t, a, b, "cdiv()", loc);
  Type e = getElementTypeOrSelf(x.getType());
  if (!isa<IntegerType>(e) || e.isInteger(1))
    t.fail(loc, "cdiv() needs integers, got " + typeStr(x.getType()));
  return t.wrap(
      detail::integerDivision(t, detail::IntDivision::CeilDiv, x, y, loc));
}

} // namespace ktc
