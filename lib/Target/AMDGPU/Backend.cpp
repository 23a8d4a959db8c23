//===- Backend.cpp - AMD GPUs: ktc to HSACO code objects --------------------===//
//
// The GPU lowering (lib/Conversion) with AMD's TargetInfo, then LLVM's
// AMDGPU backend: a relocatable object linked by lld (in process) into a
// code object v5, as ROCm 6/7 and Triton use. What a kernel uses (VGPRs,
// SGPRs, LDS, scratch) is read back from the code object's metadata.
//
//===----------------------------------------------------------------------===//

#include "lib/Conversion/GpuPipeline.h"
#include "lib/Target/LLVMCodegen.h"

#include "llvm/IR/Function.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Target/TargetMachine.h"

namespace ktc::target {
namespace {

/// Code object v5, and kernel arguments preloaded into SGPRs where the
/// hardware does it (CDNA: gfx90a, gfx94x, gfx950), as Triton asks for:
/// the arguments arrive before the first instruction, and the addresses
/// built from them need no VGPRs of their own (vector-add: 10 VGPRs
/// instead of 14). The backend keeps the loads from the kernarg segment for
/// firmware that does not preload.
void prepare(llvm::Module &module, llvm::TargetMachine &tm) {
  module.addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version",
                       500);
  if (tm.getMCSubtargetInfo()->checkFeatures("+kernarg-preload"))
    for (llvm::Function &f : module)
      if (f.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL)
        for (llvm::Argument &arg : f.args())
          arg.addAttr(llvm::Attribute::InReg);
}

class AMDGPUBackend : public Backend {
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
    CodeFile file = stage == Stage::LLVM       ? CodeFile::LLVM
                    : stage == Stage::Assembly ? CodeFile::Assembly
                                               : CodeFile::Object;
    auto code = generateCode(module, target, file, hooks, prepare);
    if (code && file == CodeFile::Object)
      code = amdgpu::linkHsaco(*code);
    if (!code)
      return codegenError(kernel, target, code.takeError());
    return code;
  }
  llvm::Expected<KernelResources>
  resources(llvm::StringRef binary, llvm::StringRef kernel, const Target &,
            const CompileOptions &) const override {
    return amdgpu::readMetadata(binary, kernel);
  }
};

} // namespace

const Backend &amdgpuBackend() {
  static const AMDGPUBackend backend;
  return backend;
}

} // namespace ktc::target
