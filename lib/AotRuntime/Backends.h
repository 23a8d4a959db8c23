//===- Backends.h - the AOT runtime's devices (internal) ---------*- C++ -*-===//
//
// One small interface per kind of device for lib/AotRuntime: CUDA and HIP
// opened with dlopen (lib/Drivers, shared with lib/Runtime's devices), the
// host's programs on threads.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_AOTRUNTIME_BACKENDS_H
#define KTC_LIB_AOTRUNTIME_BACKENDS_H

#include "ktc/aot/Runtime.h"

#include <array>
#include <memory>
#include <string>

namespace ktc::aot::detail {

/// A code object loaded on a GPU: launched with pointers to the argument
/// slots.
class Loaded {
public:
  virtual ~Loaded() = default;
  virtual void launch(std::array<int32_t, 3> grid, void **args,
                      Stream stream) = 0;
};

class Backend {
public:
  virtual ~Backend() = default;
  virtual DeviceInfo info() const = 0;
  virtual std::unique_ptr<Loaded> load(const KernelDesc &kernel,
                                       const CodeObject &object) = 0;
  virtual void synchronize(Stream stream) = 0;
};

/// A CUDA or HIP device, or null with `why` saying why there is none.
std::unique_ptr<Backend> openCuda(std::string &why);
std::unique_ptr<Backend> openHip(std::string &why);

/// Runs every program of `grid` through `entry`, spread over the host's
/// cores.
void runOnHost(HostEntry entry, void **args, size_t numArgs,
               std::array<int32_t, 3> grid);

} // namespace ktc::aot::detail

#endif // KTC_LIB_AOTRUNTIME_BACKENDS_H
