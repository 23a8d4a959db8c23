//===- GpuCodegen.cpp - LLVM dialect to PTX / AMDGPU code objects ----------===//

#include "GpuCodegen.h"

#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <csetjmp>
#include <cstdio>
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

/// The number of "sm_<N>[a|f]" (0 when it is not of that form).
static unsigned smNumber(llvm::StringRef arch) {
  llvm::StringRef digits = arch.drop_front(3);
  if (digits.ends_with("a") || digits.ends_with("f"))
    digits = digits.drop_back();
  unsigned n = 0;
  return digits.getAsInteger(10, n) ? 0 : n;
}

/// The PTX feature for `arch`: PTX 8.0 where LLVM's minimum for the SM is
/// no higher (sm_90 needs 7.8, sm_90a 8.0: as before), else none, so that
/// LLVM takes the SM's own minimum (sm_100: 8.6, sm_120: 8.7, sm_88 and
/// sm_110: 9.0; a fixed +ptx80 there is a fatal error in LLVM's NVPTX
/// backend). Checked against LLVM 22's `llc -mcpu=sm_X` defaults.
static std::string ptxFeature(llvm::StringRef arch) {
  unsigned sm = smNumber(arch);
  return sm && sm <= 90 && sm != 88 ? "+ptx80" : "";
}

/// Refuses targets LLVM knows but ktc's lowering does not serve: NVIDIA
/// before sm_70 (no shfl.sync / independent thread scheduling as ktc uses
/// them), AMD before gfx9 (wave64 GCN without the DPP and ds_bpermute
/// controls ktc emits). Their code could only fail deep in LLVM.
static llvm::Error checkServed(llvm::StringRef arch) {
  if (isNVPTX(arch)) {
    if (smNumber(arch) < 70)
      return llvm::createStringError(
          "GPU target '" + arch.str() +
          "' is older than ktc supports (NVIDIA sm_70 or newer)");
    return llvm::Error::success();
  }
  unsigned major = 0;
  llvm::StringRef rest = arch.drop_front(3);
  // gfx9xx, gfx10xx, gfx11xx, gfx12xx: the major version is all but the
  // last two characters; gfx9-generic, gfx10-3-generic: the leading digits.
  llvm::StringRef number =
      rest.contains("-generic")
          ? rest.take_while([](char c) { return llvm::isDigit(c); })
          : rest.size() >= 3 ? rest.drop_back(2) : llvm::StringRef();
  if (number.getAsInteger(10, major) || major < 9)
    return llvm::createStringError(
        "GPU target '" + arch.str() +
        "' is older than ktc supports (AMD gfx9 or newer: gfx90a, gfx942, "
        "gfx950, gfx1100, gfx1200, ...)");
  return llvm::Error::success();
}

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
  if (llvm::Error e = checkServed(arch))
    return std::move(e);
  // AMDGPU takes its features from the arch.
  std::string features = isNVPTX(arch) ? ptxFeature(arch) : "";
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, arch, features, options, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  if (!tm)
    return llvm::createStringError("cannot create a target machine for " +
                                   arch.str());
  return std::move(tm);
}

namespace {
/// Where a fatal error of LLVM's jumps to on this thread (see guarded).
struct FatalGuard {
  std::jmp_buf jump;
  std::string message;
};
thread_local FatalGuard *currentGuard = nullptr;

void onFatalError(void *, const char *reason, bool) {
  if (FatalGuard *guard = currentGuard) {
    guard->message = reason;
    std::longjmp(guard->jump, 1);
  }
  // Not in ktc's code generation: LLVM's own behaviour (it exits next).
  std::fprintf(stderr, "LLVM ERROR: %s\n", reason);
}
} // namespace

/// Runs `fn` (LLVM's optimiser and code generator); a report_fatal_error
/// inside becomes an error instead of ending the process, as clang's
/// CrashRecoveryContext does it, but without taking over the process's
/// signal handlers. What `fn` was working on is leaked, not destroyed (the
/// caller drops it): the fatal error left it half-built.
static llvm::Error guarded(llvm::function_ref<void()> fn) {
  static std::once_flag once;
  std::call_once(once, [] { llvm::install_fatal_error_handler(onFatalError); });
  FatalGuard guard;
  FatalGuard *outer = currentGuard;
  if (setjmp(guard.jump) != 0) {
    currentGuard = outer;
    return llvm::createStringError("LLVM cannot generate code for it: " +
                                   guard.message);
  }
  currentGuard = &guard;
  fn();
  currentGuard = outer;
  return llvm::Error::success();
}

llvm::Expected<std::string> emit(mlir::ModuleOp module, llvm::StringRef arch,
                                 Stage stage) {
  auto tm = createTargetMachine(arch);
  if (!tm)
    return tm.takeError();
  auto owned = std::make_unique<llvm::LLVMContext>();
  llvm::LLVMContext &context = *owned;
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
  // Should LLVM fail fatally, leak what it was working on (see guarded).
  auto leak = [&] {
    (void)llvmModule.release();
    (void)owned.release();
    (void)tm->release();
  };
  llvm::Error optimised = llvm::Error::success();
  if (llvm::Error e = guarded([&] {
        optimised =
            mlir::makeOptimizingTransformer(3, 0, tm->get())(llvmModule.get());
      })) {
    llvm::consumeError(std::move(optimised));
    leak();
    return std::move(e);
  }
  if (optimised)
    return std::move(optimised);
  if (stage == Stage::LLVM) {
    std::string text;
    llvm::raw_string_ostream os(text);
    llvmModule->print(os, nullptr);
    return text;
  }
  bool object = stage == Stage::Binary && !isNVPTX(arch);
  llvm::SmallString<0> out;
  llvm::raw_svector_ostream os(out);
  auto pm = std::make_unique<llvm::legacy::PassManager>();
  if ((*tm)->addPassesToEmitFile(*pm, os, nullptr,
                                 object ? llvm::CodeGenFileType::ObjectFile
                                        : llvm::CodeGenFileType::AssemblyFile))
    return llvm::createStringError("the target cannot emit this file type");
  if (llvm::Error e = guarded([&] { pm->run(*llvmModule); })) {
    (void)pm.release();
    leak();
    return std::move(e);
  }
  pm.reset();
  if (object)
    return amdgpu::linkHsaco(out);
  return std::string(out);
}

} // namespace ktc::gpu
