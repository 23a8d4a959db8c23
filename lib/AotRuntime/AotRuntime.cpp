//===- AotRuntime.cpp - launching ahead-of-time compiled kernels ---------===//
//
// The device is chosen once per process (KTC_DEVICE, as ktc's JIT reads it);
// each kernel picks its code object for it at its first launch (or, with
// none for the device, its JIT fallback if it has one) and keeps the
// loaded module in its KernelDesc (published with an atomic, so later
// launches take no lock). No LLVM, no MLIR: this library and its users link
// libc, libstdc++ and libdl only.
//
//===----------------------------------------------------------------------===//

#include "Backends.h"

#include <atomic>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace ktc::aot {
namespace {

using detail::Backend;
using detail::Loaded;

std::string lower(std::string s) {
  for (char &c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // Blanks around are ignored, as ktc's KTC_* words are.
  size_t first = s.find_first_not_of(" \t\n");
  size_t last = s.find_last_not_of(" \t\n");
  return first == std::string::npos ? "" : s.substr(first, last - first + 1);
}

struct Chosen {
  DeviceInfo info{DeviceKind::CPU, "cpu", "host"};
  std::unique_ptr<Backend> backend; // null: the CPU
};

Chosen choose() {
  const char *env = std::getenv("KTC_DEVICE");
  std::string want = lower(env ? env : "");
  if (want.empty())
    want = "auto";
  if (want != "auto" && want != "cpu" && want != "cuda" && want != "hip")
    throw Error("unknown device '" + want +
                "' (expected auto, cpu, cuda or hip, from KTC_DEVICE)");
  Chosen chosen;
  std::string whyCuda, whyHip;
  if (want == "cuda" || want == "auto")
    chosen.backend = detail::openCuda(whyCuda);
  if (!chosen.backend && (want == "hip" || want == "auto"))
    chosen.backend = detail::openHip(whyHip);
  if (!chosen.backend && want == "cuda")
    throw Error("KTC_DEVICE=cuda, but " + whyCuda);
  if (!chosen.backend && want == "hip")
    throw Error("KTC_DEVICE=hip, but " + whyHip);
  if (chosen.backend)
    chosen.info = chosen.backend->info();
  return chosen;
}

Chosen &chosen() {
  static Chosen c = choose();
  return c;
}

/// "sm_90a" -> 90 and 'a'; -1 if not an sm target.
int smNumber(const std::string &target, char *suffix) {
  if (target.rfind("sm_", 0) != 0)
    return -1;
  size_t i = 3;
  int n = 0;
  while (i < target.size() && std::isdigit(static_cast<unsigned char>(target[i])))
    n = n * 10 + (target[i++] - '0');
  *suffix = i < target.size() ? target[i] : 0;
  return i == 3 ? -1 : n;
}

std::string processor(const std::string &target) {
  return target.substr(0, target.find(':'));
}

/// The code object of `kernel` for `device`, or null.
const CodeObject *pick(const KernelDesc &kernel, const DeviceInfo &device) {
  const CodeObject *best = nullptr;
  int bestSm = -1;
  for (size_t i = 0; i < kernel.numObjects; ++i) {
    const CodeObject &o = kernel.objects[i];
    std::string target = o.target;
    switch (device.kind) {
    case DeviceKind::CPU:
      if (target == "host")
        return &o;
      break;
    case DeviceKind::HIP:
      if (processor(target) == processor(device.target))
        return &o;
      break;
    case DeviceKind::CUDA: {
      // The device's own SM (sm_90a only there), else the newest older
      // SM's PTX, which the driver compiles for this one.
      char ds = 0, os = 0;
      int dev = smNumber(device.target, &ds), sm = smNumber(target, &os);
      if (sm < 0 || sm > dev || (os != 0 && sm != dev))
        break;
      if (sm > bestSm || (sm == bestSm && os != 0)) {
        best = &o;
        bestSm = sm;
      }
      break;
    }
    }
  }
  return best;
}

[[noreturn]] void noCodeFor(const KernelDesc &kernel, const DeviceInfo &device) {
  std::string has;
  for (size_t i = 0; i < kernel.numObjects; ++i)
    has += std::string(i ? ", " : "") + kernel.objects[i].target;
  throw Error("AOT kernel '" + std::string(kernel.name) +
              "' has no code for this process's device, " + device.name +
              " (" + device.target + "); it was compiled for " +
              (has.empty() ? "nothing" : has) +
              ". Add the target to ktc_add_kernels(... TARGETS ...), or " +
              "JIT_FALLBACK there to compile it for the device with ktc's " +
              "JIT" +
              (device.kind != DeviceKind::CPU && has.find("host") !=
                                                         std::string::npos
                   ? ", or run on the CPU with KTC_DEVICE=cpu"
                   : ""));
}

/// What a kernel keeps in its state[0] once loaded.
struct KernelState {
  const CodeObject *object; // null: launched through kernel.jit
  std::unique_ptr<Loaded> loaded; // GPU only
};

std::mutex loading;

KernelState &loadedState(KernelDesc &kernel) {
  std::atomic_ref<void *> slot(kernel.state[0]);
  if (void *s = slot.load(std::memory_order_acquire))
    return *static_cast<KernelState *>(s);
  std::lock_guard<std::mutex> lock(loading);
  if (void *s = slot.load(std::memory_order_acquire))
    return *static_cast<KernelState *>(s);
  Chosen &c = chosen();
  const CodeObject *object = pick(kernel, c.info);
  if (!object && !kernel.jit)
    noCodeFor(kernel, c.info);
  auto state = std::make_unique<KernelState>();
  state->object = object;
  if (c.backend && object)
    state->loaded = c.backend->load(kernel, *object);
  slot.store(state.get(), std::memory_order_release);
  return *state.release(); // kept for the process's life, as the JIT's are
}

} // namespace

const DeviceInfo &device() { return chosen().info; }

void synchronize(Stream stream) {
  if (Backend *b = chosen().backend.get())
    b->synchronize(stream);
}

void launch(KernelDesc &kernel, const Grid &grid, void **args, Stream stream) {
  const char *axes[] = {"x", "y", "z"};
  int64_t dims[] = {grid.x, grid.y, grid.z};
  for (int i = 0; i < 3; ++i)
    if (dims[i] < 1 || dims[i] > INT32_MAX)
      throw Error("launching AOT kernel '" + std::string(kernel.name) +
                  "': grid " + axes[i] + " = " + std::to_string(dims[i]) +
                  " is not in [1, 2147483647]");
  for (size_t i = 0; i < kernel.numArgs; ++i) {
    if (!(kernel.pointerArgs >> i & 1))
      continue;
    uint64_t address;
    std::memcpy(&address, args[i], sizeof(address));
    if (address % 16 != 0)
      throw Error("launching AOT kernel '" + std::string(kernel.name) +
                  "': argument " + std::to_string(i + 1) +
                  " is a pointer not aligned to 16 bytes (" +
                  std::to_string(address) +
                  "); AOT kernels are compiled for aligned pointers, as "
                  "allocators give");
  }
  KernelState &state = loadedState(kernel);
  std::array<int32_t, 3> g{int32_t(grid.x), int32_t(grid.y), int32_t(grid.z)};
  if (state.loaded)
    state.loaded->launch(g, args, stream);
  else if (state.object)
    detail::runOnHost(state.object->host, args, kernel.numArgs, g);
  else
    kernel.jit(kernel, grid, args, stream);
}

} // namespace ktc::aot
