//===- SeedTargetsTest.cpp - every seed kernel for every GPU target -------===//
//
// The seed kernels (examples/kernels/seeds.h: vector-add and the naive,
// online, fused and tiled softmaxes), at the examples' default sizes,
// compile offline for each GPU target docs/targets.md names, the newest
// (sm_100, sm_120, gfx1250) with the others. Each target's code names the
// target, and each kernel fits one compute unit of it: kernel.info() and
// the occupancy table (lib/Target/Occupancy.cpp) give at least one
// workgroup, in the wave size the target runs. About a second in all.
//
//===----------------------------------------------------------------------===//

#include "examples/kernels/seeds.h"
#include "ktc/Occupancy.h"
#include "ktc/ktc.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

using namespace ktc;

namespace {

/// Every GPU target of docs/targets.md's table.
const char *const kTargets[] = {"sm_80",  "sm_90",   "sm_100",  "sm_120",
                                "gfx90a", "gfx942",  "gfx950",  "gfx1100",
                                "gfx1200", "gfx1250"};

/// A seed compiled for a target: emit(stage) or info(), with the examples'
/// constexprs (vector_add: BLOCK 1024; softmax: BLOCK 256 for naive and
/// online, next_pow2(781) = 1024 for fused and tiled, 4 rows a tile).
struct Seed {
  const char *name;
  std::function<std::string(const std::string &)> emit;
  std::function<KernelInfo(const std::string &)> info;
};

std::vector<Seed> seedKernels() {
  static auto add = Kernel("add_kernel", {"x", "y", "out", "n", "BLOCK_SIZE"},
                           seeds::vector_add);
  static auto naive = Kernel("softmax_naive", seeds::softmax_naive);
  static auto online = Kernel("softmax_online", seeds::softmax_online);
  static auto fused = Kernel("softmax_fused", seeds::softmax_fused);
  static auto tiled = Kernel("softmax_tiled", seeds::softmax_tiled);
  return {
      {"vector_add", [](const std::string &t) { return add.emit("asm", t, 1024); },
       [](const std::string &t) { return add.info(t, 1024); }},
      {"softmax_naive",
       [](const std::string &t) { return naive.emit("asm", t, 256); },
       [](const std::string &t) { return naive.info(t, 256); }},
      {"softmax_online",
       [](const std::string &t) { return online.emit("asm", t, 256); },
       [](const std::string &t) { return online.info(t, 256); }},
      {"softmax_fused",
       [](const std::string &t) { return fused.emit("asm", t, 1024); },
       [](const std::string &t) { return fused.info(t, 1024); }},
      {"softmax_tiled",
       [](const std::string &t) { return tiled.emit("asm", t, 4, 1024); },
       [](const std::string &t) { return tiled.info(t, 4, 1024); }},
  };
}

class SeedTargets : public testing::TestWithParam<const char *> {};

TEST_P(SeedTargets, EverySeedCompilesAndFitsACu) {
  const std::string target = GetParam();
  const bool amd = target.rfind("gfx", 0) == 0;
  std::optional<DeviceLimits> cu = limits_for(target);
  ASSERT_TRUE(cu) << target << " has no row in the occupancy table";
  for (const Seed &seed : seedKernels()) {
    SCOPED_TRACE(seed.name);
    std::string code;
    ASSERT_NO_THROW(code = seed.emit(target));
    // PTX's ".target sm_100"; the AMD assembly's ".amdgcn_target
    // "amdgcn-amd-amdhsa--gfx1250"".
    std::string names = amd ? "--" + target + "\"" : ".target " + target + "\n";
    EXPECT_NE(code.find(names), std::string::npos);
    KernelInfo info;
    ASSERT_NO_THROW(info = seed.info(target));
    EXPECT_EQ(info.target, target);
    EXPECT_EQ(info.wave_size, cu->wave_size);
    EXPECT_EQ(info.spills, 0);
    // AMD's code object has the VGPRs; PTX leaves them to the driver (-1).
    EXPECT_EQ(info.registers >= 0, amd) << info.registers;
    Occupancy o = occupancy(info, *cu);
    EXPECT_GE(o.workgroups_per_cu, 1) << to_string(info) << ": " << to_string(o);
  }
}

INSTANTIATE_TEST_SUITE_P(Gpus, SeedTargets, testing::ValuesIn(kTargets),
                         [](const testing::TestParamInfo<const char *> &p) {
                           return std::string(p.param);
                         });

} // namespace
