//===- HostPipeline.cpp - ktc to LLVM for the host CPU ---------------------===//

#include "HostTarget.h"

#include "HostShapes.h"
#include "dialect/KtcPasses.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace ktc::host {

void registerHostDialects(DialectRegistry &registry) {
  registry.insert<mlir::ktc::KtcDialect, arith::ArithDialect, math::MathDialect,
                  scf::SCFDialect, func::FuncDialect, linalg::LinalgDialect,
                  tensor::TensorDialect, bufferization::BufferizationDialect,
                  memref::MemRefDialect, vector::VectorDialect,
                  cf::ControlFlowDialect, LLVM::LLVMDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  vector::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::ktc::registerHostAtomicEffects(registry);
  registry.insert<gpu::GPUDialect>(); // debug_barrier's gpu.barrier
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

void buildHostPipeline(OpPassManager &pm) {
  // num_stages is honoured here too (no faster on a CPU, but the same
  // program as on the GPU, so the CPU tests check the transformation).
  pm.addPass(mlir::ktc::createKtcPipelineLoads());
  // exp/log as exactly rounded f32 operations: the GPUs' bits.
  pm.addPass(mlir::ktc::createKtcExpandMath());
  pm.addPass(mlir::ktc::createKtcConvertToHost());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createConvertElementwiseToLinalgPass());
  pm.addPass(createLinalgElementwiseOpFusionPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // A pipelined loop yields the block it loaded this iteration, a new
  // buffer each time, not its iter_arg's.
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(createCanonicalizerPass());
  // f16/bf16: the same bits on every host (no CPU feature, no libcall).
  pm.addPass(mlir::ktc::createKtcHostExpandHalfFloats());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertMathToLLVMPass());
  // The host dot's vector loads, stores and splats (its fmas are math.fma:
  // vector.fma would become llvm.fmuladd, which may round twice).
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // Moved f16/bf16 bits too: selects and phis of them as i16.
  pm.addPass(mlir::ktc::createKtcHostHalfFloatsAsI16());
  pm.addPass(createCanonicalizerPass());
}

void registerHostPipeline() {
  // Every pass the pipeline runs, by name: a reproducer (MLIR's format,
  // the pipeline as text) runs in ktc-opt with --run-reproducer.
  registerConvertElementwiseToLinalgPass();
  registerLinalgElementwiseOpFusionPass();
  bufferization::registerOneShotBufferizePass();
  memref::registerExpandReallocPass();
  bufferization::registerOwnershipBasedBufferDeallocationPass();
  bufferization::registerBufferDeallocationSimplificationPass();
  bufferization::registerLowerDeallocationsPass();
  registerConvertLinalgToLoopsPass();
  memref::registerExpandStridedMetadataPass();
  registerLowerAffinePass();
  registerSCFToControlFlowPass();
  registerConvertMathToLLVMPass();
  registerConvertVectorToLLVMPass();
  registerFinalizeMemRefToLLVMConversionPass();
  registerArithToLLVMConversionPass();
  registerConvertIndexToLLVMPass();
  registerConvertControlFlowToLLVMPass();
  registerConvertFuncToLLVMPass();
  registerReconcileUnrealizedCastsPass();
  PassPipelineRegistration<>(
      "ktc-host-pipeline",
      "lower ktc kernels to the LLVM dialect for the host CPU",
      [](OpPassManager &pm) { buildHostPipeline(pm); });
}

} // namespace ktc::host
