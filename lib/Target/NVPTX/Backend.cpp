//===- Backend.cpp - NVIDIA GPUs: ktc to PTX --------------------------------===//
//
// The GPU lowering (lib/Conversion) with NVIDIA's TargetInfo, then LLVM's
// NVPTX backend. The binary is the PTX text: the CUDA driver assembles it
// for the device when it loads it, so registers and spills are known only
// then (KernelInfo of a "cuda" device).
//
//===----------------------------------------------------------------------===//

#include "lib/Target/LLVMCodegen.h"

namespace ktc::target {
namespace {

class NVPTXBackend : public GpuBackend {
public:
  llvm::Expected<KernelResources>
  resources(llvm::StringRef, llvm::StringRef, const Target &target,
            const CompileOptions &options) const override {
    KernelResources r; // registers: when the driver loads the PTX
    r.waveSize = target.waveSize;
    r.maxThreads = int64_t(target.waveSize) * options.numWarps;
    return r;
  }

protected:
  CodeFile binaryFile() const override { return CodeFile::Assembly; }
};

} // namespace

const Backend &nvptxBackend() {
  static const NVPTXBackend backend;
  return backend;
}

} // namespace ktc::target
