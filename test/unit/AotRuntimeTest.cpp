//===- AotRuntimeTest.cpp - libktc-aot-runtime without a generator --------===//
//
// The AOT runtime driven by hand-written kernel tables: built twice, once
// on the CPU (KTC_AOT_TEST_CUDA=0: a host entry written here counts the
// programs it runs and reads its arguments) and once against the stand-in
// CUDA driver (FakeCuda.cpp, KTC_DEVICE=cuda: which code object a device
// gets, the error for a kernel with none for it). One device per process,
// hence two programs. test/aot runs kernels ktc compiled.
//
//===----------------------------------------------------------------------===//

#include "ktc/aot/Runtime.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <vector>

using namespace ktc::aot;

namespace {

/// Runs a launch, returns its error's message ("" if none).
std::string errorOf(KernelDesc &kernel, Grid grid, void **args,
                    Stream stream = {}) {
  try {
    launch(kernel, grid, args, stream);
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

#if !KTC_AOT_TEST_CUDA

std::atomic<int> programs{0};
std::vector<std::atomic<int>> seen(7 * 5 * 3);

/// A host kernel: out[pid] = in[pid] * scale + the grid's size, counted.
void hostEntry(void **args) {
  float *in = *static_cast<float **>(args[0]);
  float *out = *static_cast<float **>(args[1]);
  float scale = *static_cast<float *>(args[2]);
  int32_t *pid = static_cast<int32_t *>(args[3]);
  int32_t *grid = static_cast<int32_t *>(args[6]);
  int64_t i = pid[0] + int64_t(grid[0]) * (pid[1] + int64_t(grid[1]) * pid[2]);
  out[i] = in[i] * scale + float(grid[0] * grid[1] * grid[2]);
  ++seen[i];
  ++programs;
}

TEST(AotHost, EveryProgramOnceWithItsArguments) {
  setenv("KTC_DEVICE", "cpu", 1);
  CodeObject objects[] = {{"sm_90", nullptr, 0, 128, 0, nullptr},
                          {"host", nullptr, 0, 1, 0, &hostEntry}};
  KernelDesc kernel{"scale", objects, 2, 3, 0b011, {}};
  alignas(16) float in[7 * 5 * 3], out[7 * 5 * 3];
  for (int i = 0; i < 105; ++i)
    in[i] = float(i) * 0.5f - 3.0f, out[i] = NAN;
  float scale = 1.75f;
  uint64_t slots[3] = {};
  float *pin = in, *pout = out;
  std::memcpy(&slots[0], &pin, 8);
  std::memcpy(&slots[1], &pout, 8);
  std::memcpy(&slots[2], &scale, 4);
  void *args[3] = {&slots[0], &slots[1], &slots[2]};
  launch(kernel, {7, 5, 3}, args, {});
  EXPECT_EQ(programs.load(), 105);
  for (int i = 0; i < 105; ++i) {
    EXPECT_EQ(seen[i].load(), 1) << i;
    EXPECT_EQ(out[i], in[i] * 1.75f + 105.0f) << i;
  }
  EXPECT_EQ(device().kind, DeviceKind::CPU);
  EXPECT_EQ(device().target, "host");

  // A grid of 0, or past 2^31 - 1, and a misaligned pointer: refused.
  EXPECT_EQ(errorOf(kernel, {7, 0}, args),
            "launching AOT kernel 'scale': grid y = 0 is not in [1, "
            "2147483647]");
  EXPECT_EQ(errorOf(kernel, {int64_t(1) << 31}, args),
            "launching AOT kernel 'scale': grid x = 2147483648 is not in [1, "
            "2147483647]");
  float *odd = out + 1;
  std::memcpy(&slots[1], &odd, 8);
  std::string misaligned = errorOf(kernel, {1}, args);
  EXPECT_NE(misaligned.find("argument 2 is a pointer not aligned to 16 bytes"),
            std::string::npos)
      << misaligned;
  EXPECT_EQ(programs.load(), 105); // none of them ran
}

#else

// Before the device is chosen (at the first launch).
const bool fakeDriver = [] {
  setenv("KTC_DEVICE", "cuda", 1);
  setenv("KTC_CUDA_LIBRARY", KTC_FAKE_CUDA_PATH, 1);
  return true;
}();

int fakeLaunches() {
  void *lib = dlopen(std::getenv("KTC_CUDA_LIBRARY"), RTLD_NOW);
  auto f = reinterpret_cast<int (*)()>(dlsym(lib, "fakeCudaLaunches"));
  return f ? f() : -1;
}
int fakeSharedBytes() {
  void *lib = dlopen(std::getenv("KTC_CUDA_LIBRARY"), RTLD_NOW);
  auto f =
      reinterpret_cast<int (*)()>(dlsym(lib, "fakeCudaLaunchSharedBytes"));
  return f ? f() : -1;
}

const unsigned char ptx[] = "// not PTX: the stand-in loads anything";

TEST(AotCuda, TheNewestPtxNotNewerThanTheDevice) {
  // The stand-in reports compute capability 13.5.
  ASSERT_EQ(device().kind, DeviceKind::CUDA);
  EXPECT_EQ(device().target, "sm_135");
  CodeObject objects[] = {
      {"host", nullptr, 0, 1, 0, nullptr},
      {"sm_80", ptx, sizeof(ptx), 128, 80, nullptr},
      {"sm_90", ptx, sizeof(ptx), 128, 90, nullptr},
      {"sm_90a", ptx, sizeof(ptx), 128, 91, nullptr}, // sm_90 only
      {"sm_140", ptx, sizeof(ptx), 128, 140, nullptr},
      {"gfx942", ptx, sizeof(ptx), 256, 942, nullptr}};
  KernelDesc kernel{"k", objects, 6, 1, 0b1, {}};
  alignas(16) static float buffer[4];
  uint64_t slot = reinterpret_cast<uint64_t>(buffer);
  void *args[1] = {&slot};
  int before = fakeLaunches();
  EXPECT_EQ(errorOf(kernel, {3}, args), "");
  EXPECT_EQ(fakeLaunches(), before + 1);
  EXPECT_EQ(fakeSharedBytes(), 90); // sm_90's dynamic shared memory
}

TEST(AotCuda, NoCodeForTheDeviceIsAClearError) {
  CodeObject objects[] = {{"host", nullptr, 0, 1, 0, nullptr},
                          {"gfx942", ptx, sizeof(ptx), 256, 0, nullptr}};
  KernelDesc kernel{"only_amd", objects, 2, 0, 0, {}};
  uint64_t unused = 0;
  void *args[1] = {&unused};
  int before = fakeLaunches();
  EXPECT_EQ(errorOf(kernel, {1}, args),
            "AOT kernel 'only_amd' has no code for this process's device, "
            "Fake CUDA GPU (sm_135); it was compiled for host, gfx942. Add "
            "the target to ktc_add_kernels(... TARGETS ...), or JIT_FALLBACK "
            "there to compile it for the device with ktc's JIT, or run on "
            "the CPU with KTC_DEVICE=cpu");
  EXPECT_EQ(fakeLaunches(), before);
}

// What the fallback got (a hand-written stand-in for ktc::aot::jitLaunch).
struct JitCall {
  const KernelDesc *kernel = nullptr;
  int64_t x = 0, y = 0, z = 0;
  uint64_t arg0 = 0;
  void *stream = nullptr;
  int calls = 0;
} jitCall;

void fakeJit(const KernelDesc &kernel, const Grid &grid, void **args,
             Stream stream) {
  jitCall.kernel = &kernel;
  jitCall.x = grid.x, jitCall.y = grid.y, jitCall.z = grid.z;
  std::memcpy(&jitCall.arg0, args[0], 8);
  jitCall.stream = stream.native;
  ++jitCall.calls;
}

TEST(AotCuda, NoCodeForTheDeviceTakesTheJitFallback) {
  CodeObject objects[] = {{"host", nullptr, 0, 1, 0, nullptr},
                          {"gfx942", ptx, sizeof(ptx), 256, 0, nullptr}};
  KernelDesc kernel{"amd_or_jit", objects, 2, 1, 0b1, {}, &fakeJit};
  alignas(16) static float buffer[4];
  uint64_t slot = reinterpret_cast<uint64_t>(buffer);
  void *args[1] = {&slot};
  int stream = 0; // any address: the fallback gets it as it is
  int before = fakeLaunches();
  for (int i = 1; i <= 2; ++i) {
    EXPECT_EQ(errorOf(kernel, {5, 3, 2}, args, {&stream}), "");
    EXPECT_EQ(jitCall.calls, i);
  }
  EXPECT_EQ(jitCall.kernel, &kernel);
  EXPECT_EQ(jitCall.x * 100 + jitCall.y * 10 + jitCall.z, 532);
  EXPECT_EQ(jitCall.arg0, slot);
  EXPECT_EQ(jitCall.stream, &stream);
  EXPECT_EQ(fakeLaunches(), before); // the driver launched nothing itself
  // The fallback has the same checks before it: a misaligned pointer.
  uint64_t odd = slot + 4;
  void *oddArgs[1] = {&odd};
  EXPECT_NE(errorOf(kernel, {1}, oddArgs).find("not aligned"),
            std::string::npos);
  EXPECT_EQ(jitCall.calls, 2);
}

#endif

} // namespace
