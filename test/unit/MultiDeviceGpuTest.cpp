//===- MultiDeviceGpuTest.cpp - every GPU of a kind, in one process -------===//
//
// MultiDeviceTest's checks on real GPUs, or on the stand-in HIP runtime's
// several devices (FAKEHIP_DEVICES=N, scripts/hip-multi-device.sh): run
// with KTC_SHAPES_DEVICE=cuda or hip, skipped otherwise (CI has no GPU).
// Each device by its index; one compile per arch, one load per device;
// buffers of two devices in one launch refused; one thread per device
// launching at once, each thread's current device (HIP: hipGetDevice) or
// context (CUDA: cuCtxGetCurrent) as the thread had it after every call.
// Results against float64, outputs poisoned first, odd sizes.
//
//===----------------------------------------------------------------------===//

#include "examples/common/example.h"
#include "MultiDeviceKernels.h"
#include "examples/kernels/seeds.h"
#include "ktc/ktc.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cmath>
#include <cstdlib>
#include <future>
#include <optional>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ktc;
using test::addKernel;
using test::checkAdd;
using test::fresh;

namespace {

/// The kind under test, or nullopt (skip).
std::optional<DeviceKind> gpuKind() {
  const char *name = std::getenv("KTC_SHAPES_DEVICE");
  if (!name || (std::string(name) != "cuda" && std::string(name) != "hip"))
    return std::nullopt;
  return Device::get(name).kind();
}

#define REQUIRE_GPU()                                                          \
  std::optional<DeviceKind> kind = gpuKind();                                  \
  if (!kind)                                                                   \
    GTEST_SKIP() << "run with KTC_SHAPES_DEVICE=cuda or hip";                  \
  std::vector<DeviceInfo> all = Device::list(*kind);                           \
  ASSERT_FALSE(all.empty())

/// The calling thread's current device (HIP) or context (CUDA), read from
/// the runtime ktc opened (KTC_HIP_LIBRARY / KTC_CUDA_LIBRARY, else the
/// system's): what ktc must leave as it found it.
void *runtime(DeviceKind kind) {
  const char *env =
      std::getenv(kind == DeviceKind::HIP ? "KTC_HIP_LIBRARY"
                                          : "KTC_CUDA_LIBRARY");
  std::vector<std::string> names;
  if (env && *env)
    names = {env};
  else if (kind == DeviceKind::HIP)
    names = {"libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6"};
  else
    names = {"libcuda.so.1"};
  void *lib = nullptr;
  for (const std::string &n : names)
    if ((lib = dlopen(n.c_str(), RTLD_NOW | RTLD_NOLOAD)))
      break;
  if (!lib)
    ADD_FAILURE() << "the runtime is not loaded";
  return lib;
}
uintptr_t current(DeviceKind kind) {
  void *lib = runtime(kind);
  if (!lib)
    return 0;
  if (kind == DeviceKind::HIP) {
    auto get = reinterpret_cast<int (*)(int *)>(dlsym(lib, "hipGetDevice"));
    int d = -1;
    EXPECT_EQ(get(&d), 0);
    return uintptr_t(d);
  }
  auto get =
      reinterpret_cast<int (*)(void **)>(dlsym(lib, "cuCtxGetCurrent"));
  void *ctx = nullptr;
  EXPECT_EQ(get(&ctx), 0);
  return reinterpret_cast<uintptr_t>(ctx);
}


TEST(MultiDeviceGpu, EveryDeviceByIndex) {
  REQUIRE_GPU();
  const std::string prefix = *kind == DeviceKind::HIP ? "hip:" : "cuda:";
  for (const DeviceInfo &info : all) {
    Device &d = Device::get(info.spec());
    EXPECT_EQ(d.index(), info.index);
    EXPECT_EQ(d.spec(), prefix + std::to_string(info.index));
    EXPECT_EQ(&Device::get(prefix + std::to_string(info.index)), &d);
    EXPECT_GT(info.compute_units, 0);
    EXPECT_FALSE(info.arch.empty());
  }
  std::string beyond = prefix + std::to_string(all.size());
  try {
    Device::get(beyond);
    ADD_FAILURE() << beyond << " opened";
  } catch (const Error &e) {
    EXPECT_NE(e.message().find("device '" + beyond + "' does not exist"),
              std::string::npos)
        << e.message();
    EXPECT_NE(e.message().find(all.back().spec()), std::string::npos)
        << e.message();
  }
}

TEST(MultiDeviceGpu, OneCompilePerArchOneLoadPerDevice) {
  REQUIRE_GPU();
  auto add = addKernel(fresh("add"));
  std::set<std::string> archs;
  for (const DeviceInfo &info : all) {
    archs.insert(info.arch);
    checkAdd(add, Device::get(info.spec()), 1001 + 2 * info.index,
             7 * info.index);
  }
  EXPECT_EQ(add.num_compiled(), archs.size());
  EXPECT_EQ(add.num_loaded(), all.size());
}

TEST(MultiDeviceGpu, BuffersOfTwoDevicesRefused) {
  REQUIRE_GPU();
  if (all.size() < 2)
    GTEST_SKIP() << "one device";
  Device &a = Device::get(all[0].spec()), &b = Device::get(all[1].spec());
  auto add = addKernel("add");
  Buffer<float> x(a, 8), y(b, 8);
  try {
    add.launch({1}, x, y, x, 8, 8);
    ADD_FAILURE() << "a launch with buffers of two devices ran";
  } catch (const Error &e) {
    EXPECT_EQ(e.message(), "argument 2 (y) is a buffer on " + b.name() +
                               ", but argument 1 (x) is on " + a.name() +
                               "; kernel 'add' runs on one device");
  }
}

TEST(MultiDeviceGpu, OneThreadPerDeviceKeepsTheThreadsDevice) {
  REQUIRE_GPU();
  auto softmax = Kernel(fresh("softmax"), seeds::softmax_online);
  const size_t n = all.size();
  std::vector<std::future<double>> worst;
  for (size_t t = 0; t < n; ++t)
    worst.push_back(std::async(std::launch::async, [&, t] {
      // The thread's own choice, before and after ktc: nothing current on
      // CUDA; on HIP, another device than the one it drives.
      if (*kind == DeviceKind::HIP) {
        if (void *lib = runtime(*kind)) {
          EXPECT_EQ(reinterpret_cast<int (*)(int)>(
                        dlsym(lib, "hipSetDevice"))(int((t + 1) % n)),
                    0);
        }
      }
      uintptr_t before = current(*kind);
      Device &d = Device::get(all[t].spec());
      double w = 0;
      for (int round = 0; round < 2; ++round) {
        int64_t rows = 3 + t + round, cols = 97 + 30 * t; // none by 16
        auto hin = example::randomVector(rows * cols, 100 * t + round);
        Buffer<float> in(d, hin);
        Buffer<float> out(d, std::vector<float>(hin.size(), NAN));
        softmax.launch({rows}, in, out, cols, cols, 64);
        EXPECT_EQ(current(*kind), before);
        d.synchronize();
        w = std::max(w, example::check(out.to_host(),
                                       example::softmaxReference(hin, rows,
                                                                 cols),
                                       0)
                            .worst);
        EXPECT_EQ(current(*kind), before);
      }
      return w;
    }));
  for (auto &w : worst)
    EXPECT_LT(w.get(), 1e-5);
  std::set<std::string> archs;
  for (const DeviceInfo &info : all)
    archs.insert(info.arch);
  EXPECT_EQ(softmax.num_compiled(), archs.size());
  EXPECT_EQ(softmax.num_loaded(), n);
}

} // namespace
