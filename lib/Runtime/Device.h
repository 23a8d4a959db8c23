//===- Device.h - the device interface behind ktc::Device (internal) -*- C++ -*-===//
//
// Each device (the host CPU, CUDA, HIP) implements DeviceImpl: memory,
// events, and loading what the compiler made for its target into an
// Executable that launches it. Devices do not compile (lib/Compiler does).
// Argument checking and marshalling are shared (Launch.cpp), so every
// device sees the same `void **` array of pointers to argument values.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_RUNTIME_DEVICE_H
#define KTC_LIB_RUNTIME_DEVICE_H

#include "ktc/Kernel.h"
#include "ktc/Runtime.h"

#include "lib/Compiler/Compiler.h"

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
  /// `stream`: the application's stream (a CUstream or hipStream_t of the
  /// executable's device; Stream), or null for the device's own.
  virtual void launch(void **args, size_t numArgs,
                      std::array<int32_t, 3> grid, void *stream) = 0;
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
  /// Waits for an application's stream (Stream::synchronize).
  virtual void synchronizeStream(void *stream) { (void)stream; }

  // Events (timing): create, record after the work launched so far, wait,
  // milliseconds between two, destroy.
  virtual void *createEvent() = 0;
  virtual void recordEvent(void *event) = 0;
  virtual double elapsedMs(void *start, void *end) = 0;
  virtual void destroyEvent(void *event) = 0;

  /// What this device runs: the GPU's processor ("sm_90", "gfx942:sramecc+"),
  /// or this host CPU.
  virtual const target::Target &target() const = 0;
  /// Loads a kernel compiled for target(), in this process or another one
  /// (the disk cache).
  virtual std::shared_ptr<Executable>
  load(const compiler::CompiledKernel &kernel) = 0;

  /// The device's ordinal among those of its kind ("cuda:1" is 1).
  int index = 0;
  /// For CUDA: the context launches use, when it is not the device's
  /// primary one (an application's own context; Device::get("cuda")).
  void *foreignContext = nullptr;
  /// Back-pointer to the public object (set by Device's constructor).
  Device *owner = nullptr;
  /// target().cacheId(), set by Device's constructor: devices with the same
  /// one share compiled kernels (KernelImpl), each loading its own copy.
  std::string targetId;
};

/// What a launch compiled for one target: loaded once per device that
/// launches it (detail::loadOn).
struct Compiled {
  compiler::CompiledKernel kernel;
  std::vector<bool> narrowOffsets; // Executable::narrowOffsets
  bool checkBounds = false;
};

inline KernelInfo toInfo(const target::KernelResources &r,
                         std::string target) {
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
  bool owned = true; // false: a View of the application's memory
  ~Allocation();
};

/// The host CPU, as logical device `index` (KTC_HOST_DEVICES; all of them
/// run on the same CPU).
std::unique_ptr<DeviceImpl> createCpuDevice(int index = 0);
/// How many logical host devices this process presents: KTC_HOST_DEVICES
/// (1 when unset), or more after setHostDeviceCount().
int hostDeviceCount();
/// Test-only: present at least `n` logical host devices from now on (the
/// count never shrinks; devices live for the whole process).
void setHostDeviceCount(int n);

/// The NVIDIA GPUs (name, arch, index, SMs), or none with `why` set.
std::vector<DeviceInfo> listCudaDevices(std::string &why);
/// NVIDIA GPU `index` (its primary context), or with `context` an
/// application's own context on it; null with `why` set.
std::unique_ptr<DeviceImpl> createCudaDevice(int index, void *context,
                                             std::string &why);
/// The device of the calling thread's current CUDA context, -1 when it has
/// none; `context` is set to that context when it is not the device's
/// primary one, else null.
int currentCudaDevice(void *&context);

/// The AMD GPUs, or none with `why` set.
std::vector<DeviceInfo> listHipDevices(std::string &why);
/// AMD GPU `index`, or null with `why` set.
std::unique_ptr<DeviceImpl> createHipDevice(int index, std::string &why);
/// The calling thread's current HIP device (hipGetDevice; 0 by default).
int currentHipDevice();

} // namespace ktc::detail

#endif // KTC_LIB_RUNTIME_DEVICE_H
