//===- FakeCudaTest.cpp - the CUDA launch path against a stand-in driver --===//
//
// No GPU here: KTC_CUDA_LIBRARY points the CUDA loader at FakeCuda.cpp's
// library (set before the first Device::get, in its own process), which
// records what the runtime asks of the driver. Checked: a kernel past the
// 48 KiB PTX declares statically opts in to its dynamic shared memory and
// launches with it; one under stays static and asks for none; one past the
// device's own per-block limit (99 KiB, though the sm_90 PTX may use 227
// KiB) is refused at load naming both numbers; limits_for(device) reports
// the driver's limit.
//
//===----------------------------------------------------------------------===//

#include "ktc/ktc.h"

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace ktc;

namespace {

const bool fakeDriver = [] {
  setenv("KTC_CUDA_LIBRARY", KTC_FAKE_CUDA_PATH, 1);
  setenv("FAKECUDA_DEVICES", "3", 1); // three GPUs (FakeCuda.cpp)
  return true;
}();

/// An entry point of the stand-in driver, as the application calls it.
template <typename F> F driver(const char *name) {
  void *lib = dlopen(KTC_FAKE_CUDA_PATH, RTLD_NOW);
  EXPECT_NE(lib, nullptr);
  return reinterpret_cast<F>(dlsym(lib, name));
}

int recorded(const char *what) {
  void *lib = dlopen(KTC_FAKE_CUDA_PATH, RTLD_NOW | RTLD_NOLOAD);
  EXPECT_NE(lib, nullptr);
  auto fn = reinterpret_cast<int (*)()>(dlsym(lib, what));
  EXPECT_NE(fn, nullptr) << what;
  return fn ? fn() : -1;
}

int at = 0;

/// A ROWS x COLS f32 tile stored transposed: it changes layout through
/// shared memory, 4 bytes an element (rows swizzled, not padded).
auto transposeTile() {
  return Kernel("transpose_tile", [](Ptr<float> x, Ptr<float> out, int ROWS,
                                     int COLS) {
    auto r = arange(0, ROWS), c = arange(0, COLS);
    auto tile = load(x + expand_dims(r, 1) * COLS + expand_dims(c, 0));
    store(out + expand_dims(c, 0) * ROWS + expand_dims(r, 1), tile);
  });
}

TEST(FakeCuda, DeviceReportsTheDriversSharedLimit) {
  Device &cuda = Device::get("cuda");
  EXPECT_NE(cuda.name().find("Fake CUDA GPU"), std::string::npos);
  std::optional<DeviceLimits> limits = limits_for(cuda);
  ASSERT_TRUE(limits);
  EXPECT_EQ(limits->arch, "sm_90"); // PTX for sm_90 on the 13.5 device
  EXPECT_EQ(limits->max_shared_bytes_per_workgroup, 99 * 1024);
}

TEST(FakeCuda, DynamicSharedMemoryIsOptedInAndLaunched) {
  Device &cuda = Device::get("cuda");
  auto k = transposeTile();
  Buffer<float> x(cuda, std::vector<float>(64 * 256, 1.0f));
  Buffer<float> out(cuda, std::vector<float>(64 * 256, 0.0f));
  // 64x256 f32: 65536 bytes, past the 48 KiB PTX
  // declares statically.
  k.launch({1}, x, out, 64, 256);
  cuda.synchronize();
  EXPECT_EQ(recorded("fakeCudaDynamicSharedAttribute"), 65536);
  EXPECT_EQ(recorded("fakeCudaLaunchSharedBytes"), 65536);
  // info() without buffers compiles unspecialised (scalar accesses): the
  // same size.
  EXPECT_EQ(k.info(cuda, 64, 256).shared_bytes, 64 * 256 * 4);
}

TEST(FakeCuda, StaticSharedMemoryAsksForNone) {
  Device &cuda = Device::get("cuda");
  auto k = transposeTile();
  Buffer<float> x(cuda, std::vector<float>(32 * 128, 1.0f));
  Buffer<float> out(cuda, std::vector<float>(32 * 128, 0.0f));
  int before = recorded("fakeCudaLaunches");
  k.launch({1}, x, out, 32, 128); // 16384 bytes, static
  cuda.synchronize();
  EXPECT_EQ(recorded("fakeCudaLaunches"), before + 1);
  EXPECT_EQ(recorded("fakeCudaLaunchSharedBytes"), 0);
}

TEST(FakeCuda, OverTheDevicesLimitIsRefusedAtLoad) {
  Device &cuda = Device::get("cuda");
  auto k = transposeTile();
  Buffer<float> x(cuda, std::vector<float>(128 * 256, 1.0f));
  Buffer<float> out(cuda, std::vector<float>(128 * 256, 0.0f));
  int before = recorded("fakeCudaLaunches");
  // 131072 bytes: sm_90 PTX may use it, this device may not.
  try {
    at = __LINE__; k.launch({1}, x, out, 128, 256);
    ADD_FAILURE() << "no error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find(
                  "kernel 'transpose_tile' needs 131072 bytes of shared "
                  "memory; "
                  "Fake CUDA GPU (sm_90) allows 101376 per block"),
              std::string::npos)
        << e.what();
    EXPECT_EQ(e.line(), static_cast<unsigned>(at)) << e.what();
  }
  EXPECT_EQ(recorded("fakeCudaLaunches"), before);
}

// Several GPUs: each index its own device and primary context; plain
// "cuda" follows the thread's current context (an application's own
// context gets a Device of its own); every ktc call leaves the thread's
// current context as the application had it.
TEST(FakeCuda, DevicesByIndexAndTheCallersContext) {
  auto setCurrent = driver<int (*)(void *)>("cuCtxSetCurrent");
  auto getCurrent = driver<int (*)(void **)>("cuCtxGetCurrent");
  auto primary = driver<int (*)(void **, int)>("cuDevicePrimaryCtxRetain");
  auto current = [&] {
    void *ctx = nullptr;
    getCurrent(&ctx);
    return ctx;
  };
  ASSERT_EQ(Device::count(DeviceKind::CUDA), 3);
  std::vector<DeviceInfo> list = Device::list(DeviceKind::CUDA);
  EXPECT_EQ(list[2].spec(), "cuda:2");
  EXPECT_EQ(list[2].arch, "sm_90");
  EXPECT_EQ(list[2].compute_units, 4);
  setCurrent(nullptr); // no context: cuda:0
  EXPECT_EQ(&Device::get("cuda"), &Device::get("cuda:0"));
  EXPECT_EQ(current(), nullptr);
  void *ctx1 = nullptr;
  primary(&ctx1, 1);
  setCurrent(ctx1); // the application works on GPU 1
  Device &one = Device::get("cuda");
  EXPECT_EQ(one.index(), 1);
  EXPECT_EQ(&one, &Device::get("cuda:1"));
  // Work on GPU 2 from this thread leaves GPU 1's context current.
  Device &two = Device::get("cuda:2");
  EXPECT_EQ(current(), ctx1);
  Buffer<float> x(two, std::vector<float>(64, 1.0f)), out(two, 64);
  EXPECT_EQ(x.to_host()[5], 1.0f);
  auto copy = Kernel("copy", [](Ptr<float> x, Ptr<float> out, int BLOCK) {
    auto offs = arange(0, BLOCK);
    store(out + offs, load(x + offs));
  });
  copy.launch({1}, x, out, 64);
  two.synchronize();
  EXPECT_EQ(current(), ctx1);
  EXPECT_NE(two.name().find("cuda:2 Fake CUDA GPU"), std::string::npos);
  // An application's own context: a Device that launches in it.
  int own = 0;
  setCurrent(&own);
  Device &app = Device::get("cuda");
  EXPECT_NE(&app, &Device::get("cuda:0"));
  EXPECT_EQ(&app, &Device::get("cuda"));
  EXPECT_NE(app.name().find("the application's context"), std::string::npos);
  Buffer<float> y(app, std::vector<float>(64, 2.0f)), yout(app, 64);
  copy.launch({1}, y, yout, 64);
  EXPECT_EQ(current(), &own);
  EXPECT_EQ(copy.num_compiled(), 1u); // one arch
  EXPECT_EQ(copy.num_loaded(), 2u);   // cuda:2 and the application's context
  setCurrent(nullptr);
  try {
    Device::get("cuda:3");
    ADD_FAILURE() << "cuda:3 opened";
  } catch (const Error &e) {
    EXPECT_EQ(e.message(),
              "device 'cuda:3' does not exist: this process has 3 CUDA "
              "devices: cuda:0 (Fake CUDA GPU, sm_90), cuda:1 (Fake CUDA GPU, "
              "sm_90), cuda:2 (Fake CUDA GPU, sm_90)");
  }
}

/// A kernel of its own for each KTC_PTXAS case (each loads once).
auto copyKernel(const char *name) {
  return Kernel(name, [](Ptr<float> x, Ptr<float> out, int N) {
    auto i = arange(0, 64);
    store(out + i, load(x + i, i < N), i < N);
  });
}

/// An executable script at a fresh temporary path.
std::string script(const std::string &name, const std::string &body) {
  std::string path = ::testing::TempDir() + "ktc-" + name + "-" +
                     std::to_string(::getpid()) + ".sh";
  FILE *f = std::fopen(path.c_str(), "w");
  EXPECT_NE(f, nullptr);
  std::fputs(("#!/bin/sh\n" + body + "\n").c_str(), f);
  std::fclose(f);
  EXPECT_EQ(::chmod(path.c_str(), 0755), 0);
  return path;
}

// KTC_PTXAS: the named ptxas assembles the PTX (-arch=<target> -O3 in -o
// out) and its output is what the driver loads; a program that is missing
// or fails is an Error naming it, with its diagnostics.
TEST(FakeCuda, PtxasFromTheEnvironment) {
  Device &cuda = Device::get("cuda:0");
  Buffer<float> x(cuda, std::vector<float>(64, 1.0f)), out(cuda, 64);
  // A stand-in that records its arguments and "assembles" by copying.
  std::string args = ::testing::TempDir() + "ktc-ptxas-args-" +
                     std::to_string(::getpid()) + ".txt";
  std::string copy = script("ptxas-copy", "echo \"$@\" > " + args +
                                              "\ncp \"$3\" \"$5\"");
  setenv("KTC_PTXAS", copy.c_str(), 1);
  int before = recorded("fakeCudaLaunches");
  copyKernel("ptxas_copies").launch({1}, x, out, 64);
  cuda.synchronize();
  EXPECT_EQ(recorded("fakeCudaLaunches"), before + 1);
  FILE *f = std::fopen(args.c_str(), "r");
  ASSERT_NE(f, nullptr);
  char line[512] = {0};
  ASSERT_NE(std::fgets(line, sizeof(line), f), nullptr);
  std::fclose(f);
  EXPECT_EQ(std::string(line).rfind("-arch=sm_90 -O3 ", 0), 0u) << line;
  EXPECT_NE(std::string(line).find(" -o "), std::string::npos) << line;

  // KTC_PTXAS=`ptxas` makes the launch of a fresh kernel `name` an Error
  // whose message holds `message`.
  auto refused = [&](const std::string &ptxas, const char *name,
                     const std::string &message) {
    setenv("KTC_PTXAS", ptxas.c_str(), 1);
    try {
      copyKernel(name).launch({1}, x, out, 64);
      ADD_FAILURE() << "no error with KTC_PTXAS=" << ptxas;
    } catch (const Error &e) {
      EXPECT_NE(e.message().find(message), std::string::npos) << e.message();
    }
  };
  std::string failing =
      script("ptxas-fails", "echo 'ptxas fatal : boom' >&2\nexit 2");
  refused(failing, "ptxas_fails",
          "KTC_PTXAS=" + failing + ": exit code 2: ptxas fatal : boom");
  refused("/nonexistent/ptxas", "ptxas_missing",
          "KTC_PTXAS=/nonexistent/ptxas: not an executable file");
  refused("ktc-no-such-ptxas", "ptxas_not_in_path",
          "KTC_PTXAS=ktc-no-such-ptxas: no such program in PATH");
  unsetenv("KTC_PTXAS");
  std::remove(copy.c_str());
  std::remove(failing.c_str());
  std::remove(args.c_str());
}

} // namespace
