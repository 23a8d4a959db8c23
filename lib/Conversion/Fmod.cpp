//===- Fmod.cpp - f32 remainder as C's fmod, exactly, on the GPUs ----------===//
//
// fmod(x, y) is always exactly representable, so it can be computed without
// rounding error: x = Mx * 2^ex and y = My * 2^ey (mantissas in [1, 2)), and
// fmod(x, y) = 2^ey * fmod(Mx * 2^(ex - ey), My). The exponent difference
// (up to 276) is consumed kBits at a time: the running remainder A < My is
// scaled by 2^kBits, reduced by q = roundeven(A * (1 / My)) whole My
// (q < 2^(kBits + 1), so q * My and the fma are exact, and the result is a
// multiple of 2^-23 below 2: representable), and a negative result (q one
// too large, near a tie) gets My back. The last step scales by the rest.
// Everything is f32 and i32 arithmetic every GPU has: no ldexp/frexp calls
// (NVPTX has no instruction for them), powers of two built from their bits.
//
// The special cases are C's: NaN for an infinite x or a zero y (a NaN
// operand propagates), x for an infinite y or |x| < |y|, a signed zero for
// |x| = |y|; the result has x's sign.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace {

/// Bits of exponent difference consumed per step.
constexpr int kBits = 12;

struct F32Ops {
  OpBuilder &b;
  Location loc;
  Type f32 = b.getF32Type(), i32 = b.getI32Type();

  Value f(float v) {
    return LLVM::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(v));
  }
  Value i(int32_t v) {
    return LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(v));
  }
  Value bits(Value v) { return LLVM::BitcastOp::create(b, loc, i32, v); }
  Value real(Value v) { return LLVM::BitcastOp::create(b, loc, f32, v); }
  Value fcmp(LLVM::FCmpPredicate p, Value x, Value y) {
    return LLVM::FCmpOp::create(b, loc, p, x, y);
  }
  Value icmp(LLVM::ICmpPredicate p, Value x, Value y) {
    return LLVM::ICmpOp::create(b, loc, p, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return LLVM::SelectOp::create(b, loc, c, x, y);
  }
  Value mul(Value x, Value y) { return LLVM::FMulOp::create(b, loc, x, y); }
  Value add(Value x, Value y) { return LLVM::FAddOp::create(b, loc, x, y); }
  Value iadd(Value x, Value y) { return LLVM::AddOp::create(b, loc, x, y); }
  Value isub(Value x, Value y) { return LLVM::SubOp::create(b, loc, x, y); }
  Value orOf(Value x, Value y) { return LLVM::OrOp::create(b, loc, x, y); }
  /// 2^k for an i32 k in [-126, 127].
  Value pow2(Value k) {
    return real(LLVM::ShlOp::create(b, loc, iadd(k, i(127)), i(23)));
  }

  /// The exponent e and mantissa M in [1, 2) of a positive finite v
  /// (subnormals too): v = M * 2^e.
  std::pair<Value, Value> split(Value v) {
    Value sub = fcmp(LLVM::FCmpPredicate::olt, v, f(0x1p-126f));
    Value scaled = bits(select(sub, mul(v, f(0x1p24f)), v));
    Value e = isub(LLVM::LShrOp::create(b, loc, scaled, i(23)),
                   select(sub, i(127 + 24), i(127)));
    Value m = real(orOf(LLVM::AndOp::create(b, loc, scaled, i(0x7fffff)),
                        i(0x3f800000)));
    return {e, m};
  }

  /// a mod my for 0 <= a < 2^(kBits + 1), my in [1, 2): exact, in [0, my).
  Value reduce(Value a, Value my, Value inv) {
    Value q = LLVM::RoundEvenOp::create(b, loc, mul(a, inv));
    Value r = LLVM::FMAOp::create(b, loc, LLVM::FNegOp::create(b, loc, q), my,
                                  a);
    return select(fcmp(LLVM::FCmpPredicate::olt, r, f(0.0f)), add(r, my), r);
  }
};

} // namespace

Value mlir::ktc::exactFmod(OpBuilder &b, Location loc, Value x, Value y) {
  F32Ops o{b, loc};
  using P = LLVM::FCmpPredicate;
  Value ax = LLVM::FAbsOp::create(b, loc, x);
  Value ay = LLVM::FAbsOp::create(b, loc, y);
  Value inf = o.f(INFINITY);
  // The general case: x and y finite, 0 < |y| < |x|. Other operands are
  // replaced by 2 and 1 (one step) and the result by the special case's.
  Value general = LLVM::AndOp::create(
      b, loc, o.fcmp(P::olt, ay, ax),
      LLVM::AndOp::create(b, loc, o.fcmp(P::olt, ax, inf),
                          o.fcmp(P::one, ay, o.f(0.0f))));
  Value gx = o.select(general, ax, o.f(2.0f));
  Value gy = o.select(general, ay, o.f(1.0f));
  auto [ex, mx] = o.split(gx);
  auto [ey, my] = o.split(gy);
  Value inv = LLVM::FDivOp::create(b, loc, o.f(1.0f), my);
  // The remainder so far (< my, or mx before the first step) and the
  // exponent difference still to consume.
  Type f32 = o.f32, i32 = o.i32;
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange{f32, i32}, ValueRange{mx, o.isub(ex, ey)},
      [&](OpBuilder &b, Location loc, ValueRange args) {
        F32Ops in{b, loc};
        Value more = in.icmp(LLVM::ICmpPredicate::sgt, args[1], in.i(kBits));
        scf::ConditionOp::create(b, loc, more, args);
      },
      [&](OpBuilder &b, Location loc, ValueRange args) {
        F32Ops in{b, loc};
        Value a = in.reduce(in.mul(args[0], in.f(float(1 << kBits))), my, inv);
        scf::YieldOp::create(b, loc,
                             ValueRange{a, in.isub(args[1], in.i(kBits))});
      });
  Value a = o.reduce(o.mul(loop.getResult(0), o.pow2(loop.getResult(1))), my,
                     inv);
  // r = a * 2^ey, exactly (the result is representable): in two steps when
  // 2^ey is below the normal range (a subnormal y).
  Value low = o.icmp(LLVM::ICmpPredicate::slt, ey, o.i(-126));
  Value r = o.mul(a, o.pow2(o.select(low, o.iadd(ey, o.i(24)), ey)));
  r = o.select(low, o.mul(r, o.f(0x1p-24f)), r);
  // The special cases.
  Value anyNan = o.fcmp(P::uno, x, y);
  Value invalid = LLVM::OrOp::create(b, loc, o.fcmp(P::oeq, ax, inf),
                                     o.fcmp(P::oeq, ay, o.f(0.0f)));
  Value same = o.fcmp(P::oeq, ax, ay);
  Value result = o.select(general, r, o.select(same, o.f(0.0f), ax));
  result = LLVM::CopySignOp::create(b, loc, result, x);
  result = o.select(invalid, o.f(NAN), result);
  return o.select(anyNan, o.add(x, y), result);
}
