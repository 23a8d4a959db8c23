//===- FakeHipTest.cpp - the HIP device against a stand-in runtime --------===//
//
// No AMD GPU here: KTC_HIP_LIBRARY points the HIP loader at FakeHip.cpp's
// library. Checked: the device's target is its gcnArchName, the AMD target
// id `gfx942:sramecc+:xnack-` (read from ROCm 6/7's hipDeviceProp_tR0600,
// or with FAKEHIP_OLD_PROPERTIES=1 from the pre-6.0 layout), not a guess
// from compute capability 9.4; kernels are compiled for it (its features in
// the code object) and loaded.
//
//===----------------------------------------------------------------------===//

#include "ktc/ktc.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

using namespace ktc;

namespace {

const bool fakeRuntime = [] {
  setenv("KTC_HIP_LIBRARY", KTC_FAKE_HIP_PATH, 1);
  return true;
}();

auto addOne() {
  return Kernel("add_one", [](Ptr<float> x, Int n, int BLOCK) {
    auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
    store(x + offs, load(x + offs, offs < n) + 1.0f, offs < n);
  });
}

TEST(FakeHip, TargetIsTheDevicesGcnArchName) {
  Device &hip = Device::get("hip");
  EXPECT_NE(hip.name().find("Fake AMD GPU"), std::string::npos) << hip.name();
  EXPECT_NE(hip.name().find("gfx942:sramecc+:xnack-"), std::string::npos)
      << hip.name();
  std::optional<DeviceLimits> limits = limits_for(hip);
  ASSERT_TRUE(limits);
  EXPECT_EQ(limits->arch, "gfx942");
  EXPECT_EQ(limits->compute_units, 304);
}

TEST(FakeHip, KernelsCompileForTheTargetIdAndLoad) {
  Device &hip = Device::get("hip");
  auto k = addOne();
  KernelInfo info = k.info(hip, 256);
  EXPECT_EQ(info.target, "gfx942:sramecc+:xnack-");
  EXPECT_EQ(info.wave_size, 64);
  EXPECT_GT(info.registers, 0);
  // The code object is built for those features (the offline compile of
  // the same target id says so in its assembly).
  std::string text = k.emit("asm", "gfx942:sramecc+:xnack-", 256);
  EXPECT_NE(text.find("amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"),
            std::string::npos);
  Buffer<float> x(hip, std::vector<float>(1000, 1.0f));
  k.launch({4}, x, 1000, 256); // loads and launches (nothing runs)
  hip.synchronize();
}

/// Run by CTest with KTC_HIP_ARCH=gfx9999 (fake-hip/BadHipArch): a target
/// LLVM does not know makes the device unavailable, saying why.
TEST(FakeHip, BadHipArchIsRefused) {
  const char *arch = std::getenv("KTC_HIP_ARCH");
  if (!arch)
    GTEST_SKIP() << "run with KTC_HIP_ARCH set";
  try {
    Device::get("hip");
    ADD_FAILURE() << "the device opened";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find(
                  "device 'hip' is not available: its target gfx9999 (from "
                  "KTC_HIP_ARCH) is not one ktc compiles for: unknown GPU "
                  "target 'gfx9999'"),
              std::string::npos)
        << e.what();
  }
}

} // namespace
