//===- Context.cpp - the MLIR context kernels are traced and compiled in ---===//

#include "Compiler.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

namespace ktc::compiler {

mlir::MLIRContext &context() {
  // Knows everything a kernel is lowered through, so that compiling needs
  // no registration of its own (registries cannot change while in use).
  static mlir::MLIRContext *context = [] {
    mlir::DialectRegistry registry;
    registerAllDialects(registry);
    // Everything the pipelines run on this context depend on (a PassManager
    // run loads them, and appends them to the registry, when they are not
    // there yet): the tracer's clean-up and every backend's pipeline.
    mlir::OpPassManager pipelines(mlir::ModuleOp::getOperationName());
    pipelines.addPass(mlir::createCanonicalizerPass());
    pipelines.addPass(mlir::createLoopInvariantCodeMotionPass());
    pipelines.addPass(mlir::createCSEPass());
    for (const char *name : {"host", "sm_90", "gfx942"}) {
      Target target = llvm::cantFail(Target::parse(name));
      backendFor(target).buildPipeline(pipelines, target, CompileOptions());
    }
    pipelines.getDependentDialects(registry);
    // All of it loaded now: tracing and compiling on many threads at once
    // then only read the registry and the dialects. (Two threads loading a
    // dialect into the shared context at once, the first compiles of a
    // process, crashed: issue 15, item 7.)
    auto *ctx = new mlir::MLIRContext(registry);
    ctx->loadAllAvailableDialects();
    return ctx;
  }();
  return *context;
}

} // namespace ktc::compiler
