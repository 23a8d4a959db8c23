//===- LoopPipelining.h - what the loop pipeliners share ----------*- C++ -*-===//
//
// ktc-pipeline-loads (registers) and ktc-pipeline-async (shared memory)
// both issue a loop's loads some iterations ahead: they take the ops that
// compute a load's address and mask from the induction variable and the
// values the loop advances by a fixed step (the address slice), clone them
// for a later iteration, and mask that iteration off when it does not
// exist.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_TRANSFORMS_LOOPPIPELINING_H
#define KTC_LIB_TRANSFORMS_LOOPPIPELINING_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

#include <optional>

namespace mlir::ktc {

/// A value the loop carries and advances by the same amount, defined
/// before the loop, every iteration: `yield ktc.addptr(%arg, %inc)` or
/// `yield arith.addi(%arg, %inc)` (Triton's `a_ptrs += BLOCK_K *
/// stride_ak`). k iterations later it is `%arg + k * %inc` (offsets are
/// assumed not to overflow, as everywhere in ktc).
struct Induction {
  BlockArgument arg;
  Value init, inc;
  /// `base + k * inc` (base itself for k = 0).
  Value advance(OpBuilder &b, Location loc, Value base, int64_t k) const;
};

/// The ops of `loop`'s body that compute some roots (in program order),
/// and the carried inductions they read.
struct AddressSlice {
  SmallVector<Operation *> ops;
  SmallVector<Induction> carried;
  /// Clones the ops at `b` for the iteration k iterations after the one
  /// whose induction variable is `loopIv`, the loop's own reading `iv`
  /// (the loop's induction variable, inside it; the lower bound or later
  /// before it): each carried value read `k` iterations on from `base`,
  /// its block argument inside the loop or its start before it.
  void clone(OpBuilder &b, IRMapping &map, Value loopIv, Value iv,
             int64_t k, bool inLoop) const;
};

/// The address slice of `roots`, if every op in it is pure, has no regions
/// and reads no loop-carried value but the induction variable and
/// inductions.
std::optional<AddressSlice> addressSlice(scf::ForOp loop, ValueRange roots);

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
