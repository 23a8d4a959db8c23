//===- LaunchHeuristicTest.cpp - the fused softmax's waves per program ----===//
//
// seeds::fused_launch_warps (examples/kernels/launch.h) halves the fused
// softmax's waves a program when the programs resident at once hold fewer
// than kFusedBytesInFlightPerCU bytes of rows a compute unit and halving
// makes more of them resident. Checked offline, without a GPU, on a stand-in
// MI300X (gfx942, 304 CUs) against occupancies derived here by hand.
//
//===----------------------------------------------------------------------===//

#include "examples/kernels/launch.h"
#include "examples/kernels/seeds.h"
#include "ktc/Occupancy.h"
#include "ktc/ktc.h"

#include "lib/Runtime/Device.h"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace ktc;

namespace {

/// An MI300X as far as launch heuristics look: kind HIP, arch gfx942 (which
/// limits_for(Device &) reads from target()), 304 compute units. It cannot
/// run anything.
class Mi300xStandIn : public detail::DeviceImpl {
public:
  DeviceKind kind() const override { return DeviceKind::HIP; }
  std::string name() const override { return "stand-in MI300X (gfx942)"; }
  int computeUnits() const override { return 304; }
  void *allocate(size_t) override { return nullptr; }
  void release(void *) override {}
  void copyToDevice(void *, const void *, size_t) override { none(); }
  void copyToHost(void *, const void *, size_t) override { none(); }
  void synchronize() override {}
  void *createEvent() override { return nullptr; }
  void recordEvent(void *) override {}
  double elapsedMs(void *, void *) override { return 0.0; }
  void destroyEvent(void *) override {}
  const target::Target &target() const override {
    static const target::Target gfx942 =
        llvm::cantFail(target::Target::parse("gfx942"));
    return gfx942;
  }
  std::shared_ptr<detail::Executable>
  load(const compiler::CompiledKernel &) override {
    none();
    return nullptr;
  }

private:
  [[noreturn]] static void none() {
    throw std::logic_error("the stand-in MI300X runs nothing");
  }
};

/// The fused softmax as fused_launch_warps sees it on the stand-in. The
/// heuristic asks kernel.info(device, ...), which compiles and loads the
/// kernel on that device -- the stand-in runs and loads nothing. The one
/// substitution: the stand-in's arch, gfx942, which ktc compiles offline
/// into the same code-object metadata a device load reads.
struct FusedOnGfx942 {
  Kernel<decltype(&seeds::softmax_fused)> kernel{"softmax_fused",
                                                 &seeds::softmax_fused};
  KernelInfo info(Device &device, int block, const Options &options) const {
    EXPECT_EQ(device.compute_units(), 304); // the stand-in, not another GPU
    return kernel.info("gfx942", block, options);
  }
};

/// Workgroups per CU of the fused softmax on gfx942.
int workgroupsPerCU(int block, int warps) {
  KernelInfo info = FusedOnGfx942{}.kernel.info(
      "gfx942", block, Options{.num_warps = warps});
  return occupancy(info, *limits_for("gfx942")).workgroups_per_cu;
}

// A gfx942 CU has 4 SIMDs of 8 wave slots (32 waves) and 16 barriers. The
// fused softmax at BLOCK 256-4096 with 4 waves, and at 256-2048 with 2, takes
// at most 33 VGPRs (40 allocated: 512 / 40 = 12 waves a SIMD) and 54 SGPRs
// (64 + 16 trap: 800 / 80 = 10), so only wave slots limit: 4 waves a program,
// one per SIMD, 32 / 4 = 8 per CU; 2 waves, 32 / 2 = 16 per CU. At BLOCK 4096
// 2 waves take 86 SGPRs: 800 / (96 + 16) = 7 waves a SIMD, 4 * 7 / 2 = 14 per
// CU -- still more than 8.
TEST(LaunchHeuristic, Gfx942Occupancy) {
  for (int block : {256, 1024, 2048, 4096})
    EXPECT_EQ(workgroupsPerCU(block, 4), 8) << "BLOCK " << block;
  for (int block : {256, 1024, 2048})
    EXPECT_EQ(workgroupsPerCU(block, 2), 16) << "BLOCK " << block;
  EXPECT_GT(workgroupsPerCU(4096, 2), 8);
}

class LaunchHeuristicGfx942 : public ::testing::Test {
protected:
  Device device{std::make_unique<Mi300xStandIn>()};
  FusedOnGfx942 fused;
  int warps(int64_t rows, int block) {
    return seeds::fused_launch_warps(fused, device, rows, block);
  }
};

TEST_F(LaunchHeuristicGfx942, StandInHasTheLimitsOfGfx942) {
  std::optional<DeviceLimits> limits = limits_for(device);
  ASSERT_TRUE(limits);
  EXPECT_EQ(limits->arch, "gfx942");
  EXPECT_EQ(limits->compute_units, 304);
}

// 4096 x 1024: 304 x 8 = 2432 programs resident at 4 waves, 2432 * 4 KiB /
// 304 = 32 KiB a CU < 96 KiB; at 2 waves min(4096, 304 x 16) = 4096 > 2432.
// 4096 x 256 (BLOCK 256, 8 KiB a CU) likewise.
TEST_F(LaunchHeuristicGfx942, ShortRowsHalveTheWaves) {
  EXPECT_EQ(warps(4096, 1024), 2);
  EXPECT_EQ(warps(4096, 256), 2);
}

// 64 x 2048 and 303 x 4096: fewer rows than the 304 CUs, so each CU runs
// one program at most and its latency is the kernel's: twice the waves
// (8). Rows of 16384 already take 16 waves: no more.
TEST_F(LaunchHeuristicGfx942, FewerRowsThanComputeUnitsDoubleTheWaves) {
  EXPECT_EQ(warps(64, 2048), 8);
  EXPECT_EQ(warps(303, 4096), 8);
  EXPECT_EQ(warps(7, 16384), 16);
}

// 1823 x 781 (BLOCK 1024) and 2000 x 2048: at least one row a CU, and every
// row resident at 4 waves (fewer than 2432), so 2 waves cannot put more in
// flight.
TEST_F(LaunchHeuristicGfx942, AllRowsResidentStaysAtFour) {
  EXPECT_EQ(warps(304, 2048), 4);
  EXPECT_EQ(warps(1823, 1024), 4);
  EXPECT_EQ(warps(2000, 2048), 4);
}

// 4096 x 4096: 2432 resident programs hold 8 rows of 16 KiB = 128 KiB a CU
// >= 96 KiB, so it stays at 4 although 2 waves would make more resident.
TEST_F(LaunchHeuristicGfx942, WideRowsStayAtFour) {
  EXPECT_EQ(warps(4096, 4096), 4);
}

// The CPU has no limits: fused_num_warps(block), 4 up to 8192, then 16.
TEST(LaunchHeuristic, CpuTakesTheFullCount) {
  Device &cpu = Device::get("cpu");
  auto fused = Kernel("softmax_fused", seeds::softmax_fused);
  EXPECT_EQ(seeds::fused_launch_warps(fused, cpu, 4096, 1024), 4);
  EXPECT_EQ(seeds::fused_launch_warps(fused, cpu, 64, 2048), 4);
  EXPECT_EQ(seeds::fused_launch_warps(fused, cpu, 4096, 16384), 16);
}

} // namespace
