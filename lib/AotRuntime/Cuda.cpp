//===- Cuda.cpp - AOT kernels on an NVIDIA GPU through the driver API -----===//
//
// The driver as lib/Drivers opens it (libcuda.so.1 or KTC_CUDA_LIBRARY,
// through dlopen, shared with the JIT's lib/Runtime/CUDA); what a launch of
// a loaded PTX needs. The device is the one of the calling thread's current
// context if there is one (the application's), else device 0's primary
// context.
//
//===----------------------------------------------------------------------===//

#include "Backends.h"

#include "lib/Drivers/CudaDriver.h"

namespace ktc::aot::detail {
namespace {

using namespace ktc::drivers;
using Driver = CudaDriver;

void check(const Driver &d, CUresult r, const std::string &what) {
  if (r != 0)
    throw Error(cudaError(d, r, what));
}

class CudaLoaded : public Loaded {
public:
  CudaLoaded(const Driver &d, CUcontext ctx, CUfunction f,
             const CodeObject &o, const char *name)
      : d(d), ctx(ctx), function(f), threads(o.threads),
        shared(o.dynamicShared), name(name) {}
  void launch(std::array<int32_t, 3> grid, void **args,
              Stream stream) override {
    CUcontext current = nullptr;
    if (d.cuCtxGetCurrent(&current) != 0 || current != ctx)
      check(d, d.cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
    CUresult r = d.cuLaunchKernel(function, grid[0], grid[1], grid[2], threads,
                                  1, 1, shared,
                                  static_cast<CUstream>(stream.native), args,
                                  nullptr);
    if (r != 0)
      check(d, r, "launching AOT kernel '" + std::string(name) +
                      "': cuLaunchKernel");
  }

private:
  const Driver &d;
  CUcontext ctx;
  CUfunction function;
  unsigned threads, shared;
  const char *name;
};

class Cuda : public Backend {
public:
  Cuda(const Driver &d, CUcontext ctx, DeviceInfo info)
      : d(d), ctx(ctx), info_(std::move(info)) {}
  DeviceInfo info() const override { return info_; }
  std::unique_ptr<Loaded> load(const KernelDesc &kernel,
                               const CodeObject &o) override {
    check(d, d.cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
    char log[8192] = {0};
    int options[] = {CU_JIT_ERROR_LOG_BUFFER,
                     CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {log, reinterpret_cast<void *>(sizeof(log))};
    CUmodule module = nullptr;
    // The PTX is embedded with a terminating NUL.
    CUresult r = d.cuModuleLoadDataEx(&module, o.data, 2, options, values);
    if (r != 0)
      check(d, r, "loading AOT kernel '" + std::string(kernel.name) +
                      "' (" + o.target + "): cuModuleLoadDataEx (" + log +
                      ")");
    CUfunction f = nullptr;
    check(d, d.cuModuleGetFunction(&f, module, kernel.name),
          "cuModuleGetFunction");
    if (o.dynamicShared > 0)
      check(d,
            d.cuFuncSetAttribute(f,
                                 CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                 int(o.dynamicShared)),
            "cuFuncSetAttribute (dynamic shared memory)");
    return std::make_unique<CudaLoaded>(d, ctx, f, o, kernel.name);
  }
  void synchronize(Stream stream) override {
    check(d, d.cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
    check(d, d.cuStreamSynchronize(static_cast<CUstream>(stream.native)),
          "cuStreamSynchronize");
  }

private:
  const Driver &d;
  CUcontext ctx;
  DeviceInfo info_;
};

} // namespace

std::unique_ptr<Backend> openCuda(std::string &why) {
  const Driver *driver = cudaDriver(why);
  if (!driver)
    return nullptr;
  const Driver &d = *driver;
  int count = 0;
  if (d.cuDeviceGetCount(&count) != 0 || count == 0) {
    why = "no CUDA device was found";
    return nullptr;
  }
  // The application's context, if this thread has one; else device 0's
  // primary context, as ktc's JIT takes it.
  CUcontext ctx = nullptr;
  CUdevice dev = 0;
  if (d.cuCtxGetCurrent(&ctx) != 0 || !ctx ||
      d.cuCtxGetDevice(&dev) != 0) {
    ctx = nullptr;
    check(d, d.cuDeviceGet(&dev, 0), "cuDeviceGet");
    check(d, d.cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
  }
  char name[256] = {0};
  d.cuDeviceGetName(name, sizeof(name), dev);
  int major = 0, minor = 0;
  d.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                         dev);
  d.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                         dev);
  DeviceInfo info{DeviceKind::CUDA, name,
                  "sm_" + std::to_string(major * 10 + minor)};
  return std::make_unique<Cuda>(d, ctx, std::move(info));
}

} // namespace ktc::aot::detail
