//===- CheapBlocks.h - copies of cheap blocks, one per use -------*- C++ -*-===//

#ifndef KTC_LIB_TRANSFORMS_CHEAPBLOCKS_H
#define KTC_LIB_TRANSFORMS_CHEAPBLOCKS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::ktc {

/// Gives every use of a cheap block (an arange, splat, constant, or an
/// elementwise, expand_dims, broadcast or addptr tree of them) its own
/// copy, made where the original is.
void copyCheapBlocksPerUse(func::FuncOp func);

} // namespace mlir::ktc

#endif // KTC_LIB_TRANSFORMS_CHEAPBLOCKS_H
