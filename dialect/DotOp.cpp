//===- DotOp.cpp - the verifier of ktc.dot --------------------------------===//
//
// A dot is a 2-D matrix product: a (M x K) times b (K x N) plus acc (M x N),
// f16, bf16 or f32 operands of one type and an f32 accumulator, or i8
// operands and an i32 accumulator (exact integer products and sums, modulo
// 2^32). The builder
// (lib/Builder/Dot.cpp) makes the same checks at the user's line; these
// catch hand-written IR.
//
//===----------------------------------------------------------------------===//

#include "dialect/DotOp.h"
#include "dialect/KtcDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::ktc;

LogicalResult DotOp::verify() {
  auto a = cast<RankedTensorType>(getA().getType());
  auto b = cast<RankedTensorType>(getB().getType());
  auto acc = cast<RankedTensorType>(getAcc().getType());
  if (a.getRank() != 2 || b.getRank() != 2 || acc.getRank() != 2)
    return emitOpError("multiplies 2-D blocks, got ")
           << a << " x " << b << " + " << acc;
  if (a.getDimSize(1) != b.getDimSize(0))
    return emitOpError("inner dimensions differ: a is ")
           << a.getDimSize(0) << "x" << a.getDimSize(1) << " and b is "
           << b.getDimSize(0) << "x" << b.getDimSize(1)
           << " (a's columns must be b's rows)";
  if (acc.getDimSize(0) != a.getDimSize(0) ||
      acc.getDimSize(1) != b.getDimSize(1))
    return emitOpError("accumulator must be ")
           << a.getDimSize(0) << "x" << b.getDimSize(1)
           << " (a's rows by b's columns), got " << acc.getDimSize(0) << "x"
           << acc.getDimSize(1);
  Type element = a.getElementType();
  if (element != b.getElementType())
    return emitOpError("operands must have one element type, got ")
           << element << " and " << b.getElementType();
  bool int8 = element.isInteger(8);
  if (!element.isF16() && !element.isBF16() && !element.isF32() && !int8)
    return emitOpError("operands must be f16, bf16, f32 or i8, got ")
           << element;
  if (int8 && !acc.getElementType().isInteger(32))
    return emitOpError("accumulator of i8 operands must be i32, got ")
           << acc.getElementType();
  if (!int8 && !acc.getElementType().isF32())
    return emitOpError("accumulator must be f32, got ")
           << acc.getElementType();
  if (getInputPrecision() == InputPrecision::TF32 && !element.isF32())
    return emitOpError("input_precision = tf32 applies to f32 operands, got ")
           << element;
  return success();
}

Value mlir::ktc::roundToTf32(OpBuilder &b, Location loc, Value x) {
  Type i32 = b.getI32Type();
  auto c = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  Value bits = arith::BitcastOp::create(b, loc, i32, x);
  Value rounded = arith::AndIOp::create(
      b, loc, arith::AddIOp::create(b, loc, bits, c(0x1000)), c(~0x1fff));
  Value magnitude = arith::AndIOp::create(b, loc, bits, c(0x7fffffff));
  Value finite = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                       magnitude, c(0x7f800000));
  Value result = arith::SelectOp::create(b, loc, finite, rounded, bits);
  return arith::BitcastOp::create(b, loc, b.getF32Type(), result);
}
