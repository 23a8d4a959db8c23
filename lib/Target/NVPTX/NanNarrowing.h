//===- NanNarrowing.h - f32/f64 -> f16/bf16 keep a NaN's sign --*- C++ -*-===//

#ifndef KTC_LIB_TARGET_NVPTX_NANNARROWING_H
#define KTC_LIB_TARGET_NVPTX_NANNARROWING_H

#include "llvm/IR/Module.h"

namespace ktc::target {

/// Each fptrunc of `module` to half or bfloat gives a NaN the host's bits
/// (sign, quiet bit, top payload bits) instead of NVIDIA's canonical NaN
/// (NanNarrowing.cpp says why).
void keepNanSignInNarrowing(llvm::Module &module);

} // namespace ktc::target

#endif // KTC_LIB_TARGET_NVPTX_NANNARROWING_H
