//===- Device.h - the device interface behind ktc::Device (internal) -*- C++ -*-===//
//
// Each device (CPU now; CUDA and HIP later) implements DeviceImpl: memory,
// compiling a traced kernel into an Executable, launching it. Argument
// checking and marshalling are shared (Launch.cpp), so every device sees
// the same `void **` array of pointers to argument values.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_RUNTIME_DEVICE_H
#define KTC_LIB_RUNTIME_DEVICE_H

#include "ktc/Kernel.h"
#include "ktc/Runtime.h"

#include "lib/Runtime/Dump.h"
#include "lib/Target/GpuCodegen.h"

#include "mlir/IR/BuiltinOps.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ktc::detail {

/// A kernel compiled for one device.
class Executable {
public:
  virtual ~Executable();
  /// `args` points at one value per kernel argument (pointers as 64-bit
  /// device addresses, scalars in their own width).
  virtual void launch(void **args, size_t numArgs,
                      std::array<int32_t, 3> grid) = 0;
  /// What the compiled kernel uses.
  virtual KernelInfo info() const = 0;

  /// The largest grid the device launches, per axis. The CPU keeps CUDA's
  /// limits, so that x * y * z fits in 64 bits and a grid that runs on the
  /// CPU runs on an NVIDIA GPU; GPUs set what their driver reports.
  std::array<int64_t, 3> maxGrid{INT32_MAX, 65535, 65535};
  /// Per kernel argument: true for a pointer that some load or store reaches
  /// through i32 offsets only (set by compile(); see Launch.cpp). Such a
  /// pointer cannot address more than INT32_MAX elements.
  std::vector<bool> narrowOffsets;
  /// Compiled for a checked launch (Options::check_bounds on the CPU): the
  /// kernel takes a BoundsHook's address after its arguments.
  bool checkBounds = false;
};

class DeviceImpl {
public:
  virtual ~DeviceImpl();
  virtual DeviceKind kind() const = 0;
  virtual std::string name() const = 0;
  virtual int computeUnits() const = 0;
  /// The most shared memory one block may use, as the driver reports it
  /// (CUDA: the opt-in maximum); 0 where unknown (limits_for keeps the
  /// table's).
  virtual int maxSharedBytesPerBlock() const { return 0; }

  virtual void *allocate(size_t bytes) = 0;
  virtual void release(void *address) = 0;
  virtual void copyToDevice(void *dst, const void *src, size_t bytes) = 0;
  virtual void copyToHost(void *dst, const void *src, size_t bytes) = 0;
  virtual void synchronize() = 0;

  // Events (timing): create, record after the work launched so far, wait,
  // milliseconds between two, destroy.
  virtual void *createEvent() = 0;
  virtual void recordEvent(void *event) = 0;
  virtual double elapsedMs(void *start, void *end) = 0;
  virtual void destroyEvent(void *event) = 0;

  /// What this device's code depends on besides the kernel: the GPU's
  /// architecture ("sm_90", "gfx942"), or the host's triple, CPU and
  /// features. Part of the disk cache's key.
  virtual std::string target() const = 0;
  /// Lowers `module` (a traced kernel, ktc dialect; changed in place) to
  /// the binary load() takes: PTX, HSACO, a host object file. `numWarps` is
  /// the launch's Options::num_warps (GPUs only); `dumper` writes the stages
  /// KTC_DUMP asks for. GPUs share this one.
  virtual std::string codegen(mlir::ModuleOp module, llvm::StringRef kernel,
                              unsigned numWarps, Dumper &dumper);
  /// Loads a binary made by codegen, in this process or another one (the
  /// disk cache).
  virtual std::shared_ptr<Executable> load(llvm::StringRef binary,
                                           llvm::StringRef kernel,
                                           unsigned numWarps) = 0;
  /// The ktc-opt command that runs this device's lowering (reproducers).
  virtual std::string lowering(unsigned numWarps) const;

  /// Back-pointer to the public object (set by Device's constructor).
  Device *owner = nullptr;
};

inline KernelInfo toInfo(const gpu::KernelResources &r, std::string target) {
  KernelInfo info;
  info.target = std::move(target);
  info.registers = r.registers;
  info.scalar_registers = r.scalarRegisters;
  info.shared_bytes = r.sharedBytes;
  info.scratch_bytes = r.scratchBytes;
  info.spills = r.spills;
  info.wave_size = r.waveSize;
  info.max_threads = r.maxThreads;
  return info;
}

struct Allocation {
  Device *device;
  void *address;
  size_t bytes;
  ~Allocation();
};

/// Lowers a traced kernel (ktc dialect, changed in place) for the GPU `arch`
/// and returns it at `stage` (LLVM IR, assembly, or the loadable binary:
/// PTX or HSACO). Throws a ktc::Error naming `kernel`, with the compiler's
/// diagnostics.
std::string compileForGpu(mlir::ModuleOp module, llvm::StringRef kernel,
                          llvm::StringRef arch, unsigned numWarps,
                          gpu::Stage stage, Dumper *dumper = nullptr);
/// `ktc-opt --ktc-gpu-pipeline="target=ARCH num-warps=N"`.
std::string gpuLowering(llvm::StringRef arch, unsigned numWarps);

/// Lowers and generates code for `module` on `device`, or loads the code
/// from the disk cache (CompileCache.cpp), and loads it.
std::shared_ptr<Executable> compileCached(mlir::ModuleOp module,
                                          llvm::StringRef kernel,
                                          DeviceImpl &device, unsigned numWarps,
                                          int numStages, Dumper &dumper);

/// The SHA-256 of ktc's sources (part of every disk cache key).
const char *buildId();

/// The host CPU.
std::unique_ptr<DeviceImpl> createCpuDevice();
/// The first NVIDIA GPU, or null with `why` set.
std::unique_ptr<DeviceImpl> createCudaDevice(std::string &why);
/// The first AMD GPU, or null with `why` set.
std::unique_ptr<DeviceImpl> createHipDevice(std::string &why);

} // namespace ktc::detail

#endif // KTC_LIB_RUNTIME_DEVICE_H
