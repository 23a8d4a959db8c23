//===- CudaDriver.cpp - the CUDA driver API through dlopen ------------------===//
//
// Opens the driver once per process (a function-local static: thread-safe),
// looks up every entry point CudaDriver lists and calls cuInit.
//
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

namespace ktc::drivers {

namespace {

/// Loads the library and its entry points; false with `error` set.
bool load(CudaDriver &driver, std::string &error) {
  // KTC_CUDA_LIBRARY names another driver library (a path or a name).
  const char *env = std::getenv("KTC_CUDA_LIBRARY");
  bool named = env && *env;
  std::string path = named ? env : "libcuda.so.1";
  void *lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    error = "the CUDA driver library " + path + " was not found" +
            (named ? " (KTC_CUDA_LIBRARY)" : " (no NVIDIA driver)") + ": " +
            (why ? why : "dlopen failed");
    return false;
  }
  // One small call per entry point; the message is built once, for the
  // first one missing.
  const char *missing = nullptr;
  auto get = [&](void *slot, const char *name) {
    void *fn = dlsym(lib, name);
    std::memcpy(slot, &fn, sizeof(fn)); // into a function pointer
    if (!fn && !missing)
      missing = name;
  };
  get(&driver.cuInit, "cuInit");
  get(&driver.cuDeviceGetCount, "cuDeviceGetCount");
  get(&driver.cuDeviceGet, "cuDeviceGet");
  get(&driver.cuDeviceGetName, "cuDeviceGetName");
  get(&driver.cuDeviceGetAttribute, "cuDeviceGetAttribute");
  get(&driver.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  get(&driver.cuCtxSetCurrent, "cuCtxSetCurrent");
  get(&driver.cuCtxGetCurrent, "cuCtxGetCurrent");
  get(&driver.cuCtxGetDevice, "cuCtxGetDevice");
  get(&driver.cuCtxSynchronize, "cuCtxSynchronize");
  get(&driver.cuMemAlloc, "cuMemAlloc_v2");
  get(&driver.cuMemFree, "cuMemFree_v2");
  get(&driver.cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  get(&driver.cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  get(&driver.cuModuleLoadDataEx, "cuModuleLoadDataEx");
  get(&driver.cuModuleGetFunction, "cuModuleGetFunction");
  get(&driver.cuLaunchKernel, "cuLaunchKernel");
  get(&driver.cuGetErrorString, "cuGetErrorString");
  get(&driver.cuFuncGetAttribute, "cuFuncGetAttribute");
  get(&driver.cuFuncSetAttribute, "cuFuncSetAttribute");
  get(&driver.cuStreamCreate, "cuStreamCreate");
  get(&driver.cuStreamSynchronize, "cuStreamSynchronize");
  get(&driver.cuEventCreate, "cuEventCreate");
  get(&driver.cuEventRecord, "cuEventRecord");
  get(&driver.cuEventSynchronize, "cuEventSynchronize");
  get(&driver.cuEventElapsedTime, "cuEventElapsedTime_v2");
  get(&driver.cuEventDestroy, "cuEventDestroy_v2");
  if (missing)
    error = path + " lacks " + missing + " (a CUDA driver too old?)";
  return !missing;
}

} // namespace

std::string cudaError(const CudaDriver &d, CUresult r,
                      const std::string &what) {
  const char *message = nullptr;
  if (d.cuGetErrorString(r, &message) != 0 || !message)
    message = "unknown error";
  return what + " failed: " + message + " (CUDA error " + std::to_string(r) +
         ")";
}

const CudaDriver *cudaDriver(std::string &why) {
  static CudaDriver driver;
  static std::string error;
  static const CudaDriver *ready = []() -> const CudaDriver * {
    if (!load(driver, error))
      return nullptr;
    if (CUresult r = driver.cuInit(0)) {
      error = cudaError(driver, r, "cuInit");
      return nullptr;
    }
    return &driver;
  }();
  why = error;
  return ready;
}

} // namespace ktc::drivers
