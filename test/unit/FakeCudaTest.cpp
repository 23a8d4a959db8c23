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

#include <cstdlib>
#include <string>

using namespace ktc;

namespace {

const bool fakeDriver = [] {
  setenv("KTC_CUDA_LIBRARY", KTC_FAKE_CUDA_PATH, 1);
  return true;
}();

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

} // namespace
