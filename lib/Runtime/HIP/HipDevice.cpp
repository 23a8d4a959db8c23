//===- HipDevice.cpp - AMD GPUs through the HIP module API -----------------===//
//
// Debian's HIP headers give the types and attribute values; the library is
// opened with dlopen at first use (libamdhip64.so, .so.7, .so.6, .so.5;
// lib/Drivers/HipDriver.h, shared with the AOT runtime), so one binary
// serves every ROCm a user has and starts where there is none.
// Properties come from hipDeviceGetAttribute, except the target id
// (gcnArchName, "gfx942:sramecc+:xnack-"), read from whichever layout of
// hipDeviceProp_t the library's entry point fills (it changed in ROCm 6).
//
// Kernels: compiled by lib/Compiler for the device's target (HSACO),
// loaded with hipModuleLoadData.
//
// Several GPUs: device d ("hip:d") makes itself the calling thread's
// current device (hipSetDevice) for each call that needs it, and sets back
// the one the thread had (Current). Nothing is locked here.
//
//===----------------------------------------------------------------------===//

#include "lib/Drivers/HipDriver.h"
#include "lib/Runtime/Device.h"
#include "lib/Support/Env.h"

#include <cstdlib>
#include <mutex>

namespace ktc::detail {
namespace {

// The HIP runtime's entry points (lib/Drivers, shared with the AOT
// runtime).
using Hip = drivers::HipDriver;
using drivers::gcnArchName;

void check(const Hip &h, hipError_t r, const std::string &what) {
  if (r != hipSuccess)
    throw Error(drivers::hipError(h, r, what));
}

/// The gfx target of a device: KTC_HIP_ARCH, else its gcnArchName, else
/// from its major.minor "compute capability" (9.0 -> gfx90a, 9.4 ->
/// gfx942, ...).
std::string archOf(const Hip &h, int device, int major, int minor) {
  if (auto env = env::word("KTC_HIP_ARCH")) // " GFX942 " too
    return *env;
  std::string name = gcnArchName(h, device);
  if (!name.empty())
    return name;
  if (major == 9 && minor == 0)
    return "gfx90a";
  if (major == 9 && minor == 4)
    return "gfx942";
  if (major == 9 && minor == 5)
    return "gfx950";
  return "gfx" + std::to_string(major) + std::to_string(minor) + "0";
}

/// The runtime, initialised (hipInit), or null with `why` set.
const Hip *initHip(std::string &why) { return drivers::hipDriver(why); }

/// Makes `device` the calling thread's current device for a scope, then
/// sets back the one it had.
class Current {
public:
  Current(const Hip &h, int device) : h(h) {
    if (h.hipGetDevice(&previous) != hipSuccess)
      previous = -1;
    if (previous != device)
      switched = h.hipSetDevice(device) == hipSuccess && previous >= 0;
  }
  ~Current() {
    if (switched)
      (void)h.hipSetDevice(previous);
  }
  Current(const Current &) = delete;
  Current &operator=(const Current &) = delete;

private:
  const Hip &h;
  int previous = 0;
  bool switched = false;
};

/// What one GPU is, read without making it current.
DeviceInfo describe(const Hip &h, int device) {
  char name[256] = {0};
  (void)h.hipDeviceGetName(name, sizeof(name), device);
  int major = 0, minor = 0, cus = 0;
  h.hipDeviceGetAttribute(&major, hipDeviceAttributeComputeCapabilityMajor,
                          device);
  h.hipDeviceGetAttribute(&minor, hipDeviceAttributeComputeCapabilityMinor,
                          device);
  h.hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, device);
  return DeviceInfo{DeviceKind::HIP, device, name,
                    archOf(h, device, major, minor), cus};
}

class HipExecutable : public Executable {
public:
  HipExecutable(const Hip &h, int device, hipStream_t stream,
                hipFunction_t function, unsigned threads, KernelInfo info)
      : h(h), device(device), stream(stream), function(function),
        threads(threads), info_(std::move(info)) {}
  KernelInfo info() const override { return info_; }
  void launch(void **args, size_t, std::array<int32_t, 3> grid,
              void *on) override {
    Current current(h, device); // the caller's device back after
    check(h,
          h.hipModuleLaunchKernel(function, grid[0], grid[1], grid[2], threads,
                                  1, 1, 0,
                                  on ? static_cast<hipStream_t>(on) : stream,
                                  args, nullptr),
          "hipModuleLaunchKernel");
  }

private:
  const Hip &h;
  int device;
  hipStream_t stream;
  hipFunction_t function;
  unsigned threads;
  KernelInfo info_;
};

class HipDevice : public DeviceImpl {
public:
  HipDevice(const Hip &h, int device) : h(h), device(device) {
    index = device;
    DeviceInfo info = describe(h, device);
    name_ = info.name;
    cus_ = info.compute_units;
    arch_ = info.arch;
    h.hipDeviceGetAttribute(&wave_, hipDeviceAttributeWarpSize, device);
    // LDS a workgroup may use (64 KiB on MI300X, 160 KiB on MI355X). LDS is
    // static on AMD: the lowering already refused a kernel needing more
    // than its arch's table gives (lib/Target/SharedLimits.h).
    h.hipDeviceGetAttribute(&maxShared_,
                            hipDeviceAttributeMaxSharedMemoryPerBlock, device);
    int limits[3] = {0, 0, 0};
    h.hipDeviceGetAttribute(&limits[0], hipDeviceAttributeMaxGridDimX, device);
    h.hipDeviceGetAttribute(&limits[1], hipDeviceAttributeMaxGridDimY, device);
    h.hipDeviceGetAttribute(&limits[2], hipDeviceAttributeMaxGridDimZ, device);
    for (int axis = 0; axis < 3; ++axis)
      if (limits[axis] > 0)
        maxGrid_[axis] = limits[axis];
    Current current(h, device);
    check(h, h.hipStreamCreate(&stream_), "hipStreamCreate");
  }

  DeviceKind kind() const override { return DeviceKind::HIP; }
  std::string name() const override {
    return "hip:" + std::to_string(device) + " " + name_ + " (" + std::to_string(cus_) + " CUs, " + arch_ +
           ", wave" + std::to_string(wave_) + ")";
  }
  int computeUnits() const override { return cus_; }
  int maxSharedBytesPerBlock() const override { return maxShared_; }

  void *allocate(size_t bytes) override {
    Current current(h, device);
    void *p = nullptr;
    return h.hipMalloc(&p, std::max<size_t>(bytes, 1)) == hipSuccess ? p
                                                                       : nullptr;
  }
  void release(void *address) override {
    Current current(h, device);
    h.hipFree(address);
  }
  void copyToDevice(void *dst, const void *src, size_t bytes) override {
    Current current(h, device);
    check(h, h.hipMemcpyHtoD(dst, const_cast<void *>(src), bytes),
          "hipMemcpyHtoD");
  }
  void copyToHost(void *dst, const void *src, size_t bytes) override {
    Current current(h, device);
    check(h, h.hipMemcpyDtoH(dst, const_cast<void *>(src), bytes),
          "hipMemcpyDtoH");
  }
  void synchronize() override {
    Current current(h, device);
    check(h, h.hipStreamSynchronize(stream_),
          "hipStreamSynchronize (a kernel failed)");
  }
  void synchronizeStream(void *stream) override {
    Current current(h, device);
    check(h, h.hipStreamSynchronize(static_cast<hipStream_t>(stream)),
          "hipStreamSynchronize (a kernel failed)");
  }
  void *createEvent() override {
    Current current(h, device);
    hipEvent_t e = nullptr;
    check(h, h.hipEventCreate(&e), "hipEventCreate");
    return e;
  }
  void recordEvent(void *event) override {
    Current current(h, device);
    check(h, h.hipEventRecord(static_cast<hipEvent_t>(event), stream_),
          "hipEventRecord");
  }
  double elapsedMs(void *start, void *end) override {
    check(h, h.hipEventSynchronize(static_cast<hipEvent_t>(end)),
          "hipEventSynchronize");
    float ms = 0;
    check(h,
          h.hipEventElapsedTime(&ms, static_cast<hipEvent_t>(start),
                                static_cast<hipEvent_t>(end)),
          "hipEventElapsedTime");
    return ms;
  }
  void destroyEvent(void *event) override {
    h.hipEventDestroy(static_cast<hipEvent_t>(event));
  }

  const target::Target &target() const override { return target_; }
  /// The target named by arch(); false (with `why`) if it does not parse.
  bool setTarget(std::string &why) {
    auto target = target::Target::parse(arch_);
    if (!target) {
      why = "its target " + arch_ +
            (env::word("KTC_HIP_ARCH") ? " (from KTC_HIP_ARCH)" : "") +
            " is not one ktc compiles for: " +
            llvm::toString(target.takeError());
      return false;
    }
    target_ = *target;
    return true;
  }
  std::shared_ptr<Executable>
  load(const compiler::CompiledKernel &kernel) override {
    std::string hsaco = kernel.binary;
    Current current(h, device); // a module belongs to the current device
    hipModule_t hipModule = nullptr;
    check(h, h.hipModuleLoadData(&hipModule, hsaco.data()),
          "hipModuleLoadData");
    hipFunction_t function = nullptr;
    check(h, h.hipModuleGetFunction(&function, hipModule, kernel.name.c_str()),
          "hipModuleGetFunction");
    // Keep the code object alive with the module.
    {
      std::lock_guard<std::mutex> lock(imagesMutex_); // loads of other kernels
      images_.push_back(std::move(hsaco));
    }
    unsigned threads = kernel.threadsPerBlock;
    auto executable = std::make_shared<HipExecutable>(
        h, device, stream_, function, threads,
        toInfo(kernel.resources, target_.name()));
    // The hardware counts a grid in work-items, in 32 bits.
    executable->maxGrid = maxGrid_;
    executable->maxGrid[0] =
        std::min<int64_t>(maxGrid_[0], UINT32_MAX / threads);
    return executable;
  }

private:
  const Hip &h;
  int device;
  std::string name_, arch_;
  target::Target target_;
  hipStream_t stream_ = nullptr;
  int cus_ = 0, wave_ = 64;
  int maxShared_ = 0; // LDS per workgroup, bytes (0: not reported)
  std::array<int64_t, 3> maxGrid_{INT32_MAX, 65535, 65535};
  std::mutex imagesMutex_;
  std::vector<std::string> images_;
};

} // namespace

std::vector<DeviceInfo> listHipDevices(std::string &why) {
  std::vector<DeviceInfo> list;
  const Hip *h = initHip(why);
  if (!h)
    return list;
  int count = 0;
  if (h->hipGetDeviceCount(&count) != hipSuccess || count == 0) {
    why = "no AMD GPU found";
    return list;
  }
  for (int i = 0; i < count; ++i)
    list.push_back(describe(*h, i));
  return list;
}

std::unique_ptr<DeviceImpl> createHipDevice(int index, std::string &why) {
  const Hip *h = initHip(why);
  if (!h)
    return nullptr;
  auto device = std::make_unique<HipDevice>(*h, index);
  // A misspelt KTC_HIP_ARCH (or a GPU newer than this LLVM) is refused here,
  // not at the first compile.
  if (!device->setTarget(why))
    return nullptr;
  return device;
}

int currentHipDevice() {
  std::string why;
  const Hip *h = initHip(why);
  int device = 0;
  if (!h || h->hipGetDevice(&device) != hipSuccess)
    return 0;
  return device;
}

} // namespace ktc::detail
