//===- GpuPipeline.h - ktc to the LLVM dialect for a GPU ---------*- C++ -*-===//

#ifndef KTC_LIB_CONVERSION_GPUPIPELINE_H
#define KTC_LIB_CONVERSION_GPUPIPELINE_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::ktc {

/// Layouts, the ktc lowering, then upstream to the LLVM dialect, for `arch`
/// (sm_* or gfx*) with `numWarps` waves per workgroup.
LogicalResult buildGpuPipeline(OpPassManager &pm, StringRef arch,
                               unsigned numWarps);

/// Registers `ktc-gpu-pipeline{target=... num-warps=...}` (for ktc-opt).
void registerGpuPipeline();

/// The dialects and LLVM IR translations the GPU path needs.
void registerGpuDialects(DialectRegistry &registry);

} // namespace mlir::ktc

#endif // KTC_LIB_CONVERSION_GPUPIPELINE_H
