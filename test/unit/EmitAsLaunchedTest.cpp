//===- EmitAsLaunchedTest.cpp - the code a launch would run, offline ------===//
//
// Kernel::emit_as_launched() and info_as_launched() take a launch's
// arguments and specialise the kernel by the launch's own rule: a stride of
// 1 folded, integers divisible by 16 and aligned buffers marked. The code
// must be exactly what the launch compiles (compared with KTC_DUMP's copy of
// the launched kernel), and its bad arguments the launch's errors.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"
#include "ktc/ktc.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

using namespace ktc;

namespace {

int at = 0; // the line an error must point to

void expectError(const std::function<void()> &f, const std::string &message) {
  test::expectErrorAt(f, message, __FILE__, at);
}

/// dst[i] = src[i * stride] for i < n (a gather with a runtime stride).
auto gatherKernel() {
  return Kernel("gather", {"src", "dst", "n", "stride", "BLOCK"},
                [](Ptr<float> src, Ptr<float> dst, Int n, Int stride,
                   int BLOCK) {
                  auto i = program_id(0) * BLOCK + arange(0, BLOCK);
                  auto mask = i < n;
                  store(dst + i, load(src + i * stride, mask), mask);
                });
}

bool has(const std::string &text, const std::string &what) {
  return text.find(what) != std::string::npos;
}

TEST(EmitAsLaunched, AStrideOfOneGivesVectorLoads) {
  auto gather = gatherKernel();
  AnyBuffer<float> any;
  // Unspecialised: the stride is unknown, so every element is its own load.
  std::string sm90 = gather.emit("asm", "sm_90", 1024);
  std::string gfx942 = gather.emit("asm", "gfx942", 1024);
  EXPECT_FALSE(has(sm90, "ld.global.v4"));
  EXPECT_FALSE(has(gfx942, "global_load_dwordx4"));
  // As a launch with stride 1 and n % 16 == 0 compiles it: 16-byte loads.
  std::string sm90One =
      gather.emit_as_launched("asm", "sm_90", any, any, 4096, 1, 1024);
  std::string gfx942One =
      gather.emit_as_launched("asm", "gfx942", any, any, 4096, 1, 1024);
  EXPECT_TRUE(has(sm90One, "ld.global.v4")) << sm90One;
  EXPECT_TRUE(has(gfx942One, "global_load_dwordx4")) << gfx942One;
  // A stride of 2 or 32 is not contiguous: scalar loads again (the stores
  // stay vectors: dst and n are aligned).
  for (int stride : {2, 32}) {
    std::string strided =
        gather.emit_as_launched("asm", "gfx942", any, any, 4096, stride, 1024);
    EXPECT_FALSE(has(strided, "global_load_dwordx4")) << stride;
    EXPECT_TRUE(has(strided, "global_store_dwordx4")) << stride;
  }
  // n not a multiple of 16: the mask is not uniform over 4 elements.
  EXPECT_FALSE(has(
      gather.emit_as_launched("asm", "gfx942", any, any, 4095, 1, 1024),
      "global_load_dwordx4"));
  // Options go last, as for launch().
  std::string eight = gather.emit_as_launched("mlir", "gfx942", any, any, 64,
                                              1, 1024, Options{.num_warps = 8});
  EXPECT_TRUE(has(eight, "ktc.num_warps = 8")) << eight;
  // info: the same compile, read back.
  KernelInfo info = gather.info_as_launched("gfx942", any, any, 4096, 1, 1024);
  EXPECT_EQ(info.target, "gfx942");
  EXPECT_GT(info.registers, 0);
  EXPECT_EQ(info.scratch_bytes, 0);
  // For a device of this process: its own compile, not its cache's.
  KernelInfo host =
      gather.info_as_launched(Device::get("cpu"), any, any, 4096, 1, 1024);
  EXPECT_EQ(host.target, "host");
  EXPECT_EQ(gather.num_compiled(), 0u); // nothing was launched
}

/// The specialised kernel a launch compiled (KTC_DUMP's .mlir of it).
std::string launchedMlir(const std::function<void()> &launch) {
  llvm::SmallString<128> dir;
  EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("ktc-as-launched", dir));
  setenv("KTC_DUMP", "mlir", 1);
  setenv("KTC_DUMP_DIR", dir.c_str(), 1);
  setenv("KTC_CACHE", "off", 1);
  launch();
  unsetenv("KTC_DUMP");
  unsetenv("KTC_DUMP_DIR");
  unsetenv("KTC_CACHE");
  std::string text;
  int files = 0;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    auto buffer = llvm::MemoryBuffer::getFile(it->path());
    EXPECT_TRUE(bool(buffer)) << it->path();
    if (buffer)
      text = (*buffer)->getBuffer().str();
    ++files;
  }
  EXPECT_EQ(files, 1);
  llvm::sys::fs::remove_directories(dir);
  return text;
}

TEST(EmitAsLaunched, IsWhatTheLaunchCompiles) {
  Device &cpu = Device::get("cpu");
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  const int n = 37, stride = 3;
  std::vector<float> host(n * stride);
  for (float &x : host)
    x = dist(gen);
  Buffer<float> src(cpu, host);
  // (n, stride) = (48, 1): n `16`, stride `=1`; (37, 3): both `1`.
  for (auto [count, step] : {std::pair{48, 1}, std::pair{n, stride}}) {
    auto gather = gatherKernel();
    Buffer<float> dst(cpu, std::vector<float>(64, NAN));
    std::string launched = launchedMlir([&] {
      gather.launch({1}, src, dst, count, step, 64);
    });
    ASSERT_FALSE(launched.empty());
    std::vector<float> got = dst.to_host();
    for (int i = 0; i < 64; ++i) {
      if (i < count)
        EXPECT_EQ(got[i], host[i * step]) << i;
      else
        EXPECT_TRUE(std::isnan(got[i])) << i;
    }
    // The same text, from the same buffers or from placeholders.
    EXPECT_EQ(gather.emit_as_launched("mlir", "host", src, dst, count, step,
                                      64),
              launched);
    AnyBuffer<float> any;
    EXPECT_EQ(gather.emit_as_launched("mlir", "host", any, any, count, step,
                                      64),
              launched);
    // Plain emit() specialises nothing.
    std::string plain = gather.emit("mlir", "host", 64);
    EXPECT_NE(plain, launched);
    EXPECT_FALSE(has(plain, "ktc.divisibility"));
    EXPECT_TRUE(has(launched, "ktc.divisibility = 16"));
    EXPECT_EQ(gather.num_compiled(), 1u);
  }
}

TEST(EmitAsLaunched, BadArgumentsAreTheLaunchsErrors) {
  auto gather = gatherKernel();
  AnyBuffer<float> any;
  AnyBuffer<int32_t> ints;
  expectError(
      [&] {
        at = __LINE__; gather.emit_as_launched("asm", "gfx942", any, any,
                                               64, 1);
      },
      "kernel 'gather' takes 5 arguments (src, dst, n, stride, BLOCK), got 4");
  expectError(
      [&] {
        at = __LINE__; gather.emit_as_launched("asm", "gfx942", any, ints,
                                               64, 1, 64);
      },
      "argument 2 (dst) is a Ptr<f32> and needs a Buffer<f32> or an "
      "AnyBuffer<f32>, got an AnyBuffer<i32>");
  expectError(
      [&] {
        at = __LINE__; gather.info_as_launched("gfx942", any, any,
                                               int64_t(1) << 40, 1, 64);
      },
      "argument 3 (n) is a scalar i32, and 1099511627776 does not fit in i32");
  // A placeholder holds no memory: a launch refuses it before compiling.
  Buffer<float> dst(Device::get("cpu"), 64);
  expectError(
      [&] {
        at = __LINE__; gather.launch({1}, any, dst, 64, 1, 64);
      },
      "argument 1 (src) is an AnyBuffer<f32>, which stands for a buffer in "
      "emit_as_launched() and info_as_launched() only: launch a Buffer<f32>");
  EXPECT_EQ(gather.num_compiled(), 0u);
}

} // namespace
