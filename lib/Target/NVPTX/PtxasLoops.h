//===- PtxasLoops.h - keep ptxas from unrolling loops it miscounts -*- C++ -*-===//

#ifndef KTC_LIB_TARGET_NVPTX_PTXASLOOPS_H
#define KTC_LIB_TARGET_NVPTX_PTXASLOOPS_H

#include "llvm/IR/Module.h"

namespace ktc::target {

/// Marks llvm.loop.unroll.disable (PTX `.pragma "nounroll"`) on the loops of
/// `module` whose induction variable steps away from their exit, which
/// ptxas unrolls with a wrong trip count (PtxasLoops.cpp says which).
void keepPtxasFromMiscountingLoops(llvm::Module &module);

} // namespace ktc::target

#endif // KTC_LIB_TARGET_NVPTX_PTXASLOOPS_H
