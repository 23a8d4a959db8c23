//===- EarlyExit.h - return_if anywhere (builder-internal) -------*- C++ -*-===//
//
// return_if(c) opens an scf.if on c whose else branch receives the rest of
// the enclosing body (an "open exit"). When a for_range, while_ or if_ body
// ends, the exits opened in it are closed: each scf.if gets the body's
// carried Vars as results (its then branch yields their values where the
// exit was taken) and an i1 "left" flag. The construct then carries that
// flag out (an extra result; for loops an extra iter_arg that guards every
// later iteration), and the code after the construct goes into a new open
// exit on it. Only scf regions are built: no thread ever leaves on its own,
// and the conditions are scalars, so a whole program skips the same code.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_BUILDER_EARLYEXIT_H
#define KTC_LIB_BUILDER_EARLYEXIT_H

#include "Trace.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace ktc::detail {

/// Puts the rest of the current body in the else branch of an scf.if on
/// `cond` (a scalar i1).
void openExit(TraceImpl &t, mlir::Value cond, mlir::Location loc);

/// Closes the exits opened since the stack held `depth`, innermost first,
/// giving each the live Vars as results; the insertion point ends after the
/// outermost. Returns the i1 "a return_if was taken" flag, or null when no
/// exit was open.
mlir::Value closeExits(TraceImpl &t, size_t depth, mlir::Location loc);

/// Forgets the exits above `depth` (a body that threw).
void dropExits(TraceImpl &t, size_t depth);

/// An if_ whose branches ended with the flags `thenLeft`/`elseLeft` (one
/// may be null): the same if with an extra i1 result, the flag.
mlir::scf::IfOp addExitFlag(TraceImpl &t, mlir::scf::IfOp op,
                            mlir::Value thenLeft, mlir::Value elseLeft,
                            mlir::Location loc);
/// A for_range whose body ended with the flag `left`: the same loop with
/// the flag as its last iter_arg and result, every iteration guarded by it.
mlir::scf::ForOp addExitFlag(TraceImpl &t, mlir::scf::ForOp op,
                             mlir::Value left, mlir::Location loc);
/// A while_ whose body ended with the flag `left`: the same loop carrying
/// it, the condition false (and not evaluated) once it is set.
mlir::scf::WhileOp addExitFlag(TraceImpl &t, mlir::scf::WhileOp op,
                               mlir::Value left, mlir::Location loc);

} // namespace ktc::detail

#endif // KTC_LIB_BUILDER_EARLYEXIT_H
