//===- Arith.cpp - operands, promotion, broadcasting and the operators ----===//

#include "Trace.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace ktc {
namespace detail {

using mlir::ktc::PtrType;

static bool isFloatType(Type t) { return isa<FloatType>(t); }

mlir::Value TraceImpl::literal(const Operand &op, Type type,
                               std::source_location loc, bool isUnsigned) {
  Location l = this->loc(loc);
  if (isa<PtrType>(type))
    fail(loc, "a literal cannot be used as a pointer");
  double f = op.kind() == Operand::Kind::Float
                 ? op.float_value()
                 : static_cast<double>(op.int_value());
  if (auto ft = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, l, b.getFloatAttr(ft, f));
  auto it = cast<IntegerType>(type);
  if (op.kind() == Operand::Kind::Float)
    fail(loc, "the floating-point literal " + std::to_string(f) +
                  " cannot be used as " + typeStr(type) +
                  "; convert explicitly");
  int64_t i = op.int_value();
  unsigned width = it.getWidth();
  if (isUnsigned && width > 1) {
    if (i < 0 || (width < 64 && i >= (int64_t(1) << width)))
      fail(loc, "the literal " + std::to_string(i) + " does not fit in u" +
                    std::to_string(width));
    return markUnsigned(arith::ConstantOp::create(
                            b, l, b.getIntegerAttr(it, APInt(width, i))),
                        true);
  }
  if (width < 64) {
    int64_t lo = width == 1 ? 0 : -(int64_t(1) << (width - 1));
    int64_t hi = width == 1 ? 1 : (int64_t(1) << (width - 1)) - 1;
    if (i < lo || i > hi)
      fail(loc, "the literal " + std::to_string(i) + " does not fit in " +
                    typeStr(type));
  }
  return arith::ConstantOp::create(b, l, b.getIntegerAttr(it, i));
}

mlir::Value TraceImpl::resolve(const Operand &op, Type like,
                               std::source_location loc, bool likeUnsigned) {
  switch (op.kind()) {
  case Operand::Kind::None:
    fail(loc, "missing operand");
  case Operand::Kind::Value:
    return use(op.value(), op.loc());
  case Operand::Kind::Bool:
    return literal(op, like && !isa<PtrType>(like) ? like : b.getI1Type(),
                   loc);
  case Operand::Kind::Int:
    // An integer literal adapts to numbers; next to a boolean it is an i32.
    if (like && !isa<PtrType>(like) && !like.isInteger(1))
      return literal(op, like, loc, likeUnsigned);
    if (op.int_value() > INT32_MAX || op.int_value() < INT32_MIN)
      return literal(op, b.getI64Type(), loc);
    return literal(op, b.getI32Type(), loc);
  case Operand::Kind::Float:
    return literal(op, like && isFloatType(like) ? like : b.getF32Type(), loc);
  }
  return {};
}

std::pair<mlir::Value, mlir::Value>
TraceImpl::resolvePair(const Operand &a, const Operand &b,
                       std::source_location loc) {
  if (a.kind() == Operand::Kind::Value) {
    mlir::Value va = resolve(a, {}, loc);
    return {va, resolve(b, getElementTypeOrSelf(va.getType()), loc,
                        isUnsigned(va))};
  }
  mlir::Value vb = resolve(b, {}, loc);
  return {resolve(a, getElementTypeOrSelf(vb.getType()), loc, isUnsigned(vb)),
          vb};
}

static std::string shapeStr(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string s;
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? "x" : "") + std::to_string(d);
  return s;
}

SmallVector<int64_t> TraceImpl::broadcastShape(Type a, Type b,
                                               std::source_location loc) {
  ArrayRef<int64_t> sa = mlir::ktc::getShapeOrScalar(a);
  ArrayRef<int64_t> sb = mlir::ktc::getShapeOrScalar(b);
  if (sa.empty())
    return SmallVector<int64_t>(sb);
  if (sb.empty())
    return SmallVector<int64_t>(sa);
  SmallVector<int64_t> pa(sa), pb(sb);
  while (pa.size() < pb.size())
    pa.insert(pa.begin(), 1);
  while (pb.size() < pa.size())
    pb.insert(pb.begin(), 1);
  SmallVector<int64_t> out;
  for (auto [x, y] : llvm::zip(pa, pb)) {
    if (x != y && x != 1 && y != 1)
      fail(loc, "shapes " + shapeStr(sa) + " and " + shapeStr(sb) +
                    " cannot be broadcast together");
    out.push_back(std::max(x, y));
  }
  checkBlockShape(out, loc); // implicit broadcasts obey the size limit too
  return out;
}

mlir::Value TraceImpl::broadcastTo(mlir::Value v, ArrayRef<int64_t> shape,
                                   std::source_location loc) {
  ArrayRef<int64_t> from = mlir::ktc::getShapeOrScalar(v.getType());
  if (from == shape)
    return v;
  Location l = this->loc(loc);
  Type element = getElementTypeOrSelf(v.getType());
  if (shape.empty())
    fail(loc, "cannot turn a " + shapeStr(from) + " block into a scalar");
  if (from.empty())
    return mlir::ktc::SplatOp::create(
        b, l, RankedTensorType::get(shape, element), v);
  if (from.size() > shape.size())
    fail(loc, "cannot broadcast a " + shapeStr(from) + " block to " +
                  shapeStr(shape));
  while (mlir::ktc::getShapeOrScalar(v.getType()).size() < shape.size())
    v = mlir::ktc::ExpandDimsOp::create(b, l, v, 0);
  from = mlir::ktc::getShapeOrScalar(v.getType());
  for (auto [x, y] : llvm::zip(from, shape))
    if (x != y && x != 1)
      fail(loc, "cannot broadcast a " + shapeStr(from) + " block to " +
                    shapeStr(shape));
  if (from == shape)
    return v;
  return mlir::ktc::BroadcastOp::create(
      b, l, RankedTensorType::get(shape, element), v);
}

/// The element type two numbers promote to, and whether it is unsigned
/// (Triton's rules, docs/builder.md#element-types): floats win over
/// integers, the wider float wins (f16 with bf16: f32); between integers the
/// wider wins, an unsigned one also at equal width.
static std::pair<Type, bool> promote(Type a, bool ua, Type b, bool ub) {
  auto fa = dyn_cast<FloatType>(a), fb = dyn_cast<FloatType>(b);
  if (fa && fb) {
    if (a == b)
      return {a, false};
    if (fa.getWidth() == fb.getWidth() || std::max(fa.getWidth(), fb.getWidth()) < 32)
      return {Float32Type::get(a.getContext()), false};
    return {fa.getWidth() > fb.getWidth() ? a : b, false};
  }
  if (fa)
    return {a, false};
  if (fb)
    return {b, false};
  unsigned wa = cast<IntegerType>(a).getWidth();
  unsigned wb = cast<IntegerType>(b).getWidth();
  if (wa == 1 || wb == 1)
    return wa >= wb ? std::pair{a, ua} : std::pair{b, ub};
  if (ua == ub)
    return wa >= wb ? std::pair{a, ua} : std::pair{b, ub};
  if (ua)
    return wa >= wb ? std::pair{a, true} : std::pair{b, false};
  return wb >= wa ? std::pair{b, true} : std::pair{a, false};
}

/// Integer x / y, x % y or cdiv(x, y) (signed, same type and shape), with a
/// result for every operand, on every target (RISC-V's): x / 0 = -1,
/// x % 0 = x, cdiv(x, 0) = -1; MIN / -1 = MIN, MIN % -1 = 0. The host CPU
/// would raise SIGFPE on both, also in lanes a mask turned off, so the
/// divisor becomes 1 there and the result is chosen after. A literal
/// divisor other than 0 and -1 folds all of it away.
mlir::Value integerDivision(TraceImpl &t, IntDivision kind, mlir::Value x,
                            mlir::Value y, std::source_location loc) {
  Location l = t.loc(loc);
  auto type = cast<IntegerType>(getElementTypeOrSelf(x.getType()));
  SmallVector<int64_t> shape(mlir::ktc::getShapeOrScalar(x.getType()));
  auto constant = [&](const APInt &v) {
    return t.broadcastTo(
        arith::ConstantOp::create(t.b, l, t.b.getIntegerAttr(type, v)), shape,
        loc);
  };
  unsigned width = type.getWidth();
  mlir::Value one = constant(APInt(width, 1));
  mlir::Value minusOne = constant(APInt::getAllOnes(width));
  using P = arith::CmpIPredicate;
  mlir::Value byZero = arith::CmpIOp::create(
      t.b, l, P::eq, y, constant(APInt::getZero(width)));
  if (t.isUnsigned(x)) { // x / 0 = x cdiv 0 = MAX, x % 0 = x
    mlir::Value divisor = arith::SelectOp::create(t.b, l, byZero, one, y);
    mlir::Value r;
    switch (kind) {
    case IntDivision::Div:
      r = arith::DivUIOp::create(t.b, l, x, divisor);
      break;
    case IntDivision::Rem:
      return t.markUnsigned(
          arith::SelectOp::create(t.b, l, byZero, x,
                                  arith::RemUIOp::create(t.b, l, x, divisor)),
          true);
    case IntDivision::CeilDiv:
      r = arith::CeilDivUIOp::create(t.b, l, x, divisor);
      break;
    }
    return t.markUnsigned(
        arith::SelectOp::create(t.b, l, byZero, minusOne, r), true);
  }
  // MIN / -1 overflows: divide by 1 there (MIN, the wrapped quotient).
  // x % -1 is 0 = x % 1 for every x, so the remainder's guard looks at y
  // alone.
  mlir::Value overflow =
      kind == IntDivision::Rem
          ? arith::CmpIOp::create(t.b, l, P::eq, y, minusOne).getResult()
          : arith::AndIOp::create(
                t.b, l,
                arith::CmpIOp::create(
                    t.b, l, P::eq, x,
                    constant(APInt::getSignedMinValue(width))),
                arith::CmpIOp::create(t.b, l, P::eq, y, minusOne))
                .getResult();
  mlir::Value divisor = arith::SelectOp::create(
      t.b, l, arith::OrIOp::create(t.b, l, byZero, overflow), one, y);
  switch (kind) {
  case IntDivision::Div:
    return arith::SelectOp::create(
        t.b, l, byZero, minusOne, arith::DivSIOp::create(t.b, l, x, divisor));
  case IntDivision::Rem:
    return arith::SelectOp::create(t.b, l, byZero, x,
                                   arith::RemSIOp::create(t.b, l, x, divisor));
  case IntDivision::CeilDiv:
    return arith::SelectOp::create(
        t.b, l, byZero, minusOne,
        arith::CeilDivSIOp::create(t.b, l, x, divisor));
  }
  llvm_unreachable("unknown division");
}

/// Two operands resolved, promoted to one element type and broadcast to one
/// shape. Fails on pointers (callers handle pointer arithmetic first).
std::pair<mlir::Value, mlir::Value>
binaryOperands(TraceImpl &t, const Operand &a, const Operand &b,
               const char *what, std::source_location loc) {
  auto [va, vb] = t.resolvePair(a, b, loc);
  Type ea = getElementTypeOrSelf(va.getType());
  Type eb = getElementTypeOrSelf(vb.getType());
  if (isa<PtrType>(ea) || isa<PtrType>(eb))
    t.fail(loc, std::string("operator ") + what +
                    " is not defined on pointers (" + typeStr(va.getType()) +
                    ", " + typeStr(vb.getType()) + ")");
  for (mlir::Value v : {va, vb})
    if (isa<Float8E4M3FNType, Float8E5M2Type>(getElementTypeOrSelf(v.getType())))
      t.fail(loc, typeStr(v.getType()) +
                      " is a storage type (load, store, convert), not an "
                      "operand of " + what +
                      "; convert it with .to(ktc::DType::f32) first");
  auto [e, u] = promote(ea, t.isUnsigned(va), eb, t.isUnsigned(vb));
  va = t.castTo(va, e, loc, u);
  vb = t.castTo(vb, e, loc, u);
  SmallVector<int64_t> shape = t.broadcastShape(va.getType(), vb.getType(), loc);
  return {t.broadcastTo(va, shape, loc), t.broadcastTo(vb, shape, loc)};
}

/// ptr +/- integer, or nothing when neither operand is a pointer.
static std::optional<Value> pointerArith(TraceImpl &t, const Operand &a,
                                         const Operand &b, bool subtract,
                                         std::source_location loc) {
  auto isPtr = [](const Operand &o) {
    return o.kind() == Operand::Kind::Value && o.value().valid() &&
           o.value().is_pointer();
  };
  bool pa = isPtr(a), pb = isPtr(b);
  if (!pa && !pb)
    return std::nullopt;
  if (pa && pb)
    t.fail(loc, std::string("cannot ") + (subtract ? "subtract" : "add") +
                    " two pointers");
  if (pb && subtract)
    t.fail(loc, "cannot subtract a pointer from an integer");
  const Operand &ptrOp = pa ? a : b, &offOp = pa ? b : a;
  mlir::Value ptr = t.resolve(ptrOp, {}, loc);
  mlir::Value off = t.resolve(offOp, {}, loc);
  Type offElement = getElementTypeOrSelf(off.getType());
  if (!offElement.isInteger(32) && !offElement.isInteger(64)) {
    if (offElement.isInteger(1))
      off = t.castTo(off, t.b.getI32Type(), loc);
    else
      t.fail(loc, "a pointer moves by i32 or i64 offsets, not " +
                      typeStr(off.getType()));
  }
  Location l = t.loc(loc);
  if (subtract) {
    mlir::Value zero = t.broadcastTo(
        arith::ConstantOp::create(t.b, l, t.b.getIntegerAttr(getElementTypeOrSelf(off.getType()), 0)),
        mlir::ktc::getShapeOrScalar(off.getType()), loc);
    off = arith::SubIOp::create(t.b, l, zero, off);
  }
  SmallVector<int64_t> shape = t.broadcastShape(ptr.getType(), off.getType(), loc);
  ptr = t.broadcastTo(ptr, shape, loc);
  off = t.broadcastTo(off, shape, loc);
  return t.wrap(mlir::ktc::AddPtrOp::create(t.b, l, ptr.getType(), ptr, off));
}

} // namespace detail

using detail::TraceImpl;

namespace {
/// The location of a binary expression: the left operand's when it is not a
/// literal (the conversion of a literal happens at the same place anyway).
std::source_location exprLoc(const Operand &a, const Operand &b) {
  return a.kind() == Operand::Kind::Value ? a.loc() : b.loc();
}

template <typename IntOp, typename FloatOp>
Value arithmetic(const Operand &a, const Operand &b, const char *what) {
  std::source_location loc = exprLoc(a, b);
  TraceImpl &t = TraceImpl::current(loc);
  auto [x, y] = detail::binaryOperands(t, a, b, what, loc);
  Location l = t.loc(loc);
  Type e = getElementTypeOrSelf(x.getType());
  if (isa<FloatType>(e))
    return t.wrap(FloatOp::create(t.b, l, x, y));
  if (e.isInteger(1)) { // arithmetic on booleans happens in i32
    x = t.castTo(x, t.b.getI32Type(), loc);
    y = t.castTo(y, t.b.getI32Type(), loc);
  }
  if constexpr (std::is_same_v<IntOp, arith::DivSIOp>)
    return t.wrap(
        detail::integerDivision(t, detail::IntDivision::Div, x, y, loc));
  else if constexpr (std::is_same_v<IntOp, arith::RemSIOp>)
    return t.wrap(
        detail::integerDivision(t, detail::IntDivision::Rem, x, y, loc));
  else
    return t.wrap(IntOp::create(t.b, l, x, y));
}

Value compare(const Operand &a, const Operand &b, arith::CmpIPredicate ip,
              arith::CmpIPredicate up, arith::CmpFPredicate fp,
              const char *what) {
  std::source_location loc = exprLoc(a, b);
  TraceImpl &t = TraceImpl::current(loc);
  auto [x, y] = detail::binaryOperands(t, a, b, what, loc);
  Location l = t.loc(loc);
  Type e = getElementTypeOrSelf(x.getType());
  if (isa<FloatType>(e))
    return t.wrap(arith::CmpFOp::create(t.b, l, fp, x, y));
  return t.wrap(arith::CmpIOp::create(
      t.b, l, e.isInteger(1) || t.isUnsigned(x) ? up : ip, x, y));
}

template <typename IntOp>
Value bitwise(const Operand &a, const Operand &b, const char *what) {
  std::source_location loc = exprLoc(a, b);
  TraceImpl &t = TraceImpl::current(loc);
  auto [x, y] = detail::binaryOperands(t, a, b, what, loc);
  if (isa<FloatType>(getElementTypeOrSelf(x.getType())))
    t.fail(loc, std::string("operator ") + what +
                    " needs integers or booleans, not " +
                    detail::typeStr(x.getType()));
  return t.wrap(IntOp::create(t.b, t.loc(loc), x, y));
}
} // namespace

Value operator+(const Operand &a, const Operand &b) {
  std::source_location loc = exprLoc(a, b);
  if (auto p = detail::pointerArith(TraceImpl::current(loc), a, b, false, loc))
    return *p;
  return arithmetic<arith::AddIOp, arith::AddFOp>(a, b, "+");
}
Value operator-(const Operand &a, const Operand &b) {
  std::source_location loc = exprLoc(a, b);
  if (auto p = detail::pointerArith(TraceImpl::current(loc), a, b, true, loc))
    return *p;
  return arithmetic<arith::SubIOp, arith::SubFOp>(a, b, "-");
}
Value operator*(const Operand &a, const Operand &b) {
  return arithmetic<arith::MulIOp, arith::MulFOp>(a, b, "*");
}
Value operator/(const Operand &a, const Operand &b) {
  return arithmetic<arith::DivSIOp, arith::DivFOp>(a, b, "/");
}
Value operator%(const Operand &a, const Operand &b) {
  return arithmetic<arith::RemSIOp, arith::RemFOp>(a, b, "%");
}

using IP = arith::CmpIPredicate;
using FP = arith::CmpFPredicate;
Value operator<(const Operand &a, const Operand &b) {
  return compare(a, b, IP::slt, IP::ult, FP::OLT, "<");
}
Value operator<=(const Operand &a, const Operand &b) {
  return compare(a, b, IP::sle, IP::ule, FP::OLE, "<=");
}
Value operator>(const Operand &a, const Operand &b) {
  return compare(a, b, IP::sgt, IP::ugt, FP::OGT, ">");
}
Value operator>=(const Operand &a, const Operand &b) {
  return compare(a, b, IP::sge, IP::uge, FP::OGE, ">=");
}
Value operator==(const Operand &a, const Operand &b) {
  return compare(a, b, IP::eq, IP::eq, FP::OEQ, "==");
}
Value operator!=(const Operand &a, const Operand &b) {
  return compare(a, b, IP::ne, IP::ne, FP::UNE, "!=");
}
Value operator&(const Operand &a, const Operand &b) {
  return bitwise<arith::AndIOp>(a, b, "&");
}
Value operator|(const Operand &a, const Operand &b) {
  return bitwise<arith::OrIOp>(a, b, "|");
}
Value operator^(const Operand &a, const Operand &b) {
  return bitwise<arith::XOrIOp>(a, b, "^");
}

Value operator-(const Operand &a) {
  TraceImpl &t = TraceImpl::current(a.loc());
  mlir::Value x = t.resolve(a, {}, a.loc());
  Type e = getElementTypeOrSelf(x.getType());
  if (isa<FloatType>(e))
    return t.wrap(arith::NegFOp::create(t.b, t.loc(a.loc()), x));
  if (isa<mlir::ktc::PtrType>(e) || e.isInteger(1))
    t.fail(a.loc(), "unary - is not defined on " + detail::typeStr(x.getType()));
  return Operand(0, a.loc()) - Operand(t.wrap(x), a.loc());
}

Value operator!(const Operand &a) {
  TraceImpl &t = TraceImpl::current(a.loc());
  mlir::Value x = t.resolve(a, {}, a.loc());
  Type e = getElementTypeOrSelf(x.getType());
  if (!isa<IntegerType>(e))
    t.fail(a.loc(), "operator ! needs a boolean or an integer, not " +
                        detail::typeStr(x.getType()));
  if (e.isInteger(1))
    return Operand(t.wrap(x), a.loc()) ^ Operand(true, a.loc());
  return Operand(t.wrap(x), a.loc()) == Operand(0, a.loc());
}

Value operator~(const Operand &a) {
  TraceImpl &t = TraceImpl::current(a.loc());
  mlir::Value x = t.resolve(a, {}, a.loc());
  Type e = getElementTypeOrSelf(x.getType());
  if (!isa<IntegerType>(e))
    t.fail(a.loc(), "operator ~ needs a boolean or an integer, not " +
                        detail::typeStr(x.getType()));
  if (e.isInteger(1))
    return Operand(t.wrap(x), a.loc()) ^ Operand(true, a.loc());
  return Operand(t.wrap(x), a.loc()) ^ Operand(-1, a.loc());
}

} // namespace ktc
