//===- Dot.cpp - dot(a, b, acc) -------------------------------------------===//
//
// The builder's side of ktc.dot: the checks, at the user's line, that the
// dialect's verifier would otherwise make later and less plainly. Without
// an accumulator the product starts from f32 zeros; a scalar accumulator
// is broadcast.
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
  if (!element.isF16() && !element.isBF16() && !element.isF32())
    t.fail(loc, "dot() multiplies f16, bf16 or f32 blocks, got " +
                    typeStr(element));
  if (precision == InputPrecision::tf32 && !element.isF32())
    t.fail(loc, "dot() with InputPrecision::tf32 takes f32 operands, got " +
                    typeStr(element));
  SmallVector<int64_t> shape{at.getDimSize(0), bt.getDimSize(1)};
  Type f32 = Float32Type::get(t.ctx);
  mlir::Value accv;
  if (!acc.present()) {
    accv = t.broadcastTo(t.literal(Operand(0.0f, loc), f32, loc), shape, loc);
  } else {
    accv = t.resolve(acc, f32, loc);
    auto acct = dyn_cast<RankedTensorType>(accv.getType());
    if (!acct) {
      if (!accv.getType().isF32())
        t.fail(loc, "dot() accumulates in f32, got a " +
                        typeStr(accv.getType()) + " accumulator");
      accv = t.broadcastTo(accv, shape, loc);
    } else if (acct.getShape() != ArrayRef<int64_t>(shape)) {
      t.fail(loc, "dot() of a " + dims(at) + " block by a " + dims(bt) +
                      " block needs a " + std::to_string(shape[0]) + "x" +
                      std::to_string(shape[1]) + " accumulator, got " +
                      typeStr(acct));
    } else if (!acct.getElementType().isF32()) {
      t.fail(loc, "dot() accumulates in f32, got a " + typeStr(acct) +
                      " accumulator (cast() it to f32)");
    }
  }
  auto p = precision == InputPrecision::tf32 ? mlir::ktc::InputPrecision::TF32
                                             : mlir::ktc::InputPrecision::IEEE;
  return t.wrap(mlir::ktc::DotOp::create(
      t.b, t.loc(loc), accv.getType(), av, bv, accv,
      mlir::ktc::InputPrecisionAttr::get(t.ctx, p)));
}

} // namespace ktc
