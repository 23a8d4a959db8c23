//===- Math.cpp - math functions, NaN-propagating extrema, bit operations -===//
//
// Issue 19's math: tanh, erf, sin, cos and pow become math dialect ops that
// ktc-expand-math writes as f32 arithmetic every target rounds alike
// (lib/Transforms/ExpandMathFunctions.cpp; f64 in f64 arithmetic,
// ExpandMathF64*.cpp); floor, ceil, rint, round, fma and rsqrt are exact
// IEEE operations (f16/bf16 through f32, where each is exact or, for rsqrt,
// rounded as documented; f32 and f64 in their own type). maximum/minimum/
// clamp with PropagateNan::all are compares and selects, so NaN payloads
// and the sign of zero do not depend on a target's max instruction.
// umulhi, shifts and bitcast are integer operations with a result for every
// operand.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;

namespace ktc {

using detail::TraceImpl;
using detail::typeStr;

namespace detail {
std::pair<mlir::Value, mlir::Value>
binaryOperands(TraceImpl &t, const Operand &a, const Operand &b,
               const char *what, std::source_location loc);
} // namespace detail

namespace {

using FP = arith::CmpFPredicate;

bool isFloat(mlir::Value v) {
  return isa<FloatType>(getElementTypeOrSelf(v.getType()));
}
bool isF32(mlir::Value v) { return getElementTypeOrSelf(v.getType()).isF32(); }

mlir::Value floatOperand(TraceImpl &t, const Operand &x, const char *what,
                         Loc loc) {
  mlir::Value v = t.resolve(x, {}, loc);
  if (!isFloat(v) ||
      isa<Float8E4M3FNType, Float8E5M2Type>(getElementTypeOrSelf(v.getType())))
    t.fail(loc, std::string(what) + "() needs a floating-point operand, got " +
                    typeStr(v.getType()) +
                    "; convert it with .to(ktc::DType::f32)");
  return v;
}

/// Functions ktc-expand-math writes out (f16/bf16 handled there).
template <typename MathOp>
Value expanded(const Operand &x, const char *what, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value v = floatOperand(t, x, what, loc);
  return t.wrap(MathOp::create(t.b, t.loc(loc), v));
}

/// f(x) in f32 for f16/bf16 operands, rounded once to their type; f32 and
/// f64 in their own type.
template <typename F>
Value inF32(const Operand &x, const char *what, Loc loc, F f) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value v = floatOperand(t, x, what, loc);
  Type element = getElementTypeOrSelf(v.getType());
  if (element.isF64())
    return t.wrap(f(t, t.loc(loc), v));
  mlir::Value w = t.castTo(v, t.b.getF32Type(), loc);
  return t.wrap(t.castTo(f(t, t.loc(loc), w), element, loc));
}

template <typename MathOp>
Value exactRounding(const Operand &x, const char *what, Loc loc) {
  return inF32(x, what, loc, [](TraceImpl &t, Location l, mlir::Value w) {
    return MathOp::create(t.b, l, w).getResult();
  });
}

/// A constant of v's type and shape.
mlir::Value constantLike(TraceImpl &t, mlir::Value v, Attribute scalar,
                         Loc loc) {
  mlir::Value c =
      arith::ConstantOp::create(t.b, t.loc(loc), cast<TypedAttr>(scalar));
  return t.broadcastTo(c, mlir::ktc::getShapeOrScalar(v.getType()), loc);
}

/// The location of `a op b` (the left operand's unless it is a literal).
std::source_location exprLoc(const Operand &a, const Operand &b) {
  return a.kind() == Operand::Kind::Value ? a.loc() : b.loc();
}

} // namespace

Value tanh(const Operand &x, Loc loc) {
  return expanded<math::TanhOp>(x, "tanh", loc);
}
Value erf(const Operand &x, Loc loc) {
  return expanded<math::ErfOp>(x, "erf", loc);
}
Value sin(const Operand &x, Loc loc) {
  return expanded<math::SinOp>(x, "sin", loc);
}
Value cos(const Operand &x, Loc loc) {
  return expanded<math::CosOp>(x, "cos", loc);
}
Value floor(const Operand &x, Loc loc) {
  return exactRounding<math::FloorOp>(x, "floor", loc);
}
Value ceil(const Operand &x, Loc loc) {
  return exactRounding<math::CeilOp>(x, "ceil", loc);
}
Value rint(const Operand &x, Loc loc) {
  return exactRounding<math::RoundEvenOp>(x, "rint", loc);
}
Value round(const Operand &x, Loc loc) {
  return exactRounding<math::RoundOp>(x, "round", loc);
}

Value rsqrt(const Operand &x, Loc loc) {
  return inF32(x, "rsqrt", loc, [&](TraceImpl &t, Location l, mlir::Value w) {
    mlir::Value one = constantLike(
        t, w, t.b.getFloatAttr(getElementTypeOrSelf(w.getType()), 1.0), loc);
    return arith::DivFOp::create(t.b, l, one, math::SqrtOp::create(t.b, l, w))
        .getResult();
  });
}

Value pow(const Operand &x, const Operand &y, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  auto [a, b] = detail::binaryOperands(t, x, y, "pow()", loc);
  if (!isFloat(a))
    t.fail(loc, "pow() needs floating-point operands, got " +
                    typeStr(a.getType()) +
                    "; convert them with .to(ktc::DType::f32)");
  return t.wrap(math::PowFOp::create(t.b, t.loc(loc), a, b));
}

Value fma(const Operand &a, const Operand &b, const Operand &c, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  auto [x, y] = detail::binaryOperands(t, a, b, "fma()", loc);
  auto [xc, z] = detail::binaryOperands(t, t.wrap(x), c, "fma()", loc);
  if (xc.getType() != x.getType()) // c widened the type or the shape
    std::tie(y, std::ignore) =
        detail::binaryOperands(t, t.wrap(y), t.wrap(xc), "fma()", loc);
  x = xc;
  if (!isFloat(x))
    t.fail(loc, "fma() needs floating-point operands, got " +
                    typeStr(x.getType()) +
                    "; convert them with .to(ktc::DType::f32)");
  Location l = t.loc(loc);
  if (isF32(x) || getElementTypeOrSelf(x.getType()).isF64())
    return t.wrap(math::FmaOp::create(t.b, l, x, y, z));
  // f16/bf16: s = fma(a, b, c) in f32, rounded to odd when inexact -- f32
  // has more than 2 bits beyond the 16-bit formats, so rounding that once
  // more is the correct rounding. The error comes from two-sum on the
  // product, which is exact in f32 unless a bf16 product leaves f32's range
  // (|a b| >= 2^128 or < 2^-133): those round twice (docs/numerics.md).
  Type element = getElementTypeOrSelf(x.getType());
  Type f32 = t.b.getF32Type();
  mlir::Value xa = t.castTo(x, f32, loc), yb = t.castTo(y, f32, loc);
  mlir::Value w = t.castTo(z, f32, loc);
  mlir::Value p = arith::MulFOp::create(t.b, l, xa, yb);
  mlir::Value s = math::FmaOp::create(t.b, l, xa, yb, w);
  mlir::Value pp = arith::SubFOp::create(t.b, l, s, w);
  mlir::Value ww = arith::SubFOp::create(t.b, l, s, pp);
  mlir::Value err = arith::AddFOp::create(
      t.b, l, arith::SubFOp::create(t.b, l, p, pp),
      arith::SubFOp::create(t.b, l, w, ww));
  if (element.isBF16()) {
    mlir::Value ap = math::AbsFOp::create(t.b, l, p);
    mlir::Value exact = arith::AndIOp::create(
        t.b, l,
        arith::CmpFOp::create(
            t.b, l, FP::OGE, ap,
            constantLike(t, p, t.b.getF32FloatAttr(0x1p-133f), loc)),
        arith::CmpFOp::create(
            t.b, l, FP::OLT, ap,
            constantLike(t, p, t.b.getF32FloatAttr(INFINITY), loc)));
    err = arith::SelectOp::create(
        t.b, l, exact, err,
        constantLike(t, p, t.b.getF32FloatAttr(0.0f), loc));
  }
  Type i32 = mlir::ktc::getSameShape(s.getType(), t.b.getI32Type());
  mlir::Value bits = arith::BitcastOp::create(t.b, l, i32, s);
  auto ci = [&](int32_t v) {
    return constantLike(t, s, t.b.getI32IntegerAttr(v), loc);
  };
  mlir::Value zero = constantLike(t, s, t.b.getF32FloatAttr(0.0f), loc);
  mlir::Value inexact = arith::CmpFOp::create(t.b, l, FP::ONE, err, zero);
  mlir::Value even = arith::CmpIOp::create(
      t.b, l, arith::CmpIPredicate::eq,
      arith::AndIOp::create(t.b, l, bits, ci(1)), ci(0));
  // Toward err: one more in magnitude when err has s's sign.
  mlir::Value sameSign = arith::CmpIOp::create(
      t.b, l, arith::CmpIPredicate::sge,
      arith::XOrIOp::create(
          t.b, l, bits, arith::BitcastOp::create(t.b, l, i32, err)),
      ci(0));
  mlir::Value step = arith::SelectOp::create(t.b, l, sameSign, ci(1), ci(-1));
  mlir::Value odd = arith::BitcastOp::create(
      t.b, l, s.getType(), arith::AddIOp::create(t.b, l, bits, step));
  s = arith::SelectOp::create(t.b, l,
                              arith::AndIOp::create(t.b, l, inexact, even),
                              odd, s);
  return t.wrap(t.castTo(s, element, loc));
}

//===----------------------------------------------------------------------===//
// maximum/minimum/clamp that propagate NaN
//===----------------------------------------------------------------------===//

static Value propagating(const Operand &a, const Operand &b, bool isMax,
                         const char *what, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  auto [x, y] = detail::binaryOperands(t, a, b, what, loc);
  if (!isFloat(x))
    return isMax ? maximum(t.wrap(x), t.wrap(y), loc)
                 : minimum(t.wrap(x), t.wrap(y), loc);
  Location l = t.loc(loc);
  Type element = getElementTypeOrSelf(x.getType());
  mlir::Value zero = constantLike(t, x, t.b.getFloatAttr(element, 0.0), loc);
  mlir::Value r = arith::SelectOp::create(
      t.b, l, arith::CmpFOp::create(t.b, l, isMax ? FP::OGT : FP::OLT, x, y),
      x, y);
  // +-0 against +-0: max is +0 unless both are -0 (x + y), min is -0 unless
  // both are +0 (-(-x - y)).
  mlir::Value zeros = arith::AndIOp::create(
      t.b, l, arith::CmpFOp::create(t.b, l, FP::OEQ, x, zero),
      arith::CmpFOp::create(t.b, l, FP::OEQ, y, zero));
  mlir::Value signedZero =
      isMax ? arith::AddFOp::create(t.b, l, x, y).getResult()
            : arith::NegFOp::create(
                  t.b, l,
                  arith::SubFOp::create(
                      t.b, l, arith::NegFOp::create(t.b, l, x), y))
                  .getResult();
  r = arith::SelectOp::create(t.b, l, zeros, signedZero, r);
  r = arith::SelectOp::create(
      t.b, l, arith::CmpFOp::create(t.b, l, FP::UNO, y, y), y, r);
  r = arith::SelectOp::create(
      t.b, l, arith::CmpFOp::create(t.b, l, FP::UNO, x, x), x, r);
  return t.wrap(r);
}

Value maximum(const Operand &a, const Operand &b, PropagateNan nan, Loc loc) {
  if (nan == PropagateNan::none)
    return maximum(a, b, loc);
  return propagating(a, b, true, "maximum()", loc);
}
Value minimum(const Operand &a, const Operand &b, PropagateNan nan, Loc loc) {
  if (nan == PropagateNan::none)
    return minimum(a, b, loc);
  return propagating(a, b, false, "minimum()", loc);
}

Value clamp(const Operand &x, const Operand &lo, const Operand &hi,
            PropagateNan nan, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value v = t.resolve(x, {}, loc);
  Type e = getElementTypeOrSelf(v.getType());
  if (isa<mlir::ktc::PtrType>(e) || e.isInteger(1))
    t.fail(loc, "clamp() needs numbers, got " + typeStr(v.getType()));
  return minimum(maximum(t.wrap(v), lo, nan, loc), hi, nan, loc);
}

//===----------------------------------------------------------------------===//
// Integers: umulhi, shifts, bitcast
//===----------------------------------------------------------------------===//

/// Integer operands of a bit operation (booleans become i32).
static std::pair<mlir::Value, mlir::Value>
integerOperands(TraceImpl &t, const Operand &a, const Operand &b,
                const std::string &what, Loc loc) {
  auto [x, y] = detail::binaryOperands(t, a, b, what.c_str(), loc);
  Type e = getElementTypeOrSelf(x.getType());
  if (!isa<IntegerType>(e))
    t.fail(loc, what + " needs integers, not " + typeStr(x.getType()));
  if (e.isInteger(1)) {
    x = t.castTo(x, t.b.getI32Type(), loc);
    y = t.castTo(y, t.b.getI32Type(), loc);
  }
  return {x, y};
}

Value umulhi(const Operand &a, const Operand &b, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  auto [x, y] = integerOperands(t, a, b, "umulhi()", loc);
  Location l = t.loc(loc);
  unsigned width = getElementTypeOrSelf(x.getType()).getIntOrFloatBitWidth();
  Type wide = mlir::ktc::getSameShape(x.getType(),
                                      t.b.getIntegerType(2 * width));
  mlir::Value p = arith::MulIOp::create(
      t.b, l, arith::ExtUIOp::create(t.b, l, wide, x),
      arith::ExtUIOp::create(t.b, l, wide, y));
  // A dense constant: ktc.splat takes only ktc's element types, not i128.
  TypedAttr amount = t.b.getIntegerAttr(getElementTypeOrSelf(wide), width);
  if (auto shaped = dyn_cast<ShapedType>(wide))
    amount = SplatElementsAttr::get(shaped, amount);
  mlir::Value shift = arith::ConstantOp::create(t.b, l, amount);
  p = arith::ShRUIOp::create(t.b, l, p, shift);
  return t.wrap(arith::TruncIOp::create(t.b, l, x.getType(), p));
}

static Value shift(const Operand &a, const Operand &b, bool left) {
  Loc loc = exprLoc(a, b);
  TraceImpl &t = TraceImpl::current(loc);
  auto [x, y] = integerOperands(
      t, a, b, left ? "operator <<" : "operator >>", loc);
  Location l = t.loc(loc);
  Type e = getElementTypeOrSelf(x.getType());
  unsigned width = e.getIntOrFloatBitWidth();
  auto c = [&](int64_t v) {
    return constantLike(t, x, t.b.getIntegerAttr(e, v), loc);
  };
  // Negative amounts are huge unsigned ones.
  mlir::Value inRange =
      arith::CmpIOp::create(t.b, l, arith::CmpIPredicate::ult, y, c(width));
  if (left)
    return t.wrap(arith::SelectOp::create(
        t.b, l, inRange, arith::ShLIOp::create(t.b, l, x, y), c(0)));
  if (t.isUnsigned(x)) // logical: 0 past the width
    return t.wrap(t.markUnsigned(
        arith::SelectOp::create(t.b, l, inRange,
                                arith::ShRUIOp::create(t.b, l, x, y), c(0)),
        true));
  mlir::Value amount =
      arith::SelectOp::create(t.b, l, inRange, y, c(width - 1));
  return t.wrap(arith::ShRSIOp::create(t.b, l, x, amount));
}

Value operator<<(const Operand &a, const Operand &b) {
  return shift(a, b, true);
}
Value operator>>(const Operand &a, const Operand &b) {
  return shift(a, b, false);
}

Value bitcast(const Operand &x, DType dtype, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value v = t.resolve(x, {}, loc);
  Type from = getElementTypeOrSelf(v.getType());
  Type to = detail::toMlir(dtype, t.ctx);
  if (isa<mlir::ktc::PtrType>(from))
    t.fail(loc, "bitcast() of a pointer (" + typeStr(v.getType()) +
                    "): pointers only move by integer offsets");
  if (from.getIntOrFloatBitWidth() != to.getIntOrFloatBitWidth())
    t.fail(loc, "bitcast() from " + typeStr(from) + " to " + typeStr(to) +
                    " changes the width (" +
                    std::to_string(from.getIntOrFloatBitWidth()) + " to " +
                    std::to_string(to.getIntOrFloatBitWidth()) +
                    " bits); use cast() to convert values");
  if (from == to)
    return t.wrap(v);
  return t.wrap(arith::BitcastOp::create(
      t.b, t.loc(loc), mlir::ktc::getSameShape(v.getType(), to), v));
}

} // namespace ktc
