//===- GpuCodegen.cpp - LLVM dialect to PTX / AMDGPU code objects ----------===//

#include "GpuCodegen.h"

#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

extern "C" {
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
void LLVMInitializeAMDGPUTarget();
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUAsmPrinter();
void LLVMInitializeAMDGPUAsmParser();
}

namespace ktc::gpu {

static void initTargets() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    LLVMInitializeAMDGPUAsmParser();
  });
}

static bool isNVPTX(llvm::StringRef arch) { return arch.starts_with("sm_"); }

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(llvm::StringRef arch) {
  initTargets();
  llvm::Triple triple(isNVPTX(arch) ? "nvptx64-nvidia-cuda"
                                    : "amdgcn-amd-amdhsa");
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError("no LLVM target for " + arch.str() + ": " +
                                   error);
  // A processor LLVM does not know would only be warned about.
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(triple, "", ""));
  if (!subtarget || !subtarget->isCPUStringValid(arch))
    return llvm::createStringError("unknown GPU '" + arch.str() + "' for " +
                                   triple.str());
  // PTX 8.0 (sm_90 needs >= 7.8); AMDGPU takes its features from the arch.
  std::string features = isNVPTX(arch) ? "+ptx80" : "";
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, arch, features, options, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  if (!tm)
    return llvm::createStringError("cannot create a target machine for " +
                                   arch.str());
  return std::move(tm);
}

llvm::Expected<std::string> emit(mlir::ModuleOp module, llvm::StringRef arch,
                                 Stage stage) {
  auto tm = createTargetMachine(arch);
  if (!tm)
    return tm.takeError();
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, context);
  if (!llvmModule)
    return llvm::createStringError("translation to LLVM IR failed");
  llvmModule->setTargetTriple((*tm)->getTargetTriple());
  llvmModule->setDataLayout((*tm)->createDataLayout());
  if (!isNVPTX(arch)) { // code object v5, as ROCm 6/7 and Triton use
    llvmModule->addModuleFlag(llvm::Module::Error,
                              "amdhsa_code_object_version", 500);
    // Where the hardware preloads kernel arguments into SGPRs (CDNA:
    // gfx90a, gfx94x, gfx950), ask for it, as Triton does: the arguments arrive before the
    // first instruction, and the addresses built from them need no VGPRs
    // of their own (vector-add: 10 VGPRs instead of 14). The backend keeps
    // the loads from the kernarg segment for firmware that does not preload.
    if ((*tm)->getMCSubtargetInfo()->checkFeatures("+kernarg-preload"))
      for (llvm::Function &f : *llvmModule)
        if (f.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL)
          for (llvm::Argument &arg : f.args())
            arg.addAttr(llvm::Attribute::InReg);
  }
  if (llvm::Error e =
          mlir::makeOptimizingTransformer(3, 0, tm->get())(llvmModule.get()))
    return std::move(e);
  if (stage == Stage::LLVM) {
    std::string text;
    llvm::raw_string_ostream os(text);
    llvmModule->print(os, nullptr);
    return text;
  }
  bool object = stage == Stage::Binary && !isNVPTX(arch);
  llvm::SmallString<0> out;
  llvm::raw_svector_ostream os(out);
  llvm::legacy::PassManager pm;
  if ((*tm)->addPassesToEmitFile(pm, os, nullptr,
                                 object ? llvm::CodeGenFileType::ObjectFile
                                        : llvm::CodeGenFileType::AssemblyFile))
    return llvm::createStringError("the target cannot emit this file type");
  pm.run(*llvmModule);
  if (object)
    return amdgpu::linkHsaco(out);
  return std::string(out);
}

} // namespace ktc::gpu
