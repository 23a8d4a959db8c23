//===- Backend.cpp - AMD GPUs: ktc to HSACO code objects --------------------===//
//
// The GPU lowering (lib/Conversion) with AMD's TargetInfo, then LLVM's
// AMDGPU backend: a relocatable object linked by lld (in process) into a
// code object v5, as ROCm 6/7 and Triton use. What a kernel uses (VGPRs,
// SGPRs, LDS, scratch) is read back from the code object's metadata.
//
//===----------------------------------------------------------------------===//

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
/// firmware that does not preload. device_print's printf calls become
/// ROCm's buffered printf first (Printf.cpp).
void prepareModule(llvm::Module &module, llvm::TargetMachine &tm) {
  amdgpu::lowerPrintf(module);
  module.addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version",
                       500);
  if (tm.getMCSubtargetInfo()->checkFeatures("+kernarg-preload"))
    for (llvm::Function &f : module)
      if (f.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL)
        for (llvm::Argument &arg : f.args())
          arg.addAttr(llvm::Attribute::InReg);
}

class AMDGPUBackend : public GpuBackend {
public:
  llvm::Expected<KernelResources>
  resources(llvm::StringRef binary, llvm::StringRef kernel, const Target &,
            const CompileOptions &) const override {
    return amdgpu::readMetadata(binary, kernel);
  }

protected:
  CodeFile binaryFile() const override { return CodeFile::Object; }
  void prepare(llvm::Module &module, llvm::TargetMachine &tm) const override {
    prepareModule(module, tm);
  }
  llvm::Expected<std::string> finish(std::string object) const override {
    return amdgpu::linkHsaco(object);
  }
};

} // namespace

const Backend &amdgpuBackend() {
  static const AMDGPUBackend backend;
  return backend;
}

} // namespace ktc::target
