//===- HipDriver.cpp - the HIP runtime through dlopen ----------------------===//
//
// Opens the runtime once per process (a function-local static: thread-safe),
// looks up every entry point HipDriver lists and calls hipInit.
//
//===----------------------------------------------------------------------===//

#include "HipDriver.h"
#include "Symbols.h"

#include <dlfcn.h>

#include <cstdlib>
#include <vector>

namespace ktc::drivers {

namespace {

/// Loads the library and its entry points; false with `error` set.
bool load(HipDriver &hip, std::string &error) {
  // KTC_HIP_LIBRARY names another HIP runtime (a path or a name).
  const char *env = std::getenv("KTC_HIP_LIBRARY");
  bool named = env && *env;
  std::vector<std::string> names;
  if (named)
    names = {env};
  else
    names = {"libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6",
             "libamdhip64.so.5"};
  void *lib = nullptr;
  std::string tried, why, path;
  for (const std::string &name : names) {
    if ((lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL))) {
      path = name;
      break;
    }
    const char *reason = dlerror();
    tried += (tried.empty() ? "" : ", ") + name;
    why = reason ? reason : "dlopen failed";
  }
  if (!lib) {
    error = "the HIP runtime library " + names.front() + " was not found" +
            (named ? " (KTC_HIP_LIBRARY)"
                   : " (no ROCm HIP runtime; tried " + tried + ")") +
            ": " + why;
    return false;
  }
  Symbols symbols{lib};
  hip.library = lib;
#define KTC_HIP_GET(name) symbols.get(&hip.name, #name);
  KTC_HIP_GET(hipInit)
  KTC_HIP_GET(hipGetDeviceCount)
  KTC_HIP_GET(hipSetDevice)
  KTC_HIP_GET(hipGetDevice)
  KTC_HIP_GET(hipDeviceGetAttribute)
  KTC_HIP_GET(hipDeviceGetName)
  KTC_HIP_GET(hipMalloc)
  KTC_HIP_GET(hipFree)
  KTC_HIP_GET(hipMemcpyHtoD)
  KTC_HIP_GET(hipMemcpyDtoH)
  KTC_HIP_GET(hipDeviceSynchronize)
  KTC_HIP_GET(hipModuleLoadData)
  KTC_HIP_GET(hipModuleGetFunction)
  KTC_HIP_GET(hipModuleLaunchKernel)
  KTC_HIP_GET(hipGetErrorString)
  KTC_HIP_GET(hipStreamCreate)
  KTC_HIP_GET(hipStreamSynchronize)
  KTC_HIP_GET(hipEventCreate)
  KTC_HIP_GET(hipEventRecord)
  KTC_HIP_GET(hipEventSynchronize)
  KTC_HIP_GET(hipEventElapsedTime)
  KTC_HIP_GET(hipEventDestroy)
#undef KTC_HIP_GET
  if (const char *missing = symbols.missing)
    error = path + " lacks " + missing + " (a HIP runtime too old?)";
  return !symbols.missing;
}

} // namespace

std::string hipError(const HipDriver &h, hipError_t r,
                     const std::string &what) {
  const char *message = h.hipGetErrorString(r);
  return what + " failed: " + (message ? message : "unknown error") +
         " (HIP error " + std::to_string(int(r)) + ")";
}

const HipDriver *hipDriver(std::string &why) {
  static HipDriver hip;
  static std::string error;
  static const HipDriver *ready = []() -> const HipDriver * {
    if (!load(hip, error))
      return nullptr;
    if (hipError_t r = hip.hipInit(0); r != hipSuccess) {
      const char *message = hip.hipGetErrorString(r);
      error = std::string("hipInit failed: ") +
              (message ? message : "unknown error") + " (no AMD GPU)";
      return nullptr;
    }
    return &hip;
  }();
  why = error;
  return ready;
}

std::string gcnArchName(const HipDriver &h, int device) {
  auto r0600 = reinterpret_cast<hipError_t (*)(void *, int)>(
      dlsym(h.library, "hipGetDevicePropertiesR0600"));
  auto r0000 = reinterpret_cast<hipError_t (*)(void *, int)>(
      dlsym(h.library, "hipGetDevicePropertiesR0000"));
  if (!r0000)
    r0000 = reinterpret_cast<hipError_t (*)(void *, int)>(
        dlsym(h.library, "hipGetDeviceProperties"));
  alignas(16) char props[4096] = {0}; // larger than either layout
  size_t offset = 0;
  if (r0600 && r0600(props, device) == hipSuccess)
    offset = 1160;
  else if (r0000 && r0000(props, device) == hipSuccess)
    offset = 396;
  else
    return "";
  return std::string(props + offset, strnlen(props + offset, 256));
}

} // namespace ktc::drivers
