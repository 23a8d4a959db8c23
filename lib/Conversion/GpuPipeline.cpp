//===- GpuPipeline.cpp - ktc to the LLVM dialect for a GPU -----------------===//

#include "GpuPipeline.h"

#include "TargetInfo.h"

#include "dialect/KtcPasses.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

LogicalResult mlir::ktc::buildGpuPipeline(OpPassManager &pm, StringRef arch,
                                          unsigned numWarps) {
  std::unique_ptr<TargetInfo> target = createTargetInfo(arch);
  if (!target)
    return failure();
  pm.addPass(createKtcPipelineLoads());
  pm.addPass(createCanonicalizerPass());
  // exp/log as exactly rounded f32 operations: the host's bits (after the
  // canonicalizer, which must not reassociate them).
  pm.addPass(createKtcExpandMath());
  pm.addPass(createKtcAssignLayouts(
      KtcAssignLayoutsOptions{numWarps, target->waveSize()}));
  pm.addPass(createKtcConvertToLLVM(
      KtcConvertToLLVMOptions{arch.str(), numWarps}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createKtcMarkKernels(KtcMarkKernelsOptions{arch.str()}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  return success();
}

namespace {
struct GpuPipelineOptions : PassPipelineOptions<GpuPipelineOptions> {
  Option<std::string> target{*this, "target",
                             llvm::cl::desc("sm_<N> or gfx<N>"),
                             llvm::cl::init("sm_90")};
  Option<unsigned> numWarps{*this, "num-warps",
                            llvm::cl::desc("waves per workgroup"),
                            llvm::cl::init(4)};
};
} // namespace

void mlir::ktc::registerGpuPipeline() {
  PassPipelineRegistration<GpuPipelineOptions>(
      "ktc-gpu-pipeline",
      "lower ktc kernels to the LLVM dialect for a GPU (sm_* or gfx*)",
      [](OpPassManager &pm, const GpuPipelineOptions &options) {
        if (failed(buildGpuPipeline(pm, options.target, options.numWarps)))
          llvm::errs() << "ktc-gpu-pipeline: unknown target '"
                       << options.target << "'\n";
      });
}

void mlir::ktc::registerGpuDialects(DialectRegistry &registry) {
  registry.insert<LLVM::LLVMDialect, NVVM::NVVMDialect, ROCDL::ROCDLDialect,
                  cf::ControlFlowDialect>();
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  registerROCDLDialectTranslation(registry);
}
