//===- GpuPipeline.cpp - ktc to the LLVM dialect for a GPU -----------------===//

#include "GpuPipeline.h"

#include "TargetInfo.h"

#include "dialect/KtcPasses.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::ktc::buildGpuPipeline(OpPassManager &pm,
                                  const ::ktc::target::Target &target,
                                  unsigned numWarps) {
  std::string arch = target.name();
  pm.addPass(createCanonicalizerPass());
  // exp/log as exactly rounded f32 operations: the host's bits (after the
  // canonicalizer, which must not reassociate them).
  pm.addPass(createKtcExpandMath());
  pm.addPass(createKtcAssignLayouts(
      KtcAssignLayoutsOptions{numWarps, target.waveSize, arch}));
  // The copies of cheap blocks that took the same layout become one again;
  // conversions of conversions fold.
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  // Conversions left where cheaper producers or folds allow.
  pm.addPass(createKtcRemoveLayoutConversions());
  // num_stages: a loop's dot operands through shared memory by async
  // copies where the target has them, its other loads carried in
  // registers; both need the layouts.
  pm.addPass(createKtcPipelineAsync(KtcPipelineAsyncOptions{arch, 0}));
  pm.addPass(createKtcPipelineLoads(KtcPipelineLoadsOptions{0, arch}));
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  // What the pipeliners cloned into a loop from outside it goes back out.
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addPass(createKtcConvertToLLVM(KtcConvertToLLVMOptions{arch, numWarps}));
  // The canonicalizer, with the loops' patterns run apart: a K loop may
  // carry a thousand scalars around 20k ops now (CanonicalizeLowered.cpp).
  pm.addPass(createKtcCanonicalizeLowered());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createKtcMarkKernels(KtcMarkKernelsOptions{arch}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}


void mlir::ktc::registerGpuPipelinePasses() {
  registerSCFToControlFlowPass();
  registerArithToLLVMConversionPass();
  registerConvertMathToLLVMPass();
  registerConvertControlFlowToLLVMPass();
  registerConvertFuncToLLVMPass();
  registerReconcileUnrealizedCastsPass();
}

void mlir::ktc::registerGpuDialects(DialectRegistry &registry) {
  registry.insert<LLVM::LLVMDialect, NVVM::NVVMDialect, ROCDL::ROCDLDialect,
                  cf::ControlFlowDialect>();
  registry.insert<gpu::GPUDialect>(); // debug_barrier's gpu.barrier
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  registerROCDLDialectTranslation(registry);
}
