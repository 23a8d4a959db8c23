//===- LoopOffsets.h - loop pointers' offsets ptxas would recompute -*- C++ -*-===//

#ifndef KTC_LIB_TARGET_NVPTX_LOOPOFFSETS_H
#define KTC_LIB_TARGET_NVPTX_LOOPOFFSETS_H

#include "llvm/IR/Module.h"

namespace ktc::target {

/// Hides from the NVPTX backend that the 64-bit element offsets of the
/// pointers a loop carries are sign-extended 32-bit values, so that the
/// loop's byte offsets reach ptxas as `cvt.s64.s32` + `shl.b64` rather than
/// `mul.wide.s32`, which ptxas recomputes inside the loop (LoopOffsets.cpp
/// says why that costs). Runs on the optimised IR, just before the backend.
void keepLoopOffsetsInRegisters(llvm::Module &module);

} // namespace ktc::target

#endif // KTC_LIB_TARGET_NVPTX_LOOPOFFSETS_H
