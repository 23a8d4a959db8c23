//===- Backend.cpp - NVIDIA GPUs: ktc to PTX --------------------------------===//
//
// The GPU lowering (lib/Conversion) with NVIDIA's TargetInfo, then LLVM's
// NVPTX backend. The binary is the PTX text: the CUDA driver assembles it
// for the device when it loads it, so registers and spills are known only
// then (KernelInfo of a "cuda" device).
//
//===----------------------------------------------------------------------===//

#include "lib/Conversion/SharedMemory.h"
#include "lib/Target/LLVMCodegen.h"
#include "lib/Target/NVPTX/NanNarrowing.h"

#include "llvm/ADT/StringExtras.h"

namespace ktc::target {
namespace {

class NVPTXBackend : public GpuBackend {
public:
  llvm::Expected<KernelResources>
  resources(llvm::StringRef ptx, llvm::StringRef, const Target &target,
            const CompileOptions &options) const override {
    KernelResources r; // registers: when the driver loads the PTX
    r.waveSize = target.waveSize;
    r.maxThreads = int64_t(target.waveSize) * options.numWarps;
    // Shared memory: the kernel's array, static (its size in the PTX) or
    // dynamic (the size the PTX says the launch asks for).
    r.sharedBytes = dynamicSharedBytes({ptx.data(), ptx.size()});
    size_t at = ptx.find("ktc_smem[");
    if (!r.sharedBytes && at != llvm::StringRef::npos) {
      llvm::StringRef digits =
          ptx.drop_front(at + 9).take_while(llvm::isDigit);
      if (digits.getAsInteger(10, r.sharedBytes))
        r.sharedBytes = 0;
    }
    return r;
  }

protected:
  CodeFile binaryFile() const override { return CodeFile::Assembly; }
  void prepare(llvm::Module &module, llvm::TargetMachine &) const override {
    keepNanSignInNarrowing(module);
  }
};

} // namespace

const Backend &nvptxBackend() {
  static const NVPTXBackend backend;
  return backend;
}

} // namespace ktc::target
