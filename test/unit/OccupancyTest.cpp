//===- OccupancyTest.cpp - workgroups per CU, derived by hand -------------===//
//
// Each case states the arithmetic that gives its numbers, from the tables in
// lib/Target/Occupancy.cpp: NVIDIA's CUDA occupancy calculator rules, and
// LLVM's AMDGPU register, wave and LDS limits.
//
//===----------------------------------------------------------------------===//

#include "ktc/Occupancy.h"

#include <gtest/gtest.h>

using namespace ktc;

namespace {

KernelInfo kernel(const std::string &target, int64_t registers, int64_t threads,
                  int64_t sharedBytes = 0, int64_t scalarRegisters = -1) {
  KernelInfo k;
  k.target = target;
  k.registers = registers;
  k.scalar_registers = scalarRegisters;
  k.shared_bytes = sharedBytes;
  k.max_threads = threads;
  return k;
}

Occupancy on(const KernelInfo &k) {
  std::optional<DeviceLimits> device = limits_for(k.target);
  EXPECT_TRUE(device.has_value()) << k.target;
  return device ? occupancy(k, *device) : Occupancy{};
}

void expect(const Occupancy &o, int workgroups, int waves, int maxWaves,
            const std::string &limit) {
  EXPECT_EQ(o.workgroups_per_cu, workgroups) << to_string(o);
  EXPECT_EQ(o.waves_per_cu, waves) << to_string(o);
  EXPECT_EQ(o.max_waves_per_cu, maxWaves) << to_string(o);
  EXPECT_EQ(o.limit, limit) << to_string(o);
}

TEST(Limits, KnownArchitectures) {
  auto gfx942 = limits_for("gfx942");
  ASSERT_TRUE(gfx942);
  EXPECT_EQ(gfx942->compute_units, 0);
  EXPECT_EQ(gfx942->wave_size, 64);
  EXPECT_EQ(gfx942->max_waves_per_cu(), 32); // 4 SIMDs x 8
  EXPECT_EQ(gfx942->shared_bytes_per_cu, 65536);

  auto gfx1100 = limits_for("gfx1100");
  ASSERT_TRUE(gfx1100);
  EXPECT_EQ(gfx1100->wave_size, 32);
  EXPECT_EQ(gfx1100->max_waves_per_cu(), 64); // a WGP: 4 SIMDs x 16

  auto sm90 = limits_for("sm_90");
  ASSERT_TRUE(sm90);
  EXPECT_EQ(sm90->max_waves_per_cu(), 64);
  EXPECT_EQ(sm90->max_workgroups_per_cu, 32);
  EXPECT_EQ(sm90->shared_bytes_per_cu, 228 * 1024);
  EXPECT_EQ(sm90->max_shared_bytes_per_workgroup, 227 * 1024);
  EXPECT_EQ(limits_for("sm_86")->max_waves_per_cu(), 48);
  EXPECT_EQ(limits_for("sm_89")->max_workgroups_per_cu, 24);
}

TEST(Limits, TargetIdsAndVariants) {
  EXPECT_EQ(limits_for("gfx942:sramecc+:xnack-")->arch, "gfx942");
  EXPECT_EQ(limits_for("sm_90a")->arch, "sm_90");
}

TEST(Limits, UnknownArchitectures) {
  EXPECT_FALSE(limits_for("host"));
  EXPECT_FALSE(limits_for("gfx908"));
  EXPECT_FALSE(limits_for("sm_70"));
  EXPECT_FALSE(limits_for(""));
}

// --- NVIDIA sm_90 (H100/H200) ---------------------------------------------

TEST(Sm90, FullOccupancy) {
  // 32 regs x 32 lanes = 1024 per warp; 16384 per partition / 1024 = 16
  // warps, x 4 = 64 per SM: 8 blocks of 8 warps, as many as the 64-warp
  // maximum allows (blocks: 32; shared: the reserved 1 KiB, 228 blocks).
  Occupancy o = on(kernel("sm_90", 32, 256));
  expect(o, 8, 64, 64, "waves");
  EXPECT_DOUBLE_EQ(o.fraction(), 1.0);
}

TEST(Sm90, Registers64) {
  // 64 x 32 = 2048 per warp; 16384 / 2048 = 8 warps per partition, 32 per
  // SM: 4 blocks of 8 warps.
  Occupancy o = on(kernel("sm_90", 64, 256));
  expect(o, 4, 32, 64, "registers");
  EXPECT_DOUBLE_EQ(o.fraction(), 0.5);
}

TEST(Sm90, Registers128SmallBlocks) {
  // 128 x 32 = 4096 per warp; 4 warps per partition, 16 per SM: 4 blocks of
  // 4 warps.
  expect(on(kernel("sm_90", 128, 128)), 4, 16, 64, "registers");
}

TEST(Sm90, Registers255) {
  // 255 x 32 = 8160, rounded to 8192 per warp: 2 warps per partition, 8 per
  // SM: one block of 256 threads (8 warps x 8192 = all 64 K registers).
  expect(on(kernel("sm_90", 255, 256)), 1, 8, 64, "registers");
  // 1024 threads at 255 registers need 32 x 8192 = 256 K registers, four
  // times the SM's (and the block limit's) 64 K: it cannot launch. ptxas
  // caps a 1024-thread kernel at 64 registers, which gives one block:
  // 32 warps x 2048 = 65536.
  expect(on(kernel("sm_90", 255, 1024)), 0, 0, 64, "registers");
  expect(on(kernel("sm_90", 64, 1024)), 1, 32, 64, "registers");
}

TEST(Sm90, SharedMemory) {
  // 100 KiB + 1 KiB reserved = 103424 B (a multiple of 128); 233472 /
  // 103424 = 2.26: 2 blocks (registers would allow 8).
  expect(on(kernel("sm_90", 32, 256, 100 * 1024)), 2, 16, 64, "shared memory");
  // 227 KiB is the most a block may use: 227 + 1 KiB fills the SM once.
  expect(on(kernel("sm_90", 32, 256, 227 * 1024)), 1, 8, 64, "shared memory");
  expect(on(kernel("sm_90", 32, 256, 228 * 1024)), 0, 0, 64, "shared memory");
}

TEST(Sm90, BlockLimit) {
  // One-warp blocks: 64 warps would allow 64, the SM holds 32 blocks.
  expect(on(kernel("sm_90", 32, 32)), 32, 32, 64, "workgroups");
}

TEST(Sm90, RegistersNotKnownOffline) {
  // Offline PTX has no register count (-1): only warps, blocks and shared
  // memory limit.
  expect(on(kernel("sm_90", -1, 256)), 8, 64, 64, "waves");
}

TEST(Sm86, FewerWarps) {
  // 48 warps per SM: 6 blocks of 8 warps (registers would allow 8).
  expect(on(kernel("sm_86", 32, 256)), 6, 48, 48, "waves");
}

TEST(Sm80, SharedMemory) {
  // 164 KiB per SM: 100 + 1 KiB fits once.
  expect(on(kernel("sm_80", 32, 256, 100 * 1024)), 1, 8, 64, "shared memory");
}

// --- AMD gfx942 (MI300) -----------------------------------------------------

TEST(Gfx942, WaveLimit) {
  // 14 VGPRs -> 16 (granule 8); 512 / 16 = 32 > 8 waves per SIMD. 256
  // threads = 4 waves, one per SIMD: 8 workgroups fill the 32 wave slots.
  // 14 SGPRs -> 16 + 16 trap = 32; 800 / 32 = 25 waves: no limit.
  expect(on(kernel("gfx942", 14, 256, 0, 14)), 8, 32, 32, "waves");
}

TEST(Gfx942, TritonFusedSoftmax) {
  // Triton's fused softmax, num_warps = 8: 89 VGPRs -> 96; 512 / 96 = 5
  // waves per SIMD. 512 threads = 8 waves, 2 per SIMD: 5 / 2 = 2
  // workgroups, 16 waves. The seed's formula agrees here: NUM_GPRS =
  // 2 x 65536 = 131072; 131072 / 64 / 89 = 23; min(23, 2048 / 64) / 8 = 2.
  Occupancy o = on(kernel("gfx942", 89, 512));
  expect(o, 2, 16, 32, "registers");
  EXPECT_DOUBLE_EQ(o.fraction(), 0.5);
  EXPECT_EQ(to_string(o),
            "2 workgroups (16 waves) per CU of 32, limited by registers");
}

TEST(Gfx942, Registers34) {
  // 34 VGPRs -> 40; 512 / 40 = 12 waves per SIMD, above the 8 allowed:
  // 8 / 2 per SIMD = 4 workgroups of 8 waves.
  expect(on(kernel("gfx942", 34, 512)), 4, 32, 32, "waves");
}

TEST(Gfx942, FullRegisterFile) {
  // 256 VGPRs: 2 waves per SIMD. One-wave workgroups sit side by side on
  // the 4 SIMDs: 8 of them (and use no barrier, so the 16-workgroup limit
  // does not apply).
  expect(on(kernel("gfx942", 256, 64)), 8, 8, 32, "registers");
  // 512 VGPRs (256 arch + 256 acc): one wave per SIMD, one workgroup of 4.
  expect(on(kernel("gfx942", 512, 256)), 1, 4, 32, "registers");
  expect(on(kernel("gfx942", 513, 256)), 0, 0, 32, "registers");
}

TEST(Gfx942, ScalarRegisters) {
  // 90 SGPRs -> 96 + 16 trap = 112; 800 / 112 = 7 waves per SIMD: 7
  // workgroups of 4 waves. 80 SGPRs -> 96; 800 / 96 = 8: no limit.
  expect(on(kernel("gfx942", 32, 256, 0, 90)), 7, 28, 32, "scalar registers");
  expect(on(kernel("gfx942", 32, 256, 0, 80)), 8, 32, 32, "waves");
}

TEST(Gfx942, Lds) {
  // 40 KiB of the CU's 64 KiB: one workgroup.
  expect(on(kernel("gfx942", 32, 256, 40 * 1024)), 1, 4, 32, "shared memory");
  // 13000 B rounds to 13312 (26 x 512): 65536 / 13312 = 4.9 -> 4 (5 without
  // the granule).
  expect(on(kernel("gfx942", 32, 256, 13000)), 4, 16, 32, "shared memory");
  expect(on(kernel("gfx942", 32, 256, 64 * 1024 + 1)), 0, 0, 32,
         "shared memory");
}

TEST(Gfx942, WorkgroupSizes) {
  // One wave: 4 SIMDs x 8 = 32 workgroups, no barrier limit.
  expect(on(kernel("gfx942", 32, 64)), 32, 32, 32, "waves");
  // Two waves: 32 / 2 = 16 workgroups, also the barrier limit (a tie names
  // the waves).
  expect(on(kernel("gfx942", 32, 128)), 16, 32, 32, "waves");
  // Six waves put 2 on their fullest SIMD: 8 / 2 = 4 workgroups, 24 waves
  // (conservative: an even spread would fit 32 / 6 = 5).
  expect(on(kernel("gfx942", 32, 384)), 4, 24, 32, "waves");
  expect(on(kernel("gfx942", 32, 2048)), 0, 0, 32, "threads");
}

TEST(Gfx90a, SameAsGfx942) {
  expect(on(kernel("gfx90a", 89, 512)), 2, 16, 32, "registers");
}

// --- AMD gfx950 (MI350) -----------------------------------------------------

TEST(Gfx950, Lds) {
  // 160 KiB per CU; 100 KiB = 80 x 1280 B granules fits once, 64 KiB twice.
  expect(on(kernel("gfx950", 32, 256, 100 * 1024)), 1, 4, 32, "shared memory");
  expect(on(kernel("gfx950", 32, 256, 64 * 1024)), 2, 8, 32, "shared memory");
  expect(on(kernel("gfx950", 32, 256, 160 * 1024 + 1)), 0, 0, 32,
         "shared memory");
}

// --- AMD RDNA, wave32, per WGP ---------------------------------------------

TEST(Gfx1100, Registers) {
  // 256 threads = 8 waves of 32, 2 per SIMD. 32 VGPRs -> 48 (granule 24);
  // 1536 / 48 = 32 > 16 waves per SIMD: 16 / 2 = 8 workgroups.
  expect(on(kernel("gfx1100", 32, 256)), 8, 64, 64, "waves");
  // 128 -> 144; 1536 / 144 = 10 waves per SIMD: 5 workgroups.
  expect(on(kernel("gfx1100", 128, 256)), 5, 40, 64, "registers");
  // 256 -> 264; 1536 / 264 = 5 waves per SIMD: 2 workgroups.
  expect(on(kernel("gfx1100", 256, 256)), 2, 16, 64, "registers");
  expect(on(kernel("gfx1100", 257, 256)), 0, 0, 64, "registers");
}

TEST(Gfx1100, WorkgroupSizes) {
  // One wave: 4 x 16 = 64 workgroups, no barrier limit.
  expect(on(kernel("gfx1100", 24, 32)), 64, 64, 64, "waves");
  // Two waves: 64 / 2 = 32, also the WGP's 32 barriers.
  expect(on(kernel("gfx1100", 24, 64)), 32, 64, 64, "waves");
}

TEST(Gfx1100, ScalarRegistersDoNotLimit) {
  expect(on(kernel("gfx1100", 32, 256, 0, 106)), 8, 64, 64, "waves");
}

TEST(Gfx1100, Lds) {
  // 128 KiB per WGP: 48 KiB fits twice; one workgroup addresses 64 KiB.
  expect(on(kernel("gfx1100", 32, 256, 48 * 1024)), 2, 16, 64, "shared memory");
  expect(on(kernel("gfx1100", 32, 256, 64 * 1024 + 1)), 0, 0, 64,
         "shared memory");
}

TEST(Gfx1200, SameAsGfx1100) {
  expect(on(kernel("gfx1200", 128, 256)), 5, 40, 64, "registers");
}

// --- AMD gfx1250 (GFX12.5), wave32, a CU of four SIMDs -----------------------
//
// LLVM 22's llc reports the same occupancies per SIMD (its "; Occupancy:"
// comment) for the register, barrier and LDS cases below.

TEST(Limits, Gfx1250) {
  for (const char *arch : {"gfx1250", "gfx1251"}) {
    auto d = limits_for(arch);
    ASSERT_TRUE(d) << arch;
    EXPECT_EQ(d->arch, arch);
    EXPECT_EQ(d->wave_size, 32);
    EXPECT_EQ(d->simds_per_cu, 4);
    EXPECT_EQ(d->max_waves_per_cu(), 64); // 4 SIMDs x 16
    EXPECT_EQ(d->max_workgroups_per_cu, 16); // CU mode: 16 barriers
    EXPECT_EQ(d->registers_per_simd, 1024);
    EXPECT_EQ(d->register_granule, 16);
    EXPECT_EQ(d->max_registers, 1024);
    EXPECT_EQ(d->scalar_registers_per_simd, 0);
    EXPECT_EQ(d->shared_bytes_per_cu, 327680);
    EXPECT_EQ(d->max_shared_bytes_per_workgroup, 327680);
    EXPECT_EQ(d->shared_granule, 2048);
  }
}

TEST(Gfx1250, WaveLimit) {
  // The fused softmax seed (22 VGPRs, 128 threads = 4 waves, one per
  // SIMD): 22 -> 32 (granule 16); 1024 / 32 = 32 > 16 waves per SIMD: 16
  // workgroups, also the barrier limit (a tie names the waves).
  expect(on(kernel("gfx1250", 22, 128)), 16, 64, 64, "waves");
}

TEST(Gfx1250, Registers) {
  // 256 threads = 8 waves, 2 per SIMD. 72 VGPRs -> 80; 1024 / 80 = 12
  // waves per SIMD (llc: Occupancy 12; a granule of 8 would give 14): 6
  // workgroups.
  expect(on(kernel("gfx1250", 72, 256)), 6, 48, 64, "registers");
  // 97 -> 112; 1024 / 112 = 9 (llc: 9): 4 workgroups.
  expect(on(kernel("gfx1250", 97, 256)), 4, 32, 64, "registers");
  // 256 -> 4 waves per SIMD (llc: 4): 2 workgroups.
  expect(on(kernel("gfx1250", 256, 256)), 2, 16, 64, "registers");
  // Past RDNA's 256: 601 VGPRs -> 608, one wave per SIMD; 4 waves of 128
  // threads fill them once. 1024 is the most a thread may have.
  expect(on(kernel("gfx1250", 601, 128)), 1, 4, 64, "registers");
  expect(on(kernel("gfx1250", 1024, 128)), 1, 4, 64, "registers");
  expect(on(kernel("gfx1250", 1025, 128)), 0, 0, 64, "registers");
}

TEST(Gfx1250, WorkgroupSizes) {
  // One wave: 4 x 16 = 64 workgroups, no barrier limit.
  expect(on(kernel("gfx1250", 24, 32)), 64, 64, 64, "waves");
  // Two waves: the wave slots would hold 32 workgroups, the CU's 16
  // barriers hold 16 (llc: Occupancy 8 = 16 x 2 waves / 4 SIMDs; gfx1100's
  // WGP has 32).
  expect(on(kernel("gfx1250", 24, 64)), 16, 32, 64, "workgroups");
  expect(on(kernel("gfx1250", 24, 2048)), 0, 0, 64, "threads");
}

TEST(Gfx1250, Lds) {
  // 320 KiB per CU, 256 threads: 64 KiB fits 5 times (llc: Occupancy 10 =
  // 5 x 8 waves / 4 SIMDs), 160 KiB twice (llc: 4), 320 KiB once; one byte
  // more cannot run.
  expect(on(kernel("gfx1250", 32, 256, 64 * 1024)), 5, 40, 64,
         "shared memory");
  expect(on(kernel("gfx1250", 32, 256, 160 * 1024)), 2, 16, 64,
         "shared memory");
  expect(on(kernel("gfx1250", 32, 256, 320 * 1024)), 1, 8, 64,
         "shared memory");
  expect(on(kernel("gfx1250", 32, 256, 320 * 1024 + 1)), 0, 0, 64,
         "shared memory");
  // 2 KiB blocks: 35000 B -> 36864 (18 blocks); 327680 / 36864 = 8.9 -> 8
  // workgroups of 4 waves (9 in 1 KiB blocks or without a granule).
  expect(on(kernel("gfx1250", 32, 128, 35000)), 8, 32, 64, "shared memory");
}

// --- NVIDIA sm_100 (B200) and sm_120 (RTX 50) -------------------------------

TEST(Sm100, SameAsSm90) {
  // 64 warps, 32 blocks, 228 KiB per SM (arch_traits.h): sm_90's cases.
  expect(on(kernel("sm_100", 64, 256)), 4, 32, 64, "registers");
  expect(on(kernel("sm_100a", 32, 256, 100 * 1024)), 2, 16, 64,
         "shared memory");
  EXPECT_EQ(limits_for("sm_100")->max_shared_bytes_per_workgroup, 227 * 1024);
}

TEST(Sm120, FewerWarpsAndShared) {
  // 48 warps per SM: 6 blocks of 8 warps.
  expect(on(kernel("sm_120", 32, 256)), 6, 48, 48, "waves");
  // 24 blocks of one warp (cudaOccMaxBlocksPerMultiprocessor).
  expect(on(kernel("sm_120", 32, 32)), 24, 24, 48, "workgroups");
  // 100 KiB per SM, 99 KiB a block: 48 + 1 KiB fits twice.
  expect(on(kernel("sm_120", 32, 256, 48 * 1024)), 2, 16, 48,
         "shared memory");
  expect(on(kernel("sm_120", 32, 256, 99 * 1024 + 1)), 0, 0, 48,
         "shared memory");
}

TEST(ToString, Texts) {
  expect(on(kernel("gfx942", 32, 256, 40 * 1024)), 1, 4, 32, "shared memory");
  EXPECT_EQ(to_string(on(kernel("gfx942", 32, 256, 40 * 1024))),
            "1 workgroup (4 waves) per CU of 32, limited by shared memory");
  EXPECT_EQ(to_string(on(kernel("gfx942", 513, 256))),
            "cannot run: too many registers for one CU");
  EXPECT_EQ(to_string(on(kernel("sm_90", 32, 256, 228 * 1024))),
            "cannot run: too much shared memory for one CU");
}

} // namespace
