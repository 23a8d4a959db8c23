//===- JitFallback.cpp - AOT kernels through the JIT where they have no code ===//
//
// ktc::aot::jitLaunch: what a kernel generated with ktc_add_kernels(...
// JIT_FALLBACK) launches when it has no code object for the process's
// device. Its library links the full ktc library and the export list
// (KTC_AOT_EXPORTS, whose function the generated code passes here), so the
// kernel's traced builder function is in the program: the export of that
// name is found (the list built once, without tracing), its runtime arguments read back from the launch's slots
// (pointers as Views of the application's memory on the AOT runtime's
// device, numbers by their parameter's type), and it is launched with
// Kernel::launch, its constexprs and Options as exported: the JIT compiles
// it for the device (and its disk cache keeps it). Errors are
// ktc::aot::Errors, as every AOT launch's.
//
//===----------------------------------------------------------------------===//

#include "ktc/Aot.h"
#include "ktc/aot/Runtime.h"

#include <climits>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>

namespace ktc::aot {
namespace {

/// The export list made by `fill`, without traces, once per process.
const Exports &exportList(void (*fill)(Exports &)) {
  static std::mutex mutex;
  static std::map<void (*)(Exports &), std::unique_ptr<Exports>> lists;
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<Exports> &list = lists[fill];
  if (!list) {
    auto made = std::make_unique<Exports>(/*trace=*/false);
    fill(*made);
    list = std::move(made);
  }
  return *list;
}

/// ktc's device for the one the AOT runtime chose (the calling thread's
/// current CUDA context or HIP device, as both take it).
Device &jitDevice() {
  switch (aot::device().kind) {
  case DeviceKind::CUDA:
    return Device::get("cuda");
  case DeviceKind::HIP:
    return Device::get("hip");
  case DeviceKind::CPU:
    break;
  }
  return Device::get("cpu");
}

template <typename T> detail::LaunchArg number(const uint64_t &slot) {
  T v;
  std::memcpy(&v, &slot, sizeof(T));
  return detail::LaunchArg(v);
}

/// Runtime argument `slot` as the JIT takes it for parameter `p`.
detail::LaunchArg argument(const detail::ParamSpec &p, const uint64_t &slot,
                           Device &device,
                           std::vector<std::shared_ptr<detail::Allocation>> &keep) {
  if (p.kind.pointer) {
    if (!slot)
      return detail::LaunchArg(nullptr);
    // Its size is not known here: as many elements as an i32-indexed
    // kernel takes (a launch reads only the address; no bounds are checked
    // on AOT launches), of at most 8 bytes.
    size_t count = INT32_MAX;
    keep.push_back(detail::wrap(device, reinterpret_cast<const void *>(slot),
                                count * 8, std::source_location::current()));
    detail::LaunchArg a(nullptr);
    a.kind = detail::LaunchArg::Kind::Buffer;
    a.dtype = p.kind.dtype;
    a.memory = keep.back().get();
    a.count = count;
    a.view = true;
    return a;
  }
  switch (p.kind.dtype) {
  case DType::i1: return number<bool>(slot);
  case DType::i8: return number<int8_t>(slot);
  case DType::i16: return number<int16_t>(slot);
  case DType::i32: return number<int32_t>(slot);
  case DType::i64: return number<int64_t>(slot);
  case DType::u8: return number<uint8_t>(slot);
  case DType::u16: return number<uint16_t>(slot);
  case DType::u32: return number<uint32_t>(slot);
  case DType::u64: return number<uint64_t>(slot);
  case DType::f64: return number<double>(slot);
  default: return number<float>(slot); // f32 (the generator refuses halves)
  }
}

} // namespace

void jitLaunch(const KernelDesc &kernel, const Grid &grid, void **args,
               Stream stream, void (*exports)(Exports &)) {
  std::string name = kernel.name;
  try {
    const Export *e = nullptr;
    for (const Export &x : exportList(exports).all())
      if (x.name == name)
        e = &x;
    if (!e)
      throw Error("the export list linked has no export '" + name + "'");
    Device &device = jitDevice();
    std::vector<std::shared_ptr<detail::Allocation>> keep;
    std::vector<detail::LaunchArg> runtime;
    size_t slot = 0;
    for (const detail::ParamSpec &p : e->params)
      if (p.runtime)
        runtime.push_back(argument(
            p, *static_cast<const uint64_t *>(args[slot++]), device, keep));
    // On the launch's stream, as the AOT launch would be: a null one is
    // the device's default (legacy) stream, which ktc::aot::synchronize()
    // waits for, not ktc's own.
    ktc::Grid g(grid.x, grid.y, grid.z);
    e->launch(device.kind() == ktc::DeviceKind::CPU
                  ? g
                  : g.on(ktc::Stream(device, stream.native)),
              runtime);
  } catch (const std::exception &ex) {
    throw Error("AOT kernel '" + name + "' through the JIT (no code for " +
                aot::device().name + ", " + aot::device().target +
                "): " + ex.what());
  }
}

} // namespace ktc::aot
