//===- CudaDriver.cpp - the CUDA driver API through dlopen ------------------===//
//
// Opens the driver once per process (a function-local static: thread-safe),
// looks up every entry point CudaDriver lists and calls cuInit.
//
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"
#include "Symbols.h"

#include <dlfcn.h>

#include <cstdlib>

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
  Symbols symbols{lib};
  symbols.get(&driver.cuInit, "cuInit");
  symbols.get(&driver.cuDeviceGetCount, "cuDeviceGetCount");
  symbols.get(&driver.cuDeviceGet, "cuDeviceGet");
  symbols.get(&driver.cuDeviceGetName, "cuDeviceGetName");
  symbols.get(&driver.cuDeviceGetAttribute, "cuDeviceGetAttribute");
  symbols.get(&driver.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  symbols.get(&driver.cuCtxSetCurrent, "cuCtxSetCurrent");
  symbols.get(&driver.cuCtxGetCurrent, "cuCtxGetCurrent");
  symbols.get(&driver.cuCtxGetDevice, "cuCtxGetDevice");
  symbols.get(&driver.cuCtxSynchronize, "cuCtxSynchronize");
  symbols.get(&driver.cuMemAlloc, "cuMemAlloc_v2");
  symbols.get(&driver.cuMemFree, "cuMemFree_v2");
  symbols.get(&driver.cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  symbols.get(&driver.cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  symbols.get(&driver.cuModuleLoadDataEx, "cuModuleLoadDataEx");
  symbols.get(&driver.cuModuleGetFunction, "cuModuleGetFunction");
  symbols.get(&driver.cuLaunchKernel, "cuLaunchKernel");
  symbols.get(&driver.cuGetErrorString, "cuGetErrorString");
  symbols.get(&driver.cuFuncGetAttribute, "cuFuncGetAttribute");
  symbols.get(&driver.cuFuncSetAttribute, "cuFuncSetAttribute");
  symbols.get(&driver.cuStreamCreate, "cuStreamCreate");
  symbols.get(&driver.cuStreamSynchronize, "cuStreamSynchronize");
  symbols.get(&driver.cuEventCreate, "cuEventCreate");
  symbols.get(&driver.cuEventRecord, "cuEventRecord");
  symbols.get(&driver.cuEventSynchronize, "cuEventSynchronize");
  symbols.get(&driver.cuEventElapsedTime, "cuEventElapsedTime_v2");
  symbols.get(&driver.cuEventDestroy, "cuEventDestroy_v2");
  if (const char *missing = symbols.missing)
    error = path + " lacks " + missing + " (a CUDA driver too old?)";
  return !symbols.missing;
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
