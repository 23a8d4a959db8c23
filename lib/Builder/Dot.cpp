//===- Dot.cpp - dot(a, b, acc) -------------------------------------------===//
//
// The builder's side of ktc.dot: the checks, at the user's line, that the
// dialect's verifier would otherwise make later and less plainly. Without
// an accumulator the product starts from zeros (f32; i32 for i8 operands);
// a scalar accumulator is broadcast.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

using namespace mlir;

namespace ktc {

using detail::TraceImpl;
using detail::typeStr;

static std::string dims(RankedTensorType t) {
  std::string s;
  for (int64_t d : t.getShape())
    s += (s.empty() ? "" : "x") + std::to_string(d);
  return s;
}

Value dot(const Operand &a, const Operand &b, const Operand &acc,
          InputPrecision precision, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value av = t.resolve(a, {}, loc), bv = t.resolve(b, {}, loc);
  auto at = dyn_cast<RankedTensorType>(av.getType());
  auto bt = dyn_cast<RankedTensorType>(bv.getType());
  if (!at || !bt || at.getRank() != 2 || bt.getRank() != 2)
    t.fail(loc, "dot() multiplies two 2-D blocks, got " +
                    typeStr(av.getType()) + " and " + typeStr(bv.getType()));
  if (at.getDimSize(1) != bt.getDimSize(0))
    t.fail(loc, "dot() of a " + dims(at) + " block by a " + dims(bt) +
                    " block: a's columns (" + std::to_string(at.getDimSize(1)) +
                    ") must equal b's rows (" +
                    std::to_string(bt.getDimSize(0)) + ")");
  Type element = at.getElementType();
  if (element != bt.getElementType())
    t.fail(loc, "dot() operands must have one element type, got " +
                    typeStr(element) + " and " + typeStr(bt.getElementType()) +
                    " (cast() one of them)");
  // i8 x i8 -> i32 (the matrix cores' integer products; exact, wrapping
  // modulo 2^32 like the host's sums). Unsigned u8 is not multiplied.
  bool int8 = element.isInteger(8);
  if (int8 && (t.isUnsigned(av) || t.isUnsigned(bv)))
    t.fail(loc, "dot() multiplies signed i8 blocks, got u8 (cast() them to "
                "i8 or to f16)");
  if (!element.isF16() && !element.isBF16() && !element.isF32() && !int8)
    t.fail(loc, "dot() multiplies f16, bf16, f32 or i8 blocks, got " +
                    typeStr(element));
  if (precision == InputPrecision::tf32 && !element.isF32())
    t.fail(loc, "dot() with InputPrecision::tf32 takes f32 operands, got " +
                    typeStr(element));
  SmallVector<int64_t> shape{at.getDimSize(0), bt.getDimSize(1)};
  Type accType = int8 ? Type(IntegerType::get(t.ctx, 32))
                      : Type(Float32Type::get(t.ctx));
  std::string accName = int8 ? "dot() of i8 blocks accumulates in i32"
                             : "dot() accumulates in f32";
  mlir::Value accv;
  if (!acc.present()) {
    accv = t.broadcastTo(
        t.literal(int8 ? Operand(0, loc) : Operand(0.0f, loc), accType, loc),
        shape, loc);
  } else {
    accv = t.resolve(acc, accType, loc);
    auto acct = dyn_cast<RankedTensorType>(accv.getType());
    if (!acct) {
      if (accv.getType() != accType)
        t.fail(loc, accName + ", got a " + typeStr(accv.getType()) +
                        " accumulator");
      accv = t.broadcastTo(accv, shape, loc);
    } else if (acct.getShape() != ArrayRef<int64_t>(shape)) {
      t.fail(loc, "dot() of a " + dims(at) + " block by a " + dims(bt) +
                      " block needs a " + std::to_string(shape[0]) + "x" +
                      std::to_string(shape[1]) + " accumulator, got " +
                      typeStr(acct));
    } else if (acct.getElementType() != accType) {
      t.fail(loc, accName + ", got a " + typeStr(acct) + " accumulator (cast() it to " +
                      typeStr(accType) + ")");
    }
  }
  auto p = precision == InputPrecision::tf32 ? mlir::ktc::InputPrecision::TF32
                                             : mlir::ktc::InputPrecision::IEEE;
  return t.wrap(mlir::ktc::DotOp::create(
      t.b, t.loc(loc), accv.getType(), av, bv, accv,
      mlir::ktc::InputPrecisionAttr::get(t.ctx, p)));
}

} // namespace ktc
