//===- LLVMCodegen.cpp - LLVM dialect to code, for the GPU backends --------===//

#include "LLVMCodegen.h"
#include "LLVMErrors.h"

#include "lib/Conversion/GpuPipeline.h"
#include "lib/Target/NVPTX/LoopOffsets.h"
#include "lib/Target/NVPTX/PtxasLoops.h"
#include "lib/Support/ThreadDiagnostics.h"

#include "mlir/Pass/PassManager.h"

#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
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

namespace ktc::target {

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

std::mutex &llvmOptionsMutex() {
  static std::mutex mutex;
  return mutex;
}

/// LLVM's nvptx-short-ptr option: 32-bit shared-memory addresses on NVPTX,
/// as Triton and clang's -fcuda-short-ptr use (a slot's address is then one
/// 32-bit add, not a widening multiply and a 64-bit add; global pointers
/// stay 64-bit). LLVM 22 has no per-target-machine switch for it (the ABI
/// name "shortptr" only reaches clang's data layout), only this option,
/// read when an NVPTX target machine is created. Found when ktc loads,
/// before an application may unregister LLVM's options (the examples do);
/// null should a later LLVM drop it.
static llvm::cl::opt<bool> *const shortPointers = [] {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find("nvptx-short-ptr");
  return it == options.end() ? nullptr
                             : static_cast<llvm::cl::opt<bool> *>(it->second);
}();

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const Target &t) {
  initTargets();
  llvm::Triple triple(t.triple());
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError("no LLVM target for " + t.name() + ": " +
                                   error);
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> tm;
  {
    // Set on every creation: lld, linking an AMD kernel, resets it.
    std::lock_guard<std::mutex> lock(llvmOptionsMutex());
    if (shortPointers && triple.isNVPTX())
      shortPointers->setValue(true);
    tm.reset(target->createTargetMachine(triple, t.arch, t.features, options,
                                         llvm::Reloc::PIC_, std::nullopt,
                                         llvm::CodeGenOptLevel::Aggressive));
  }
  if (!tm)
    return llvm::createStringError("cannot create a target machine for " +
                                   t.name());
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

llvm::Expected<std::string> generateCode(
    mlir::ModuleOp module, const Target &target, CodeFile file,
    const CompileHooks &hooks,
    llvm::function_ref<void(llvm::Module &, llvm::TargetMachine &)> prepare) {
  auto tm = createTargetMachine(target);
  if (!tm)
    return tm.takeError();
  LLVMErrors errors; // outlives the context, whose handler it is
  auto owned = std::make_unique<llvm::LLVMContext>();
  llvm::LLVMContext &context = *owned;
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, context);
  if (!llvmModule)
    return llvm::createStringError("translation to LLVM IR failed");
  llvmModule->setTargetTriple((*tm)->getTargetTriple());
  llvmModule->setDataLayout((*tm)->createDataLayout());
  // Inline assembly LLVM cannot take is an error at the user's line, not
  // the exit(1) of a context without a handler.
  errors.watch(module, *llvmModule);
  prepare(*llvmModule, **tm);
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
  if (target.kind == Target::Kind::NVPTX) {
    keepPtxasFromMiscountingLoops(*llvmModule);
    keepLoopOffsetsInRegisters(*llvmModule);
  }
  if (hooks.optimised)
    hooks.optimised(*llvmModule);
  if (file == CodeFile::LLVM) {
    std::string text;
    llvm::raw_string_ostream os(text);
    llvmModule->print(os, nullptr);
    return text;
  }
  llvm::SmallString<0> out;
  llvm::raw_svector_ostream os(out);
  auto pm = std::make_unique<llvm::legacy::PassManager>();
  if ((*tm)->addPassesToEmitFile(*pm, os, nullptr,
                                 file == CodeFile::Object
                                     ? llvm::CodeGenFileType::ObjectFile
                                     : llvm::CodeGenFileType::AssemblyFile))
    return llvm::createStringError("the target cannot emit this file type");
  if (llvm::Error e = guarded([&] { pm->run(*llvmModule); })) {
    (void)pm.release();
    leak();
    return std::move(e);
  }
  if (llvm::Error e = errors.take())
    return std::move(e);
  return std::string(out);
}

void GpuBackend::registerDialects(mlir::DialectRegistry &registry) const {
  mlir::ktc::registerGpuDialects(registry);
}

void GpuBackend::buildPipeline(mlir::OpPassManager &pm, const Target &target,
                               const CompileOptions &options) const {
  mlir::ktc::buildGpuPipeline(pm, target, options.numWarps);
}

llvm::Expected<std::string>
GpuBackend::generate(mlir::ModuleOp module, llvm::StringRef kernel,
                     const Target &target, const CompileOptions &options,
                     Stage stage, const CompileHooks &hooks) const {
  if (llvm::Error e =
          runPipeline(module, kernel, *this, target, options, hooks))
    return std::move(e);
  CodeFile file = stage == Stage::LLVM       ? CodeFile::LLVM
                  : stage == Stage::Assembly ? CodeFile::Assembly
                                             : binaryFile();
  auto code = generateCode(
      module, target, file, hooks,
      [&](llvm::Module &m, llvm::TargetMachine &tm) { prepare(m, tm); });
  if (code && stage == Stage::Binary)
    code = finish(std::move(*code));
  if (!code)
    return codegenError(kernel, target, code.takeError());
  return code;
}

llvm::Error codegenError(llvm::StringRef kernel, const Target &target,
                         llvm::Error error) {
  return llvm::createStringError("generating code for kernel '" + kernel.str() +
                                 "' (" + target.name() + ") failed: " +
                                 llvm::toString(std::move(error)));
}

llvm::Error runPipeline(mlir::ModuleOp module, llvm::StringRef kernel,
                        const Backend &backend, const Target &target,
                        const CompileOptions &options,
                        const CompileHooks &hooks) {
  std::string diagnostics;
  ThreadDiagnosticHandler handler(
      module.getContext(), [&](mlir::Diagnostic &diag) {
        llvm::raw_string_ostream os(diagnostics);
        // "file:line:col: error: ..." as compilers print it, where known.
        if (auto file = diag.getLocation()->findInstanceOf<mlir::FileLineColLoc>())
          os << file.getFilename().getValue() << ":" << file.getLine() << ":"
             << file.getColumn() << ": error: ";
        else
          os << diag.getLocation() << ": ";
        os << diag.str() << "\n";
      });
  mlir::PassManager pm(module.getContext());
  backend.buildPipeline(pm, target, options);
  if (hooks.instrument)
    hooks.instrument(pm);
  if (failed(pm.run(module)))
    return llvm::make_error<PipelineError>("lowering kernel '" + kernel.str() +
                                           "' for " + target.name() +
                                           " failed:\n" + diagnostics);
  return llvm::Error::success();
}

} // namespace ktc::target
