//===- NarrowOffsets.h - pointers reached through i32 offsets only -*- C++ -*-===//
//
// Which kernel arguments some load or store reaches through ktc.addptr ops
// with i32 offsets and none with i64 ones. Such offsets overflow before
// they index element 2^31, so the runtime refuses a larger buffer for such
// an argument at launch instead of letting the kernel wrap around.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_TRANSFORMS_NARROWOFFSETS_H
#define KTC_LIB_TRANSFORMS_NARROWOFFSETS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <vector>

namespace mlir::ktc {

/// One entry per argument of `func`: true for a pointer reached through
/// i32 offsets only. Conservative: every pointer that flows into a value
/// (through loops, branches, selects, splats) counts as its source.
std::vector<bool> narrowlyIndexedArgs(func::FuncOp func);

} // namespace mlir::ktc

#endif // KTC_LIB_TRANSFORMS_NARROWOFFSETS_H
