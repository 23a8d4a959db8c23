//===- Types.cpp - signedness, conversions between element types, fp8 -----===//
//
// The IR's integers are signless (arith's rule); whether a value is unsigned
// is the tracer's knowledge (TraceImpl::isUnsigned), from which the
// operators pick udiv/ult/shrui/extui/uitofp. Conversions: integers extend
// by the source's signedness; floats become integers truncating toward zero
// and saturating (NaN -> 0), the same on every target; fp8 is converted by
// integer bit manipulation, written here, so that every target rounds alike
// (docs/numerics.md#fp8).
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;

namespace ktc::detail {

using mlir::ktc::PtrType;
using P = arith::CmpIPredicate;

/// The element type of a value, or what its pointers point to.
static Type scalarOf(Type t) {
  t = getElementTypeOrSelf(t);
  if (auto ptr = dyn_cast<PtrType>(t))
    return ptr.getPointeeType();
  return t;
}

bool TraceImpl::isUnsigned(mlir::Value v) const {
  if (auto it = signedness.find(v); it != signedness.end())
    return it->second;
  Type e = scalarOf(v.getType());
  if (!isa<IntegerType>(e) || e.isInteger(1))
    return false;
  signedness[v] = false; // a loop's carried values refer back to themselves
  auto anyOperand = [&](Operation *op) {
    return llvm::any_of(op->getOperands(), [&](mlir::Value o) {
      return scalarOf(o.getType()) == e && isUnsigned(o);
    });
  };
  bool u = false;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *parent = arg.getOwner()->getParentOp();
    unsigned n = arg.getArgNumber();
    if (auto f = dyn_cast<scf::ForOp>(parent))
      u = isUnsigned(n == 0 ? f.getLowerBound() : f.getInitArgs()[n - 1]);
    else if (auto w = dyn_cast<scf::WhileOp>(parent)) // each Var its own
      u = isUnsigned(w.getInits()[n]);
    else if (parent && !isa<func::FuncOp>(parent))
      u = anyOperand(parent); // a combine region's arguments
  } else if (Operation *op = v.getDefiningOp()) {
    unsigned n = cast<OpResult>(v).getResultNumber();
    if (auto f = dyn_cast<scf::ForOp>(op))
      u = isUnsigned(f.getInitArgs()[n]);
    else if (auto i = dyn_cast<scf::IfOp>(op))
      u = isUnsigned(i.thenYield().getOperand(n));
    else if (auto w = dyn_cast<scf::WhileOp>(op))
      u = isUnsigned(w.getInits()[n]);
    else
      u = anyOperand(op);
  }
  signedness[v] = u;
  return u;
}

DType TraceImpl::dtypeOf(mlir::Value v) const {
  return fromMlir(scalarOf(v.getType()), isUnsigned(v));
}

mlir::Value TraceImpl::castTo(mlir::Value v, DType to,
                              std::source_location loc) {
  std::optional<bool> u;
  if (is_int(to) && to != DType::i1)
    u = is_unsigned(to);
  return castTo(v, toMlir(to, ctx), loc, u);
}

namespace {
/// Integer constants of one element type and shape (for the fp8 and
/// saturation code below).
struct Consts {
  TraceImpl &t;
  Location l;
  Type element;
  SmallVector<int64_t> shape;
  std::source_location loc;
  mlir::Value operator()(int64_t v) const {
    TypedAttr a = isa<FloatType>(element)
                      ? TypedAttr(t.b.getFloatAttr(element, double(v)))
                      : TypedAttr(t.b.getIntegerAttr(element, v));
    return f(a);
  }
  mlir::Value f(TypedAttr a) const {
    return t.broadcastTo(arith::ConstantOp::create(t.b, l, a), shape, loc);
  }
};

struct Fp8Format {
  unsigned mantissa, bias;
  uint8_t maxCode, overflowCode; // the largest finite code; what overflows to
  bool hasInf;
};
Fp8Format fp8Format(Type t) {
  if (isa<Float8E4M3FNType>(t))
    return {3, 7, 0x7E, 0x7F, false}; // 448; past it: NaN (no infinities)
  return {2, 15, 0x7B, 0x7C, true};   // 57344; past it: infinity
}
} // namespace

/// x >> s rounded to nearest, ties to even (x unsigned, 1 <= s < width).
static mlir::Value shiftRne(TraceImpl &t, Location l, const Consts &c,
                            mlir::Value x, mlir::Value s) {
  mlir::Value one = c(1);
  mlir::Value q = arith::ShRUIOp::create(t.b, l, x, s);
  mlir::Value half =
      arith::ShLIOp::create(t.b, l, one, arith::SubIOp::create(t.b, l, s, one));
  mlir::Value rem = arith::AndIOp::create(
      t.b, l, x,
      arith::SubIOp::create(t.b, l, arith::ShLIOp::create(t.b, l, one, s),
                            one));
  mlir::Value odd = arith::CmpIOp::create(
      t.b, l, P::ne, arith::AndIOp::create(t.b, l, q, one), c(0));
  mlir::Value up = arith::OrIOp::create(
      t.b, l, arith::CmpIOp::create(t.b, l, P::ugt, rem, half),
      arith::AndIOp::create(
          t.b, l, arith::CmpIOp::create(t.b, l, P::eq, rem, half), odd));
  return arith::AddIOp::create(
      t.b, l, q, arith::ExtUIOp::create(t.b, l, q.getType(), up));
}

/// f16/bf16/f32/f64 -> fp8, rounded once to nearest even, from the bits.
static mlir::Value floatToFp8(TraceImpl &t, mlir::Value v, Type to,
                              std::source_location loc) {
  Location l = t.loc(loc);
  auto from = cast<FloatType>(getElementTypeOrSelf(v.getType()));
  unsigned w = from.getWidth(), m = from.getFPMantissaWidth() - 1;
  int64_t srcBias = (int64_t(1) << (w - m - 2)) - 1;
  Fp8Format f = fp8Format(to);
  Type iw = t.b.getIntegerType(w);
  Consts c{t, l, iw, SmallVector<int64_t>(
                         mlir::ktc::getShapeOrScalar(v.getType())), loc};
  mlir::Value bits = arith::BitcastOp::create(
      t.b, l, mlir::ktc::getSameShape(v.getType(), iw), v);
  mlir::Value sign = arith::ShRUIOp::create(t.b, l, bits, c(w - 1));
  mlir::Value abs = arith::AndIOp::create(
      t.b, l, bits, c.f(t.b.getIntegerAttr(iw, APInt::getSignedMaxValue(w))));
  int64_t adjust = srcBias - f.bias; // the exponents' bias difference
  // Normal in fp8: rebias, round away the mantissa bits fp8 lacks.
  mlir::Value normal = shiftRne(
      t, l, c, arith::SubIOp::create(t.b, l, abs, c(adjust << m)),
      c(m - f.mantissa));
  // Subnormal in fp8: the significand, shifted by how far below fp8's
  // smallest normal it is (at most m + 2: all of it rounds to 0 there).
  mlir::Value exponent = arith::ShRUIOp::create(t.b, l, abs, c(m));
  mlir::Value isSubnormal = arith::CmpIOp::create(t.b, l, P::eq, exponent, c(0));
  mlir::Value mant = arith::AndIOp::create(t.b, l, abs,
                                           c((int64_t(1) << m) - 1));
  mlir::Value sig = arith::SelectOp::create(
      t.b, l, isSubnormal, mant,
      arith::OrIOp::create(t.b, l, mant, c(int64_t(1) << m)));
  mlir::Value eEff =
      arith::SelectOp::create(t.b, l, isSubnormal, c(1), exponent);
  mlir::Value s = arith::SubIOp::create(
      t.b, l, c(int64_t(m - f.mantissa + 1 + adjust)), eEff);
  s = arith::MinUIOp::create(t.b, l, s, c(m + 2));
  mlir::Value small = shiftRne(t, l, c, sig, s);
  mlir::Value isNormal =
      arith::CmpIOp::create(t.b, l, P::uge, abs, c((adjust + 1) << m));
  mlir::Value r = arith::SelectOp::create(t.b, l, isNormal, normal, small);
  r = arith::SelectOp::create(
      t.b, l, arith::CmpIOp::create(t.b, l, P::ugt, r, c(f.maxCode)),
      c(f.overflowCode), r);
  int64_t infBits = ((int64_t(1) << (w - 1 - m)) - 1) << m;
  r = arith::SelectOp::create(
      t.b, l, arith::CmpIOp::create(t.b, l, P::ugt, abs, c(infBits)), c(0x7F),
      r);
  r = arith::OrIOp::create(t.b, l, r,
                           arith::ShLIOp::create(t.b, l, sign, c(7)));
  Type i8 = mlir::ktc::getSameShape(v.getType(), t.b.getI8Type());
  r = arith::TruncIOp::create(t.b, l, i8, r);
  return arith::BitcastOp::create(t.b, l,
                                  mlir::ktc::getSameShape(v.getType(), to), r);
}

/// fp8 -> f32, exactly (every fp8 number is an f32 number). NaN becomes the
/// quiet NaN 0x7fc00000 with the fp8 sign.
static mlir::Value fp8ToF32(TraceImpl &t, mlir::Value v,
                            std::source_location loc) {
  Location l = t.loc(loc);
  Fp8Format f = fp8Format(getElementTypeOrSelf(v.getType()));
  Type i32 = t.b.getI32Type(), f32 = t.b.getF32Type();
  SmallVector<int64_t> shape(mlir::ktc::getShapeOrScalar(v.getType()));
  Consts c{t, l, i32, shape, loc};
  Type i8s = mlir::ktc::getSameShape(v.getType(), t.b.getI8Type());
  Type i32s = mlir::ktc::getSameShape(v.getType(), i32);
  Type f32s = mlir::ktc::getSameShape(v.getType(), f32);
  mlir::Value x = arith::ExtUIOp::create(
      t.b, l, i32s, arith::BitcastOp::create(t.b, l, i8s, v));
  unsigned m = f.mantissa;
  mlir::Value sign = arith::ShLIOp::create(
      t.b, l, arith::AndIOp::create(t.b, l, x, c(0x80)), c(24));
  mlir::Value abs = arith::AndIOp::create(t.b, l, x, c(0x7F));
  mlir::Value exponent = arith::ShRUIOp::create(t.b, l, abs, c(m));
  mlir::Value mant = arith::AndIOp::create(t.b, l, abs, c((1 << m) - 1));
  mlir::Value normal = arith::AddIOp::create(
      t.b, l, arith::ShLIOp::create(t.b, l, abs, c(23 - m)),
      c(int64_t(127 - f.bias) << 23));
  // Subnormal: mant * 2^(1 - bias - m), exact in f32 (and never an f32
  // subnormal, so flushing targets agree).
  Consts cf{t, l, f32, shape, loc};
  mlir::Value subnormal = arith::BitcastOp::create(
      t.b, l, i32s,
      arith::MulFOp::create(
          t.b, l, arith::UIToFPOp::create(t.b, l, f32s, mant),
          cf.f(t.b.getF32FloatAttr(std::ldexp(1.0f, 1 - int(f.bias) - int(m))))));
  mlir::Value r = arith::SelectOp::create(
      t.b, l, arith::CmpIOp::create(t.b, l, P::eq, exponent, c(0)), subnormal,
      normal);
  mlir::Value special, value;
  if (f.hasInf) { // e5m2: exponent 31 is infinity (mantissa 0) or NaN
    special = arith::CmpIOp::create(t.b, l, P::eq, exponent, c(31));
    value = arith::SelectOp::create(
        t.b, l, arith::CmpIOp::create(t.b, l, P::eq, mant, c(0)),
        c(0x7F800000), c(0x7FC00000));
  } else { // e4m3fn: 0x7f is NaN
    special = arith::CmpIOp::create(t.b, l, P::eq, abs, c(0x7F));
    value = c(0x7FC00000);
  }
  r = arith::SelectOp::create(t.b, l, special, value, r);
  r = arith::OrIOp::create(t.b, l, r, sign);
  return arith::BitcastOp::create(t.b, l, f32s, r);
}

/// Float -> integer, truncating toward zero, saturating: NaN -> 0, past the
/// range -> the nearest end (fptosi/fptoui alone are poison there).
static mlir::Value floatToInt(TraceImpl &t, mlir::Value v, IntegerType to,
                              bool toUnsigned, std::source_location loc) {
  Location l = t.loc(loc);
  Type from = getElementTypeOrSelf(v.getType());
  SmallVector<int64_t> shape(mlir::ktc::getShapeOrScalar(v.getType()));
  Consts ci{t, l, to, shape, loc};
  Consts cf{t, l, from, shape, loc};
  unsigned w = to.getWidth();
  Type target = mlir::ktc::getSameShape(v.getType(), to);
  mlir::Value r =
      toUnsigned ? arith::FPToUIOp::create(t.b, l, target, v).getResult()
                 : arith::FPToSIOp::create(t.b, l, target, v).getResult();
  using FP = arith::CmpFPredicate;
  // 2^w or 2^(w-1) (infinity in a type too narrow for it, which is right).
  mlir::Value hi = cf.f(t.b.getFloatAttr(from, std::ldexp(1.0, w - !toUnsigned)));
  mlir::Value lo = toUnsigned ? cf(0) : cf.f(t.b.getFloatAttr(from, -std::ldexp(1.0, w - 1)));
  APInt max = toUnsigned ? APInt::getMaxValue(w) : APInt::getSignedMaxValue(w);
  APInt min = toUnsigned ? APInt::getZero(w) : APInt::getSignedMinValue(w);
  r = arith::SelectOp::create(t.b, l,
                              arith::CmpFOp::create(t.b, l, FP::OGE, v, hi),
                              ci.f(t.b.getIntegerAttr(to, max)), r);
  r = arith::SelectOp::create(t.b, l,
                              arith::CmpFOp::create(t.b, l, FP::OLT, v, lo),
                              ci.f(t.b.getIntegerAttr(to, min)), r);
  return arith::SelectOp::create(
      t.b, l, arith::CmpFOp::create(t.b, l, FP::UNO, v, v), ci(0), r);
}

/// f64 -> f32 rounded to odd (toward zero, then the last bit set if the
/// result is inexact): rounding that once more to nearest even, to a type
/// of at most 22 significant bits (f16, bf16), rounds the f64 once. NaNs
/// and infinities pass as fptrunc gives them.
static mlir::Value f64ToF32RoundedToOdd(TraceImpl &t, mlir::Value v,
                                        std::source_location loc) {
  Location l = t.loc(loc);
  Type i32 = t.b.getI32Type();
  SmallVector<int64_t> shape(mlir::ktc::getShapeOrScalar(v.getType()));
  Consts c{t, l, i32, shape, loc};
  Type f32s = mlir::ktc::getSameShape(v.getType(), t.b.getF32Type());
  Type i32s = mlir::ktc::getSameShape(v.getType(), i32);
  mlir::Value r = arith::TruncFOp::create(t.b, l, f32s, v);
  mlir::Value back = arith::ExtFOp::create(t.b, l, v.getType(), r);
  using FP = arith::CmpFPredicate;
  // Rounded away from zero: one step back (the bits are sign-magnitude).
  mlir::Value away = arith::CmpFOp::create(
      t.b, l, FP::OGT, math::AbsFOp::create(t.b, l, back),
      math::AbsFOp::create(t.b, l, v));
  mlir::Value bits = arith::BitcastOp::create(t.b, l, i32s, r);
  bits = arith::SelectOp::create(t.b, l, away,
                                 arith::SubIOp::create(t.b, l, bits, c(1)),
                                 bits);
  mlir::Value inexact = arith::CmpFOp::create(t.b, l, FP::ONE, back, v);
  bits = arith::SelectOp::create(t.b, l, inexact,
                                 arith::OrIOp::create(t.b, l, bits, c(1)),
                                 bits);
  return arith::BitcastOp::create(t.b, l, f32s, bits);
}

mlir::Value TraceImpl::castTo(mlir::Value v, Type to, std::source_location loc,
                              std::optional<bool> toUnsigned) {
  Type from = getElementTypeOrSelf(v.getType());
  bool fromU = isUnsigned(v), toU = toUnsigned.value_or(false);
  Location l = this->loc(loc);
  if (from == to) {
    if (!toUnsigned || fromU == toU || !isa<IntegerType>(to) ||
        to.isInteger(1))
      return v;
    // The same bits read with the other signedness: a value of its own.
    return markUnsigned(arith::BitcastOp::create(b, l, v.getType(), v), toU);
  }
  if (isa<PtrType>(from) || isa<PtrType>(to))
    fail(loc, "cannot convert " + typeStr(from) + " to " + typeStr(to) +
                  ": pointers only move by integer offsets");
  Type target = mlir::ktc::getSameShape(v.getType(), to);
  auto fp8 = [](Type t) {
    return isa<Float8E4M3FNType, Float8E5M2Type>(t);
  };
  if (fp8(from))
    return castTo(fp8ToF32(*this, v, loc), to, loc, toUnsigned);
  if (fp8(to)) {
    if (!isa<FloatType>(from))
      v = castTo(v, b.getF32Type(), loc);
    return floatToFp8(*this, v, to, loc);
  }
  auto fromInt = dyn_cast<IntegerType>(from);
  auto toInt = dyn_cast<IntegerType>(to);
  auto mark = [&](mlir::Value r) { return markUnsigned(r, toU); };
  if (fromInt && toInt) {
    if (toInt.getWidth() == 1) {
      mlir::Value zero = broadcastTo(
          arith::ConstantOp::create(b, l, b.getIntegerAttr(from, 0)),
          mlir::ktc::getShapeOrScalar(v.getType()), loc);
      return arith::CmpIOp::create(b, l, P::ne, v, zero);
    }
    if (fromInt.getWidth() < toInt.getWidth())
      return mark(fromInt.getWidth() == 1 || fromU
                      ? arith::ExtUIOp::create(b, l, target, v).getResult()
                      : arith::ExtSIOp::create(b, l, target, v).getResult());
    return mark(arith::TruncIOp::create(b, l, target, v));
  }
  if (fromInt) {
    if (fromInt.getWidth() == 1 || fromU)
      return arith::UIToFPOp::create(b, l, target, v);
    return arith::SIToFPOp::create(b, l, target, v);
  }
  if (toInt) {
    if (toInt.getWidth() == 1) {
      mlir::Value zero = broadcastTo(
          arith::ConstantOp::create(b, l, b.getFloatAttr(from, 0.0)),
          mlir::ktc::getShapeOrScalar(v.getType()), loc);
      return arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, v, zero);
    }
    return mark(floatToInt(*this, v, toInt, toU, loc));
  }
  unsigned fromWidth = cast<FloatType>(from).getWidth();
  unsigned toWidth = cast<FloatType>(to).getWidth();
  if (fromWidth == toWidth) // f16 <-> bf16: through f32
    return castTo(castTo(v, b.getF32Type(), loc), to, loc);
  if (fromWidth < toWidth)
    return arith::ExtFOp::create(b, l, target, v);
  if (fromWidth == 64 && toWidth == 16) // one rounding, through f32
    return castTo(f64ToF32RoundedToOdd(*this, v, loc), to, loc);
  return arith::TruncFOp::create(b, l, target, v);
}

} // namespace ktc::detail
