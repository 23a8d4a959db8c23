//===- DotOp.h - what ktc.dot's input_precision means -----------*- C++ -*-===//
//
// The rounding `input_precision = tf32` asks for, emitted the same way by
// every lowering of ktc.dot (the host's, lib/Target/CPU/HostDot.cpp, and
// the GPUs', lib/Conversion/DotOpToLLVM.cpp), so that they agree bit for
// bit on the operands.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_DIALECT_DOTOP_H
#define KTC_DIALECT_DOTOP_H

#include "mlir/IR/Builders.h"

namespace mlir::ktc {

/// The f32 `x` rounded to tf32 (arith ops): the nearest value with 10
/// mantissa bits, ties away from zero (cvt.rna.tf32.f32); NaN and
/// infinities unchanged, a carry out of the mantissa rounding up to the
/// next binade or to infinity.
Value roundToTf32(OpBuilder &b, Location loc, Value x);

} // namespace mlir::ktc

#endif // KTC_DIALECT_DOTOP_H
