//===- Debug.h - CUDA's printf and assert for the NVPTX target --*- C++ -*-===//

#ifndef KTC_LIB_TARGET_NVPTX_DEBUG_H
#define KTC_LIB_TARGET_NVPTX_DEBUG_H

#include "mlir/IR/Builders.h"

namespace mlir::ktc {

/// vprintf(format, &args): the arguments in a stack struct, as CUDA's
/// printf passes them.
void nvptxPrint(OpBuilder &b, Location loc, Value format, ValueRange args);
/// __assertfail(message, file, line, function, 1): CUDA's assert, which
/// prints the message with the block and thread and traps.
void nvptxAssertFail(OpBuilder &b, Location loc, Value message, Value file,
                     unsigned line, Value function);

} // namespace mlir::ktc

#endif // KTC_LIB_TARGET_NVPTX_DEBUG_H
