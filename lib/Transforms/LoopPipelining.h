//===- LoopPipelining.h - what the loop pipeliners share ----------*- C++ -*-===//
//
// ktc-pipeline-loads (registers) and ktc-pipeline-async (shared memory)
// both issue a loop's loads some iterations ahead: they take the ops that
// compute a load's address and mask from the induction variable alone (the
// address slice), clone them for a later iteration, and mask that iteration
// off when it does not exist.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_TRANSFORMS_LOOPPIPELINING_H
#define KTC_LIB_TRANSFORMS_LOOPPIPELINING_H

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <optional>

namespace mlir::ktc {

/// The ops of `loop`'s body that compute `roots` (in program order), if
/// every one of them is pure, has no regions and reads no loop-carried
/// value but the induction variable.
std::optional<SmallVector<Operation *>> addressSlice(scf::ForOp loop,
                                                     ValueRange roots);

/// A loop's step and bounds, the step and upper bound widened to i64 for
/// integers narrower than that (computed once, before the loop).
struct LoopBounds {
  Value step, wideStep, wideUb;
  bool unsignedCmp;
  static LoopBounds of(OpBuilder &b, scf::ForOp loop);
  /// `iv + k * step` in the induction variable's type, and whether that
  /// iteration exists (`iv + k * step < ub`, computed in i64 for narrower
  /// integers, so that it cannot overflow).
  std::pair<Value, Value> advance(OpBuilder &b, Location loc, Value iv,
                                  int64_t k) const;
};

} // namespace mlir::ktc

#endif // KTC_LIB_TRANSFORMS_LOOPPIPELINING_H
