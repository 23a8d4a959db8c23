//===- LLVMCodegen.h - LLVM dialect to code, for the GPU backends -*- C++ -*-===//
//
// What the NVPTX and AMDGPU backends share, in process and without shelling
// out: the LLVM dialect translated to LLVM IR, optimised (O3) for the
// target machine, and emitted as assembly or an object file. A fatal error
// inside LLVM's optimiser or code generator becomes an llvm::Error instead
// of ending the user's process.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_TARGET_LLVMCODEGEN_H
#define KTC_LIB_TARGET_LLVMCODEGEN_H

#include "lib/Target/Backend.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <mutex>
#include <string>

namespace llvm {
class TargetMachine;
}

namespace ktc::target {

/// The target machine for a GPU target, O3.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const Target &target);

/// Held while LLVM's process-wide options are read or written: when an
/// NVPTX target machine is created (it reads nvptx-short-ptr) and while
/// lld links (it resets every option).
std::mutex &llvmOptionsMutex();

/// What generateCode makes.
enum class CodeFile { LLVM, Assembly, Object };

/// `module` (LLVM dialect) translated, given to `prepare` (target-specific
/// module flags and attributes), optimised and emitted as `file`.
llvm::Expected<std::string> generateCode(
    mlir::ModuleOp module, const Target &target, CodeFile file,
    const CompileHooks &hooks,
    llvm::function_ref<void(llvm::Module &, llvm::TargetMachine &)> prepare);

/// Runs buildPipeline's passes on `module` (ktc dialect, lowered in place
/// to the LLVM dialect), with the hooks' instrumentation; the error carries
/// the diagnostics.
llvm::Error runPipeline(mlir::ModuleOp module, llvm::StringRef kernel,
                        const Backend &backend, const Target &target,
                        const CompileOptions &options,
                        const CompileHooks &hooks);

/// `error` of generateCode as the message a user sees: "generating code for
/// kernel 'K' (gfx942) failed: ...".
llvm::Error codegenError(llvm::StringRef kernel, const Target &target,
                         llvm::Error error);

/// What the GPU backends share: the GPU dialects and pipeline
/// (lib/Conversion), then LLVM's code generation. A GPU kind says what its
/// binary is and how its LLVM module is prepared.
class GpuBackend : public Backend {
public:
  void registerDialects(mlir::DialectRegistry &registry) const override;
  void buildPipeline(mlir::OpPassManager &pm, const Target &target,
                     const CompileOptions &options) const override;
  llvm::Expected<std::string>
  generate(mlir::ModuleOp module, llvm::StringRef kernel, const Target &target,
           const CompileOptions &options, Stage stage,
           const CompileHooks &hooks) const override;

protected:
  /// What Stage::Binary is made from: the assembly (PTX) or an object.
  virtual CodeFile binaryFile() const = 0;
  /// Target-specific module flags and attributes, before optimising.
  virtual void prepare(llvm::Module &, llvm::TargetMachine &) const {}
  /// The loadable binary made of that object (AMDGPU: linked into an HSACO).
  virtual llvm::Expected<std::string> finish(std::string object) const {
    return object;
  }
};

namespace amdgpu {
/// Links an AMDGPU relocatable object into an HSACO (lld, in process).
llvm::Expected<std::string> linkHsaco(llvm::StringRef object);
/// The resources `kernel` uses, from the HSACO's amdhsa.kernels note.
llvm::Expected<KernelResources> readMetadata(llvm::StringRef hsaco,
                                             llvm::StringRef kernel);
/// device_print's printf calls as ROCm's buffered printf records, with the
/// __printf_alloc they call (Printf.cpp).
void lowerPrintf(llvm::Module &module);
/// The variadic printf the lowering calls (TargetInfo::print): a name of
/// ktc's own, so that a kernel named `printf` is not taken for it.
inline constexpr char kAmdgpuPrintfName[] = "__ktc_amdgpu_printf";
} // namespace amdgpu

} // namespace ktc::target

#endif // KTC_LIB_TARGET_LLVMCODEGEN_H
