//===- Backend.cpp - the host CPU: ktc to objects for the in-process JIT ----===//
//
// The host pipeline (convert-ktc-to-host, then upstream linalg,
// bufferisation and loops to the LLVM dialect), LLVM's O3 for this CPU (or
// a named one), and a relocatable object that HostKernel::load links into
// the process's ORC JIT.
//
//===----------------------------------------------------------------------===//

#include "HostTarget.h"

#include "lib/Target/Backend.h"

#include "dialect/KtcDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace ktc::target {
namespace {

class HostBackend : public Backend {
public:
  void registerDialects(mlir::DialectRegistry &registry) const override {
    host::registerHostDialects(registry);
  }
  void buildPipeline(mlir::OpPassManager &pm, const Target &,
                     const CompileOptions &) const override {
    host::buildHostPipeline(pm);
  }
  llvm::Expected<std::string>
  generate(mlir::ModuleOp module, llvm::StringRef kernel, const Target &target,
           const CompileOptions &options, Stage stage,
           const CompileHooks &hooks) const override {
    // The host reads no ktc.divisibility, and its translation to LLVM IR
    // would warn about the attribute left on the arguments.
    module.walk([&](mlir::func::FuncOp func) {
      for (unsigned i = 0; i < func.getNumArguments(); ++i)
        func.removeArgAttr(i,
                           mlir::ktc::KtcDialect::getDivisibilityAttrName());
      if (options.checkBounds &&
          func->hasAttr(mlir::ktc::KtcDialect::getKernelAttrName()))
        func->setAttr(mlir::ktc::KtcDialect::getCheckBoundsAttrName(),
                      mlir::UnitAttr::get(module.getContext()));
    });
    host::HostHooks hostHooks{hooks.instrument, hooks.optimised};
    host::HostCpu cpu{target.arch, target.features};
    const host::HostCpu *named = target == Target::host() ? nullptr : &cpu;
    auto code = stage == Stage::LLVM
                    ? host::emitLLVMIR(module, &hostHooks, named)
                : stage == Stage::Assembly
                    ? host::emitAssembly(module, &hostHooks, named)
                    : host::compileObject(module, kernel, &hostHooks, named);
    if (!code)
      return llvm::createStringError("compiling kernel '" + kernel.str() +
                                     "' for the host failed: " +
                                     llvm::toString(code.takeError()));
    return code;
  }
  llvm::Expected<KernelResources>
  resources(llvm::StringRef, llvm::StringRef, const Target &,
            const CompileOptions &) const override {
    KernelResources r; // a program is one CPU thread's loop nest
    r.waveSize = 1;
    r.maxThreads = 1;
    return r;
  }
};

} // namespace

const Backend &hostBackend() {
  static const HostBackend backend;
  return backend;
}

} // namespace ktc::target
