//===- Hip.cpp - AOT kernels on an AMD GPU through HIP ---------------------===//
//
// libamdhip64 (or KTC_HIP_LIBRARY) opened with dlopen, as
// lib/Runtime/HIP/HipDevice.cpp does; the device's target is its
// gcnArchName (read from whichever hipDeviceProp_t layout the library
// fills), or KTC_HIP_ARCH. Device 0, or the one hipSetDevice chose.
//
//===----------------------------------------------------------------------===//

#include "Backends.h"

#include <dlfcn.h>

#include <cctype>
#include <cstdlib>
#include <cstring>

namespace ktc::aot::detail {
namespace {

using hipError_t = int;
using hipModule_t = void *;
using hipFunction_t = void *;
using hipStream_t = void *;

struct Hip {
  hipError_t (*hipInit)(unsigned);
  hipError_t (*hipGetDeviceCount)(int *);
  hipError_t (*hipGetDevice)(int *);
  hipError_t (*hipSetDevice)(int);
  hipError_t (*hipDeviceGetName)(char *, int, int);
  hipError_t (*hipModuleLoadData)(hipModule_t *, const void *);
  hipError_t (*hipModuleGetFunction)(hipFunction_t *, hipModule_t,
                                     const char *);
  hipError_t (*hipModuleLaunchKernel)(hipFunction_t, unsigned, unsigned,
                                      unsigned, unsigned, unsigned, unsigned,
                                      unsigned, hipStream_t, void **, void **);
  hipError_t (*hipStreamSynchronize)(hipStream_t);
  const char *(*hipGetErrorString)(hipError_t);
  void *library;
};

void check(const Hip &h, hipError_t r, const std::string &what) {
  if (r != 0)
    throw Error(what + " failed: " + h.hipGetErrorString(r) + " (HIP error " +
                std::to_string(r) + ")");
}

std::string gcnArchName(const Hip &h, int device) {
  auto r0600 = reinterpret_cast<hipError_t (*)(void *, int)>(
      dlsym(h.library, "hipGetDevicePropertiesR0600"));
  auto r0000 = reinterpret_cast<hipError_t (*)(void *, int)>(
      dlsym(h.library, "hipGetDevicePropertiesR0000"));
  if (!r0000)
    r0000 = reinterpret_cast<hipError_t (*)(void *, int)>(
        dlsym(h.library, "hipGetDeviceProperties"));
  alignas(16) char props[4096] = {0};
  size_t offset = 0;
  if (r0600 && r0600(props, device) == 0)
    offset = 1160;
  else if (r0000 && r0000(props, device) == 0)
    offset = 396;
  else
    return "";
  return std::string(props + offset, strnlen(props + offset, 256));
}

class HipLoaded : public Loaded {
public:
  HipLoaded(const Hip &h, hipFunction_t f, unsigned threads, const char *name)
      : h(h), function(f), threads(threads), name(name) {}
  void launch(std::array<int32_t, 3> grid, void **args,
              Stream stream) override {
    hipError_t r = h.hipModuleLaunchKernel(function, grid[0], grid[1], grid[2],
                                           threads, 1, 1, 0, stream.native,
                                           args, nullptr);
    if (r != 0)
      check(h, r, "launching AOT kernel '" + std::string(name) +
                      "': hipModuleLaunchKernel");
  }

private:
  const Hip &h;
  hipFunction_t function;
  unsigned threads;
  const char *name;
};

class HipBackend : public Backend {
public:
  HipBackend(const Hip &h, int device, DeviceInfo info)
      : h(h), device(device), info_(std::move(info)) {}
  DeviceInfo info() const override { return info_; }
  std::unique_ptr<Loaded> load(const KernelDesc &kernel,
                               const CodeObject &o) override {
    check(h, h.hipSetDevice(device), "hipSetDevice");
    hipModule_t module = nullptr;
    check(h, h.hipModuleLoadData(&module, o.data),
          "loading AOT kernel '" + std::string(kernel.name) + "' (" +
              o.target + "): hipModuleLoadData");
    hipFunction_t f = nullptr;
    check(h, h.hipModuleGetFunction(&f, module, kernel.name),
          "hipModuleGetFunction");
    return std::make_unique<HipLoaded>(h, f, o.threads, kernel.name);
  }
  void synchronize(Stream stream) override {
    check(h, h.hipStreamSynchronize(stream.native), "hipStreamSynchronize");
  }

private:
  const Hip &h;
  int device;
  DeviceInfo info_;
};

} // namespace

std::unique_ptr<Backend> openHip(std::string &why) {
  static Hip h;
  const char *env = std::getenv("KTC_HIP_LIBRARY");
  std::string path;
  void *lib = nullptr;
  for (const char *name :
       {env && *env ? env : "libamdhip64.so", "libamdhip64.so.7",
        "libamdhip64.so.6", "libamdhip64.so.5"}) {
    path = name;
    if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL)) || (env && *env))
      break;
  }
  if (!lib) {
    why = "the HIP runtime " + path + " was not found";
    return nullptr;
  }
  h.library = lib;
  bool all = true;
  auto get = [&](auto &fn, const char *name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
        dlsym(lib, name));
    if (!fn && all) {
      why = path + " lacks " + name;
      all = false;
    }
  };
  get(h.hipInit, "hipInit");
  get(h.hipGetDeviceCount, "hipGetDeviceCount");
  get(h.hipGetDevice, "hipGetDevice");
  get(h.hipSetDevice, "hipSetDevice");
  get(h.hipDeviceGetName, "hipDeviceGetName");
  get(h.hipModuleLoadData, "hipModuleLoadData");
  get(h.hipModuleGetFunction, "hipModuleGetFunction");
  get(h.hipModuleLaunchKernel, "hipModuleLaunchKernel");
  get(h.hipStreamSynchronize, "hipStreamSynchronize");
  get(h.hipGetErrorString, "hipGetErrorString");
  if (!all)
    return nullptr;
  int count = 0, device = 0;
  if (h.hipInit(0) != 0 || h.hipGetDeviceCount(&count) != 0 || count == 0) {
    why = "no AMD GPU was found";
    return nullptr;
  }
  if (h.hipGetDevice(&device) != 0)
    device = 0;
  char name[256] = {0};
  h.hipDeviceGetName(name, sizeof(name), device);
  std::string arch;
  if (const char *a = std::getenv("KTC_HIP_ARCH"); a && *a)
    for (const char *p = a; *p; ++p)
      if (!std::isspace(static_cast<unsigned char>(*p)))
        arch += static_cast<char>(std::tolower(static_cast<unsigned char>(*p)));
  if (arch.empty())
    arch = gcnArchName(h, device);
  if (arch.empty()) {
    why = "the AMD GPU's target (gcnArchName) could not be read; set "
          "KTC_HIP_ARCH";
    return nullptr;
  }
  return std::make_unique<HipBackend>(
      h, device, DeviceInfo{DeviceKind::HIP, name, arch});
}

} // namespace ktc::aot::detail
