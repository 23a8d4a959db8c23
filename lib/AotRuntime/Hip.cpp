//===- Hip.cpp - AOT kernels on an AMD GPU through HIP ---------------------===//
//
// The HIP runtime as lib/Drivers opens it (libamdhip64 or KTC_HIP_LIBRARY,
// through dlopen, shared with the JIT's lib/Runtime/HIP); the device's
// target is its gcnArchName (read from whichever hipDeviceProp_t layout the
// library fills), or KTC_HIP_ARCH. Device 0, or the one hipSetDevice chose.
//
//===----------------------------------------------------------------------===//

#include "Backends.h"

#include "lib/Drivers/HipDriver.h"

#include <cctype>
#include <cstdlib>

namespace ktc::aot::detail {
namespace {

using drivers::gcnArchName;
using Hip = drivers::HipDriver;

void check(const Hip &h, hipError_t r, const std::string &what) {
  if (r != hipSuccess)
    throw Error(drivers::hipError(h, r, what));
}

class HipLoaded : public Loaded {
public:
  HipLoaded(const Hip &h, hipFunction_t f, unsigned threads, const char *name)
      : h(h), function(f), threads(threads), name(name) {}
  void launch(std::array<int32_t, 3> grid, void **args,
              Stream stream) override {
    hipError_t r = h.hipModuleLaunchKernel(function, grid[0], grid[1], grid[2],
                                           threads, 1, 1, 0,
                                           static_cast<hipStream_t>(stream.native),
                                           args, nullptr);
    if (r != hipSuccess)
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
    check(h, h.hipStreamSynchronize(static_cast<hipStream_t>(stream.native)),
          "hipStreamSynchronize");
  }

private:
  const Hip &h;
  int device;
  DeviceInfo info_;
};

} // namespace

std::unique_ptr<Backend> openHip(std::string &why) {
  const Hip *hip = drivers::hipDriver(why);
  if (!hip)
    return nullptr;
  const Hip &h = *hip;
  int count = 0, device = 0;
  if (h.hipGetDeviceCount(&count) != hipSuccess || count == 0) {
    why = "no AMD GPU was found";
    return nullptr;
  }
  if (h.hipGetDevice(&device) != hipSuccess)
    device = 0;
  char name[256] = {0};
  (void)h.hipDeviceGetName(name, sizeof(name), device);
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
