//===- Backend.cpp - NVIDIA GPUs: ktc to PTX --------------------------------===//
//
// The GPU lowering (lib/Conversion) with NVIDIA's TargetInfo, then LLVM's
// NVPTX backend. The binary is the PTX text: the CUDA driver assembles it
// for the device when it loads it, so registers and spills are known only
// then (KernelInfo of a "cuda" device).
//
//===----------------------------------------------------------------------===//

#include "lib/Conversion/GpuPipeline.h"
#include "lib/Target/LLVMCodegen.h"

namespace ktc::target {
namespace {

class NVPTXBackend : public Backend {
public:
  void registerDialects(mlir::DialectRegistry &registry) const override {
    mlir::ktc::registerGpuDialects(registry);
  }
  void buildPipeline(mlir::OpPassManager &pm, const Target &target,
                     const CompileOptions &options) const override {
    mlir::ktc::buildGpuPipeline(pm, target, options.numWarps);
  }
  llvm::Expected<std::string>
  generate(mlir::ModuleOp module, llvm::StringRef kernel, const Target &target,
           const CompileOptions &options, Stage stage,
           const CompileHooks &hooks) const override {
    if (llvm::Error e =
            runPipeline(module, kernel, *this, target, options, hooks))
      return std::move(e);
    auto code = generateCode(module, target,
                             stage == Stage::LLVM ? CodeFile::LLVM
                                                  : CodeFile::Assembly,
                             hooks, [](llvm::Module &, llvm::TargetMachine &) {});
    if (!code)
      return codegenError(kernel, target, code.takeError());
    return code;
  }
  llvm::Expected<KernelResources>
  resources(llvm::StringRef, llvm::StringRef, const Target &target,
            const CompileOptions &options) const override {
    KernelResources r; // registers: when the driver loads the PTX
    r.waveSize = target.waveSize;
    r.maxThreads = int64_t(target.waveSize) * options.numWarps;
    return r;
  }
};

} // namespace

const Backend &nvptxBackend() {
  static const NVPTXBackend backend;
  return backend;
}

} // namespace ktc::target
