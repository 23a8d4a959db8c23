//===- GpuCodegen.h - LLVM dialect to PTX / AMDGPU code objects --*- C++ -*-===//
//
// In process, no shelling out: LLVM IR -> O3 -> the target machine ->
// PTX text (NVPTX), or an AMDGPU relocatable object linked into an HSACO by
// lld used as a library (code object v5).
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_TARGET_GPUCODEGEN_H
#define KTC_LIB_TARGET_GPUCODEGEN_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace llvm {
class TargetMachine;
}

namespace ktc::gpu {

enum class Stage { LLVM, Assembly, Binary };

/// `module` (LLVM dialect, from buildGpuPipeline) at `stage` for `arch`:
/// optimised LLVM IR text, PTX or AMDGPU assembly, or the loadable binary
/// (PTX for NVPTX, an HSACO ELF for AMDGPU).
llvm::Expected<std::string> emit(mlir::ModuleOp module, llvm::StringRef arch,
                                 Stage stage);

/// The target machine for `arch` (sm_* or gfx*), O3.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(llvm::StringRef arch);

/// Resource use of one compiled kernel.
struct KernelResources {
  int64_t registers = -1;       // VGPRs / registers per thread
  int64_t scalarRegisters = -1; // SGPRs (AMDGPU)
  int64_t sharedBytes = 0;      // LDS / static shared memory
  int64_t scratchBytes = 0;     // private segment / local memory per thread
  int64_t spills = 0;
  int64_t waveSize = 0;
  int64_t maxThreads = 0;
};

namespace amdgpu {
/// Links an AMDGPU relocatable object into an HSACO (lld, in process).
llvm::Expected<std::string> linkHsaco(llvm::StringRef object);
/// The resources `kernel` uses, from the HSACO's amdhsa.kernels note.
llvm::Expected<KernelResources> readMetadata(llvm::StringRef hsaco,
                                             llvm::StringRef kernel);
} // namespace amdgpu

} // namespace ktc::gpu

#endif // KTC_LIB_TARGET_GPUCODEGEN_H
