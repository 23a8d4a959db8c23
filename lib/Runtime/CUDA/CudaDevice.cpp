//===- CudaDevice.cpp - NVIDIA GPUs through the CUDA driver API ------------===//
//
// libcuda.so.1 is opened with dlopen at first use, so one binary starts on
// machines without it (Device::get("auto") then moves on). The few driver
// types and entry points used are declared in lib/Drivers/CudaDriver.h
// (shared with the AOT runtime): no CUDA headers or toolkit are needed to
// build ktc.
//
// Kernels: ktc dialect -> ktc-gpu-pipeline (sm_<major><minor>) -> PTX, in
// process -> cuModuleLoadDataEx (the driver's JIT log on failure); with
// KTC_PTXAS, PTX -> that ptxas -> a cubin -> cuModuleLoadDataEx.
//
// Shared memory: up to 48 KiB is static (in the PTX). A kernel needing more
// declares it dynamic and its PTX says how much (lib/Conversion/
// SharedMemory.h); load() checks it against the device's opt-in maximum
// (CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 227 KiB on an
// H100), opts the function in to it (cuFuncSetAttribute,
// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) and every launch passes
// it as sharedMemBytes.
//
// Several GPUs: device d ("cuda:d") uses d's primary context, or an
// application's own context (Device::get("cuda") while it is current).
// Every call that needs the context makes it current for its own duration
// and then gives the calling thread back the context it had (Current), so
// an application's context is as it left it. Nothing is locked here: the
// driver is thread-safe, and threads driving different devices do not wait
// for each other.
//
//===----------------------------------------------------------------------===//

#include "lib/Conversion/SharedMemory.h"
#include "lib/Drivers/CudaDriver.h"
#include "lib/Runtime/CUDA/Ptxas.h"
#include "lib/Runtime/Device.h"
#include "lib/Support/Env.h"

#include <cstdlib>
#include <map>
#include <mutex>

namespace ktc::detail {
namespace {

// The CUDA driver API, as much of it as ktc uses (lib/Drivers, shared with
// the AOT runtime).
using namespace ktc::drivers;
using Driver = CudaDriver;

/// The driver, initialised (cuInit), or null with `why` set.
const Driver *initDriver(std::string &why) { return cudaDriver(why); }

/// Makes `ctx` the calling thread's current context for a scope, then
/// restores the one it had (when they differ: one driver call otherwise).
class Current {
public:
  Current(const Driver &d, CUcontext ctx) : d(d) {
    if (d.cuCtxGetCurrent(&previous) != 0)
      previous = nullptr;
    if (previous != ctx)
      switched = d.cuCtxSetCurrent(ctx) == 0;
  }
  ~Current() {
    if (switched)
      d.cuCtxSetCurrent(previous);
  }
  Current(const Current &) = delete;
  Current &operator=(const Current &) = delete;

private:
  const Driver &d;
  CUcontext previous = nullptr;
  bool switched = false;
};

/// What one GPU is, read without a context.
DeviceInfo describe(const Driver &d, CUdevice dev, int index) {
  char name[256] = {0};
  d.cuDeviceGetName(name, sizeof(name), dev);
  int major = 0, minor = 0, sms = 0;
  d.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                         dev);
  d.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                         dev);
  d.cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
  // PTX for the device's own SM when LLVM knows it, else for sm_90,
  // which the driver JITs for any newer SM. Compute capability 9.0 gets
  // sm_90a, its own architecture-specific target (wgmma for dots), since
  // ktc compiles for the device it runs on.
  std::string sm = "sm_" + std::to_string(major * 10 + minor);
  if (major == 9 && minor == 0 && env::flag("KTC_CUDA_ARCH_SPECIFIC", true))
    sm += "a";
  auto target = target::Target::parse(sm);
  if (!target) {
    llvm::consumeError(target.takeError());
    sm = "sm_90";
  }
  return DeviceInfo{DeviceKind::CUDA, index, name, sm, sms};
}

/// Throws a ktc::Error for a failed driver call.
void check(const Driver &d, CUresult r, const char *what) {
  if (r != 0)
    throw Error(cudaError(d, r, what));
}

class CudaExecutable : public Executable {
public:
  CudaExecutable(const Driver &d, CUcontext ctx, CUstream stream,
                 CUmodule module, CUfunction function, unsigned threads,
                 unsigned dynamicShared, std::string arch)
      : d(d), ctx(ctx), stream(stream), module(module), function(function),
        threads(threads), dynamicShared(dynamicShared),
        arch(std::move(arch)) {}
  KernelInfo info() const override {
    // CU_FUNC_ATTRIBUTE_*: max threads 0, shared 1, local 3, registers 4.
    auto attr = [&](int which) {
      int v = 0;
      d.cuFuncGetAttribute(&v, which, function);
      return int64_t(v);
    };
    KernelInfo info;
    info.target = arch;
    info.registers = attr(4);
    info.shared_bytes = attr(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES) +
                        dynamicShared;
    info.scratch_bytes = attr(3);
    info.wave_size = 32;
    info.max_threads = threads;
    return info;
  }
  void launch(void **args, size_t, std::array<int32_t, 3> grid,
              void *on) override {
    Current current(d, ctx); // the caller's context back after
    check(d,
          d.cuLaunchKernel(function, grid[0], grid[1], grid[2], threads, 1, 1,
                           /*sharedMemBytes=*/dynamicShared,
                           on ? static_cast<CUstream>(on) : stream, args,
                           nullptr),
          "cuLaunchKernel");
  }

private:
  const Driver &d;
  CUcontext ctx;
  CUstream stream;
  CUmodule module;
  CUfunction function;
  unsigned threads;
  unsigned dynamicShared; // bytes, asked for at every launch
  std::string arch;
};

class CudaDevice : public DeviceImpl {
public:
  CudaDevice(const Driver &d, CUdevice dev, CUcontext ctx, int index,
             bool foreign)
      : d(d), dev(dev), ctx(ctx) {
    this->index = index;
    if (foreign)
      foreignContext = ctx;
    DeviceInfo info = describe(d, dev, index);
    name_ = info.name;
    sms_ = info.compute_units;
    target_ = *target::Target::parse(info.arch);
    d.cuDeviceGetAttribute(&maxShared_,
                           CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                           dev);
    for (int axis = 0; axis < 3; ++axis) {
      int limit = 0;
      if (d.cuDeviceGetAttribute(&limit, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + axis,
                                 dev) == 0 &&
          limit > 0)
        maxGrid_[axis] = limit;
    }
    // Kernels run on the device's own stream. A blocking stream (flags 0):
    // copies through the legacy default stream still wait for launches.
    Current current(d, ctx);
    check(d, d.cuStreamCreate(&stream_, 0), "cuStreamCreate");
  }

  DeviceKind kind() const override { return DeviceKind::CUDA; }
  std::string name() const override {
    return "cuda:" + std::to_string(index) + " " + name_ + " (" +
           std::to_string(sms_) + " SMs, " + target_.name() +
           (foreignContext ? ", the application's context" : "") + ")";
  }
  int computeUnits() const override { return sms_; }
  int maxSharedBytesPerBlock() const override { return maxShared_; }

  void *allocate(size_t bytes) override {
    Current current(d, ctx);
    CUdeviceptr p = 0;
    if (d.cuMemAlloc(&p, std::max<size_t>(bytes, 1)) != 0)
      return nullptr;
    return reinterpret_cast<void *>(p);
  }
  void release(void *address) override {
    Current current(d, ctx);
    d.cuMemFree(reinterpret_cast<CUdeviceptr>(address));
  }
  void copyToDevice(void *dst, const void *src, size_t bytes) override {
    Current current(d, ctx);
    check(d, d.cuMemcpyHtoD(reinterpret_cast<CUdeviceptr>(dst), src, bytes),
          "cuMemcpyHtoD");
  }
  void copyToHost(void *dst, const void *src, size_t bytes) override {
    Current current(d, ctx);
    check(d,
          d.cuMemcpyDtoH(dst, reinterpret_cast<CUdeviceptr>(src), bytes),
          "cuMemcpyDtoH");
  }
  void synchronize() override {
    Current current(d, ctx);
    check(d, d.cuStreamSynchronize(stream_),
          "cuStreamSynchronize (a kernel failed)");
  }
  void *createEvent() override {
    Current current(d, ctx);
    CUevent e = nullptr;
    check(d, d.cuEventCreate(&e, 0), "cuEventCreate");
    return e;
  }
  void synchronizeStream(void *stream) override {
    Current current(d, ctx);
    check(d, d.cuStreamSynchronize(static_cast<CUstream>(stream)),
          "cuStreamSynchronize (a kernel failed)");
  }
  void recordEvent(void *event) override {
    Current current(d, ctx);
    check(d, d.cuEventRecord(static_cast<CUevent>(event), stream_),
          "cuEventRecord");
  }
  double elapsedMs(void *start, void *end) override {
    check(d, d.cuEventSynchronize(static_cast<CUevent>(end)),
          "cuEventSynchronize");
    float ms = 0;
    check(d,
          d.cuEventElapsedTime(&ms, static_cast<CUevent>(start),
                               static_cast<CUevent>(end)),
          "cuEventElapsedTime");
    return ms;
  }
  void destroyEvent(void *event) override {
    d.cuEventDestroy(static_cast<CUevent>(event));
  }

  const target::Target &target() const override { return target_; }
  std::shared_ptr<Executable>
  load(const compiler::CompiledKernel &kernel) override {
    const std::string &ptx = kernel.binary; // NUL-terminated for the driver
    Current current(d, ctx);
    char log[8192] = {0};
    int options[] = {CU_JIT_ERROR_LOG_BUFFER,
                     CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {log, reinterpret_cast<void *>(sizeof(log))};
    // KTC_PTXAS: the toolkit's ptxas makes the cubin instead of the
    // driver's JIT (Ptxas.h).
    std::string cubin;
    if (std::optional<std::string> ptxas = ptxasFromEnvironment())
      cubin = assembleWithPtxas(*ptxas, ptx, target_.name());
    CUmodule cuModule = nullptr;
    CUresult r = d.cuModuleLoadDataEx(
        &cuModule, cubin.empty() ? ptx.c_str() : cubin.data(), 2, options,
        values);
    if (r != 0)
      check(d, r, ("cuModuleLoadDataEx (" + std::string(log) + ")").c_str());
    CUfunction function = nullptr;
    check(d, d.cuModuleGetFunction(&function, cuModule, kernel.name.c_str()),
          "cuModuleGetFunction");
    // Dynamic shared memory: refused here with both numbers rather than by
    // the launch's CUDA_ERROR_INVALID_VALUE.
    int64_t dynamicShared = dynamicSharedBytes(ptx);
    if (dynamicShared > 0) {
      int staticShared = 0;
      d.cuFuncGetAttribute(&staticShared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                           function);
      if (maxShared_ > 0 && staticShared + dynamicShared > maxShared_)
        throw Error("kernel '" + kernel.name + "' needs " +
                    std::to_string(staticShared + dynamicShared) +
                    " bytes of shared memory; " + name_ + " (" + target_.name() +
                    ") allows " + std::to_string(maxShared_) + " per block");
      check(d,
            d.cuFuncSetAttribute(function,
                                 CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                 int(dynamicShared)),
            "cuFuncSetAttribute (dynamic shared memory)");
    }
    auto executable = std::make_shared<CudaExecutable>(
        d, ctx, stream_, cuModule, function, kernel.threadsPerBlock,
        unsigned(dynamicShared), target_.name());
    executable->maxGrid = maxGrid_;
    return executable;
  }

private:
  const Driver &d;
  CUdevice dev;
  CUcontext ctx;
  CUstream stream_ = nullptr;
  std::string name_;
  target::Target target_;
  int sms_ = 0;
  int maxShared_ = 0; // opt-in maximum per block, bytes (0: not reported)
  std::array<int64_t, 3> maxGrid_{INT32_MAX, 65535, 65535};
};

} // namespace

std::vector<DeviceInfo> listCudaDevices(std::string &why) {
  std::vector<DeviceInfo> list;
  const Driver *d = initDriver(why);
  if (!d)
    return list;
  int count = 0;
  if (d->cuDeviceGetCount(&count) != 0 || count == 0) {
    why = "no CUDA device found";
    return list;
  }
  for (int i = 0; i < count; ++i) {
    CUdevice dev = 0;
    if (d->cuDeviceGet(&dev, i) == 0)
      list.push_back(describe(*d, dev, i));
  }
  return list;
}

std::unique_ptr<DeviceImpl> createCudaDevice(int index, void *context,
                                             std::string &why) {
  const Driver *d = initDriver(why);
  if (!d)
    return nullptr;
  CUdevice dev = 0;
  CUcontext ctx = static_cast<CUcontext>(context);
  if (d->cuDeviceGet(&dev, index) != 0 ||
      (!ctx && d->cuDevicePrimaryCtxRetain(&ctx, dev) != 0)) {
    why = "cannot open CUDA device " + std::to_string(index);
    return nullptr;
  }
  return std::make_unique<CudaDevice>(*d, dev, ctx, index, context != nullptr);
}

int currentCudaDevice(void *&context) {
  context = nullptr;
  std::string why;
  const Driver *d = initDriver(why);
  CUcontext current = nullptr;
  CUdevice dev = 0;
  if (!d || d->cuCtxGetCurrent(&current) != 0 || !current ||
      d->cuCtxGetDevice(&dev) != 0)
    return -1;
  // The primary context, retained once per device (a device opened keeps it).
  static std::mutex mutex;
  static std::map<CUdevice, CUcontext> primaries;
  CUcontext primary = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto [it, fresh] = primaries.try_emplace(dev, nullptr);
    if (fresh && d->cuDevicePrimaryCtxRetain(&it->second, dev) != 0)
      it->second = nullptr;
    primary = it->second;
  }
  if (current != primary)
    context = current;
  return dev;
}

} // namespace ktc::detail
