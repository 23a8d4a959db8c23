//===- CpuDevice.cpp - the host CPU as a ktc device ------------------------===//
//
// One device, or KTC_HOST_DEVICES logical ones ("cpu:0" ... "cpu:N-1"), all
// running on this CPU: each loads its own copy of a kernel and owns its own
// memory, so that multi-device code (indices, per-device loads, ownership
// checks, one thread per device) runs and is tested where there is no GPU.
//
//===----------------------------------------------------------------------===//

#include "lib/Runtime/Device.h"
#include "lib/Support/Env.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/IR/Module.h"
#include "lib/Target/CPU/HostDebug.h"
#include "lib/Target/CPU/HostTarget.h"

#include "llvm/Support/Threading.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>

namespace ktc::detail {
namespace {

class CpuExecutable : public Executable {
public:
  explicit CpuExecutable(host::HostKernel kernel) : kernel_(std::move(kernel)) {}
  void launch(void **args, size_t numArgs, std::array<int32_t, 3> grid,
              void *) override { // the host's launches are synchronous
    host::AssertRecord asserts; // device_assert's first failure
    if (!checkBounds) {
      kernel_.run(args, numArgs, grid, &asserts);
    } else {
      // A checked launch runs its programs in order, on this thread: the
      // access it reports is the first out of bounds in program order.
      for (int32_t z = 0; z < grid[2]; ++z)
        for (int32_t y = 0; y < grid[1]; ++y)
          for (int32_t x = 0; x < grid[0]; ++x)
            kernel_.runProgram(args, numArgs, {x, y, z}, grid, &asserts);
    }
    if (asserts.failed)
      throw Error(asserts.message(), asserts.file(), asserts.line(),
                  asserts.column());
  }
  KernelInfo info() const override {
    KernelInfo info;
    info.target = "host";
    info.max_threads = 1; // one program per host thread
    return info;
  }

private:
  host::HostKernel kernel_;
};

class CpuDevice : public DeviceImpl {
public:
  explicit CpuDevice(int index) { this->index = index; }
  DeviceKind kind() const override { return DeviceKind::CPU; }
  std::string name() const override {
    return std::string(index ? "cpu:" + std::to_string(index) : "cpu") +
           " (" + std::to_string(computeUnits()) + " threads)";
  }
  int computeUnits() const override {
    return llvm::hardware_concurrency().compute_thread_count();
  }
  void *allocate(size_t bytes) override {
    // 64-byte aligned, like a GPU allocation's 256 is for its loads.
    size_t rounded = (std::max<size_t>(bytes, 1) + 63) / 64 * 64;
    return std::aligned_alloc(64, rounded);
  }
  void release(void *address) override { std::free(address); }
  void copyToDevice(void *dst, const void *src, size_t bytes) override {
    std::memcpy(dst, src, bytes);
  }
  void copyToHost(void *dst, const void *src, size_t bytes) override {
    std::memcpy(dst, src, bytes);
  }
  void synchronize() override {} // launches on the CPU are synchronous
  void *createEvent() override {
    return new std::chrono::steady_clock::time_point();
  }
  void recordEvent(void *event) override {
    *static_cast<std::chrono::steady_clock::time_point *>(event) =
        std::chrono::steady_clock::now();
  }
  double elapsedMs(void *start, void *end) override {
    using Point = std::chrono::steady_clock::time_point;
    return std::chrono::duration<double, std::milli>(
               *static_cast<Point *>(end) - *static_cast<Point *>(start))
        .count();
  }
  void destroyEvent(void *event) override {
    delete static_cast<std::chrono::steady_clock::time_point *>(event);
  }
  const target::Target &target() const override {
    static const target::Target host = target::Target::host();
    return host;
  }
  std::shared_ptr<Executable>
  load(const compiler::CompiledKernel &kernel) override {
    auto loaded = host::HostKernel::load(kernel.binary, kernel.name);
    if (!loaded)
      throw Error("loading kernel '" + kernel.name + "' on the host failed: " +
                  llvm::toString(loaded.takeError()));
    return std::make_shared<CpuExecutable>(std::move(*loaded));
  }
};

} // namespace

std::unique_ptr<DeviceImpl> createCpuDevice(int index) {
  return std::make_unique<CpuDevice>(index);
}

static std::atomic<int> hostDevicesForTests{1};

int hostDeviceCount() {
  int n = 1;
  if (std::optional<std::string> env = env::word("KTC_HOST_DEVICES")) {
    int value = 0;
    if (llvm::StringRef(*env).getAsInteger(10, value) || value < 1 ||
        value > 64)
      env::warnOnce("KTC_HOST_DEVICES", *env,
                    "is not a number of host devices from 1 to 64; using 1");
    else
      n = value;
  }
  return std::max(n, hostDevicesForTests.load());
}

void setHostDeviceCount(int n) {
  int old = hostDevicesForTests.load();
  while (old < n && !hostDevicesForTests.compare_exchange_weak(old, n)) {
  }
}

} // namespace ktc::detail
