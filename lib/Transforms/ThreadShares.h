//===- ThreadShares.h - blocks too large for a thread ------------*- C++ -*-===//
//
// After ktc-assign-layouts: the share of each block a thread holds, and the
// scalar operations the whole kernel unrolls into, against what any GPU
// can hold, so that a kernel no GPU could run is refused at the user's
// line instead of spilling for minutes in LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_TRANSFORMS_THREADSHARES_H
#define KTC_LIB_TRANSFORMS_THREADSHARES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::ktc {

/// Fails (with the error at the op) when a block of `func`, spread over
/// `numWarps` waves of `waveSize`, needs more registers a thread than any
/// GPU has, or the kernel more scalar operations a thread than ktc
/// compiles.
LogicalResult checkThreadShares(func::FuncOp func, unsigned numWarps,
                                unsigned waveSize);

} // namespace mlir::ktc

#endif // KTC_LIB_TRANSFORMS_THREADSHARES_H
