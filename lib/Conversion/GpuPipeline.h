//===- GpuPipeline.h - ktc to the LLVM dialect for a GPU ---------*- C++ -*-===//

#ifndef KTC_LIB_CONVERSION_GPUPIPELINE_H
#define KTC_LIB_CONVERSION_GPUPIPELINE_H

#include "lib/Target/Target.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"

#include <string>

namespace mlir::ktc {

/// Layouts, the ktc lowering, then upstream to the LLVM dialect, for a GPU
/// `target` with `numWarps` waves per workgroup.
void buildGpuPipeline(OpPassManager &pm, const ::ktc::target::Target &target,
                      unsigned numWarps);

/// Registers every upstream pass buildGpuPipeline runs, by name (ktc-opt:
/// reproducers carry the pipeline as text).
void registerGpuPipelinePasses();

/// The dialects and LLVM IR translations the GPU path needs.
void registerGpuDialects(DialectRegistry &registry);

} // namespace mlir::ktc

#endif // KTC_LIB_CONVERSION_GPUPIPELINE_H
