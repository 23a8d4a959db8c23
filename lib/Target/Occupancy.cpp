//===- Occupancy.cpp - workgroups of a kernel resident on one CU ----------===//
//
// The per-architecture table behind ktc::limits_for and the arithmetic of
// ktc::occupancy. Each resource of a compute unit gives how many workgroups
// of the kernel it can hold; the fewest is the occupancy and names the limit.
//
// The model, per vendor:
//  - AMD: a CU (an RDNA WGP) has SIMDs, each with its own VGPR file, SGPR
//    file (GCN/CDNA) and wave slots. Every wave of a workgroup must be
//    resident at once, spread over the SIMDs: a workgroup of w waves puts
//    ceil(w / SIMDs) on its fullest SIMD, and workgroups smaller than the
//    SIMD count fill the SIMDs side by side. LDS and the barrier count are
//    shared by the whole CU. (LLVM's getOccupancyWithWorkGroupSizes assumes
//    an even spread of all resident waves instead; the two differ only for
//    a wave count above the SIMD count and not a multiple of it, e.g. six
//    waves with 8 slots per SIMD: 4 workgroups here, 5 evenly spread.)
//  - NVIDIA: CUDA's occupancy calculator (cuda_occupancy.h,
//    cudaOccMaxBlocksPerSMRegsLimit): registers are allocated per warp in
//    units of 256 out of four sub-partitions of 16384; a block fits when its
//    warps, rounded up to four, fit the partitions, and the SM then holds
//    floor(4 × warps per partition / warps per block) blocks.
//
// Scratch (private / local memory) and spills do not limit occupancy here:
// they live in memory (the scratch wave limit some AMD firmware applies
// depends on the queue's scratch allocation, not on the kernel alone).
//
//===----------------------------------------------------------------------===//

#include "ktc/Occupancy.h"
#include "lib/Target/SharedLimits.h"

#include "lib/Target/Target.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace ktc {
namespace {

// --- AMD -------------------------------------------------------------------
//
// LLVM's AMDGPU backend is the reference (llvm/lib/Target/AMDGPU/Utils/
// AMDGPUBaseInfo.cpp and AMDGPUSubtarget.cpp, llvm-project main 2024-25),
// with the processors' features from AMDGPU.td:
//  - getEUsPerCU: 4 SIMDs per CU on gfx9; on gfx10+ 2 per CU in CU mode and
//    4 per WGP in WGP mode, the default (FeatureCuMode is off unless asked
//    for). HIP reports WGPs as compute units on gfx10+ in WGP mode
//    (ROCm/hip#3767, ROCm/hip#3198), so the RDNA "CU" here is a WGP.
//  - getMaxWavesPerEU: 8 with FeatureGFX90AInsts (gfx90a, gfx940-942,
//    gfx950), 16 with FeatureGFX10_3Insts (gfx103x, gfx11, gfx12). HIP's
//    maxThreadsPerMultiProcessor (2048 on MI300X = 32 waves of 64) agrees.
//  - getTotalNumVGPRs / getVGPRAllocGranule: 512 (unified arch + acc file)
//    in granules of 8 with FeatureGFX90AInsts; with Feature1_5xVGPRs
//    (gfx1100, gfx1101, gfx1200, gfx1201) 1536 in granules of 24
//    for wave32. getNumWavesPerEUWithNumVGPRs divides the two.
//  - getAddressableNumVGPRs: 512 with FeatureGFX90AInsts, else 256.
//  - getTotalNumSGPRs / getSGPRAllocGranule: 800 per SIMD in granules of 16
//    on gfx8-gfx9; on gfx10+ every wave gets a fixed set and SGPRs never
//    limit (getOccupancyWithNumSGPRs returns the wave maximum there).
//    The code object's .sgpr_count already holds VCC, FLAT_SCRATCH and
//    XNACK_MASK (AMDGPUUsage; AMDGPUResourceUsageAnalysis adds
//    getNumExtraSGPRs), but not the 16 trap temporaries a wave gets when
//    the runtime installs a trap handler, as ROCm does: getMaxNumSGPRs
//    subtracts TRAP_NUM_SGPRS = 16 (GCNSubtarget.cpp turns on
//    +trap-handler for the amdhsa OS).
//    Doubt: GCNSubtarget::getOccupancyWithNumSGPRs (IsaInfo's table, <= 100
//    SGPRs -> 8 waves) ignores both granule and trap SGPRs and is laxer;
//    the conservative getMaxNumSGPRs arithmetic is used: waves =
//    800 / (alignTo(sgprs, 16) + 16), i.e. <= 80 SGPRs for 8 waves.
//  - getMaxWorkGroupsPerCU: 16 barriers per CU (32 per WGP in WGP mode);
//    workgroups of a single wave use none and are bounded by wave slots.
//  - getLocalMemorySize / getAddressableLocalMemorySize: 64 KiB per CU
//    (FeatureAddressableLocalMemorySize65536), gfx950 160 KiB
//    (...163840); in WGP mode a workgroup still addresses 64 KiB of the
//    WGP's 128 KiB.
//  - LDS allocation granule: AMDGPUUsage's COMPUTE_PGM_RSRC2.LDS_SIZE,
//    128 dwords (512 B) on gfx7-gfx9, 320 dwords (1280 B) on gfx950. On
//    gfx10.3-gfx12 the field counts 512 B, but LLVM's getLDSAllocGranule
//    work (llvm-project PRs #220051, #224852) says the hardware allocates
//    1 KiB blocks there; 1 KiB is used, the conservative of the two.
//    AMDGPUSubtarget's occupancy itself ignores the granule (a FIXME).

/// gfx90a, gfx940-gfx942: CDNA2/CDNA3, wave64.
DeviceLimits cdna(const std::string &arch) {
  DeviceLimits d;
  d.arch = arch;
  d.wave_size = 64;
  d.simds_per_cu = 4;
  d.max_waves_per_simd = 8;
  d.max_workgroups_per_cu = 16;
  d.max_threads_per_workgroup = 1024; // getMaxFlatWorkGroupSize
  d.registers_per_simd = 512;
  d.register_granule = 8;
  d.max_registers = 512;
  d.scalar_registers_per_simd = 800;
  d.scalar_register_granule = 16;
  d.trap_scalar_registers = 16;
  d.shared_bytes_per_cu = 64 * 1024;
  d.max_shared_bytes_per_workgroup = 64 * 1024;
  d.shared_granule = 512;
  return d;
}

/// gfx950: CDNA4, CDNA3 with 160 KiB of LDS in 1280-byte granules.
DeviceLimits cdna4(const std::string &arch) {
  DeviceLimits d = cdna(arch);
  d.shared_bytes_per_cu = 160 * 1024;
  d.max_shared_bytes_per_workgroup = 160 * 1024;
  d.shared_granule = 1280;
  return d;
}

// --- AMD gfx1250 / gfx1251 (GFX12.5) ---------------------------------------
//
// Wave32 like RDNA, but with no WGP mode: FeatureISAVersion12_50 has
// FeatureCuMode, and llvm-project PR #153680 ("Don't allow wgp mode on
// gfx1250") makes getEUsPerCU return 4 for it: one CU of four SIMDs, as on
// GCN/CDNA. LLVM 22's numbers, each also read back from llc 22.1.8
// (-mcpu=gfx1250, and the same for gfx1251) through its "; Occupancy:"
// comment, which is getOccupancyWithWorkGroupSizes / getMaxWavesPerEU /
// getNumWavesPerEUWithNumVGPRs at work:
//  - 16 waves per SIMD (getMaxWavesPerEU, FeatureGFX10_3Insts): a 2-VGPR
//    kernel reports Occupancy 16.
//  - 4 SIMDs and 16 barriers (getEUsPerCU; getMaxWorkGroupsPerCU gives 32
//    only in WGP mode): a 64-thread (2-wave) workgroup reports Occupancy 8
//    = 16 workgroups x 2 waves / 4 SIMDs; 128 threads report 16.
//  - 1024 VGPRs per SIMD, allocated in granules of 16
//    (Feature1024AddressableVGPRs, no Feature1_5xVGPRs): 72 VGPRs -> 80,
//    1024 / 80 = 12 waves (granule 8 would give 14); 81 -> 96, 10; 97 ->
//    112, 9; 128 -> 8; 256 -> 4. The kernel descriptor's VGPR blocks are
//    also counted in 16s (getVGPREncodingGranule).
//  - 1024 addressable VGPRs a thread: a 128-thread kernel keeping 600
//    floats live compiles to 601 VGPRs with no spill (gfx1200 spills
//    past 256).
//  - 320 KiB of LDS, all of it addressable by one workgroup
//    (FeatureAddressableLocalMemorySize327680): 327681 bytes fail with
//    "local memory (327681) exceeds limit (327680)", and the LDS-limited
//    occupancies divide 327680 per CU (64 KiB, 256 threads: 5 workgroups
//    of 8 waves over 4 SIMDs, Occupancy 10; 160 KiB: 2, Occupancy 4).
//  - LDS allocated in 2 KiB blocks: AMDGPUUsage's COMPUTE_PGM_RSRC2.LDS_SIZE
//    for GFX125*, roundup(lds-size / (512 * 4)) (llvm-project PR #167614,
//    "LDS block size should be 2048 bytes (512 dwords) based on current
//    spec"); llc encodes 2049 bytes as 2 blocks.
//  - SGPRs do not limit (gfx10+), 1024 threads a workgroup
//    (getMaxFlatWorkGroupSize).
// Not sourced: how many CUs HIP reports for such a device (no GPU has been
// seen); with CU mode only, this table's "CU" is LLVM's CU of four SIMDs.

/// gfx1250, gfx1251: wave32, one CU of four SIMDs.
DeviceLimits gfx125x(const std::string &arch) {
  DeviceLimits d;
  d.arch = arch;
  d.wave_size = 32;
  d.simds_per_cu = 4;
  d.max_waves_per_simd = 16;
  d.max_workgroups_per_cu = 16;
  d.max_threads_per_workgroup = 1024;
  d.registers_per_simd = 1024;
  d.register_granule = 16;
  d.max_registers = 1024;
  d.shared_bytes_per_cu = 320 * 1024;
  d.max_shared_bytes_per_workgroup = 320 * 1024;
  d.shared_granule = 2048;
  return d;
}

/// gfx1100/gfx1101 (RDNA3), gfx1200/gfx1201 (RDNA4): wave32, one WGP.
DeviceLimits rdna(const std::string &arch) {
  DeviceLimits d;
  d.arch = arch;
  d.wave_size = 32;
  d.simds_per_cu = 4;
  d.max_waves_per_simd = 16;
  d.max_workgroups_per_cu = 32;
  d.max_threads_per_workgroup = 1024;
  d.registers_per_simd = 1536;
  d.register_granule = 24;
  d.max_registers = 256;
  d.shared_bytes_per_cu = 128 * 1024;
  d.max_shared_bytes_per_workgroup = 64 * 1024;
  d.shared_granule = 1024;
  return d;
}

// --- NVIDIA ----------------------------------------------------------------
//
// Per-SM limits from NVIDIA's own table, libcudacxx's cuda::arch::traits
// (NVIDIA/cccl, libcudacxx/include/cuda/__device/arch_traits.h), which
// follows the CUDA C++ Programming Guide's "Technical Specifications per
// Compute Capability":
//   arch    warps/SM  blocks/SM  shared/SM  (per block: shared/SM - 1 KiB)
//   sm_80      64        32       164 KiB
//   sm_86      48        16       100 KiB
//   sm_89      48        24       100 KiB
//   sm_90      64        32       228 KiB
//   sm_100     64        32       228 KiB
//   sm_120     48        24       100 KiB
// All have 64 K registers per SM and per block, and reserve 1 KiB of shared
// memory per block (reserved_shared_memory_per_block = 1024 from sm_80).
// The per-block figure is the opt-in maximum
// (CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN; the Programming
// Guide's "maximum amount of shared memory per thread block": 163 KiB on
// 8.0, 99 KiB on 8.6/8.9, 227 KiB on 9.0/10.x, 99 KiB on 12.0). The GPU
// lowering refuses a kernel needing more (SharedLimits.h); past the 48 KiB a
// block gets without opting in, its shared memory is dynamic and the CUDA
// runtime opts in at load. limits_for(Device &) takes the device's own
// figure where the driver reports one.
// The rest is CUDA's occupancy calculator, cuda_occupancy.h (CUDA 13.0):
// registers are allocated per warp in units of 256
// (cudaOccRegAllocationGranularity) out of 4 sub-partitions
// (cudaOccSubPartitionsPerMultiprocessor), shared memory in units of 128 B
// (cudaOccSMemAllocationGranularity, cc 8.x-12.x), and the per-block shared
// limit includes the reserved 1 KiB (cudaOccSMemPerBlock). As per-lane
// numbers: a partition's 16384 registers are 512 per lane, allocated 8 per
// thread. A thread has at most 255 registers (ptxas;
// cudaOccRegAllocationMaxPerThread says 256). The two sources disagree on
// sm_120's blocks per SM (arch_traits.h 32, cudaOccMaxBlocksPerMultiprocessor
// 24): the smaller is used. OccupancyTest.cpp's sm_90, sm_86 and sm_80 cases
// give the blocks cudaOccMaxActiveBlocksPerMultiprocessor gives.

DeviceLimits nvidia(const std::string &arch, int warps, int blocks,
                    int sharedKiB) {
  DeviceLimits d;
  d.arch = arch;
  d.wave_size = 32;
  d.simds_per_cu = 4;
  d.max_waves_per_simd = warps / 4;
  d.max_workgroups_per_cu = blocks;
  d.max_threads_per_workgroup = 1024;
  d.registers_per_simd = 512;
  d.register_granule = 8;
  d.max_registers = 255;
  d.shared_bytes_per_cu = sharedKiB * 1024;
  d.max_shared_bytes_per_workgroup = (sharedKiB - 1) * 1024;
  d.shared_granule = 128;
  d.reserved_shared_bytes = 1024;
  return d;
}

bool isNvidia(const std::string &arch) {
  auto target = target::Target::parse(arch);
  if (!target) {
    llvm::consumeError(target.takeError());
    return false;
  }
  return target->kind == target::Target::Kind::NVPTX;
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t alignTo(int64_t a, int64_t granule) {
  return ceilDiv(a, granule) * granule;
}

} // namespace

std::optional<DeviceLimits> limits_for(const std::string &name) {
  auto target = target::Target::parse(name);
  if (!target) {
    llvm::consumeError(target.takeError());
    return std::nullopt;
  }
  // The table's rows: "gfx942" for "gfx942:sramecc+", "sm_90" for "sm_90a".
  std::string arch = target->kind == target::Target::Kind::NVPTX
                         ? "sm_" + std::to_string(target->smVersion())
                         : target->arch;
  if (arch == "gfx90a" || arch == "gfx940" || arch == "gfx941" ||
      arch == "gfx942")
    return cdna(arch);
  if (arch == "gfx950")
    return cdna4(arch);
  if (arch == "gfx1100" || arch == "gfx1101" || arch == "gfx1200" ||
      arch == "gfx1201")
    return rdna(arch);
  if (arch == "gfx1250" || arch == "gfx1251")
    return gfx125x(arch);
  if (arch == "sm_80")
    return nvidia(arch, 64, 32, 164);
  if (arch == "sm_86")
    return nvidia(arch, 48, 16, 100);
  if (arch == "sm_89")
    return nvidia(arch, 48, 24, 100);
  if (arch == "sm_90" || arch == "sm_100" || arch == "sm_103")
    return nvidia(arch, 64, 32, 228);
  if (arch == "sm_120")
    return nvidia(arch, 48, 24, 100);
  return std::nullopt;
}

int64_t max_shared_bytes_per_workgroup(const std::string &arch) {
  std::optional<DeviceLimits> limits = limits_for(arch);
  return limits ? limits->max_shared_bytes_per_workgroup : 0;
}

double Occupancy::fraction() const {
  return max_waves_per_cu ? double(waves_per_cu) / max_waves_per_cu : 0.0;
}

Occupancy occupancy(const KernelInfo &kernel, const DeviceLimits &device) {
  Occupancy o;
  o.max_waves_per_cu = device.max_waves_per_cu();
  auto cannotRun = [&](const char *what) {
    o.limit = what;
    return o;
  };

  const int64_t simds = device.simds_per_cu;
  const int64_t threads = std::max<int64_t>(kernel.max_threads, 1);
  if (threads > device.max_threads_per_workgroup)
    return cannotRun("threads");
  const int64_t waves = ceilDiv(threads, device.wave_size);
  const int64_t wavesOnFullestSimd = ceilDiv(waves, simds);
  const bool nvidia = isNvidia(device.arch);

  // Workgroups that fit when every SIMD has room for `slots` waves (0 when
  // not even one does).
  auto fit = [&](int64_t slots) -> int64_t {
    if (slots < wavesOnFullestSimd)
      return 0;
    if (nvidia || waves <= simds)
      return simds * slots / waves;
    return slots / wavesOnFullestSimd;
  };

  // Each resource's workgroup count, in the order that names the limit on a
  // tie: reaching the hardware's wave maximum says "waves", not the
  // resource that happens to run out at the same count.
  constexpr int64_t unlimited = INT32_MAX;
  struct Limit {
    const char *name;
    int64_t workgroups;
  };
  std::array<Limit, 5> limits = {{{"waves", fit(device.max_waves_per_simd)},
                                  {"workgroups", unlimited},
                                  {"registers", unlimited},
                                  {"scalar registers", unlimited},
                                  {"shared memory", unlimited}}};
  if (nvidia || waves > 1)
    limits[1].workgroups = device.max_workgroups_per_cu;

  if (kernel.registers >= 0) {
    if (kernel.registers > device.max_registers)
      return cannotRun("registers");
    int64_t perWave = alignTo(std::max<int64_t>(kernel.registers, 1),
                              device.register_granule);
    limits[2].workgroups = fit(device.registers_per_simd / perWave);
  }

  if (device.scalar_registers_per_simd > 0 && kernel.scalar_registers >= 0) {
    int64_t perWave = alignTo(std::max<int64_t>(kernel.scalar_registers, 1),
                              device.scalar_register_granule) +
                      device.trap_scalar_registers;
    limits[3].workgroups = fit(device.scalar_registers_per_simd / perWave);
  }

  if (kernel.shared_bytes > device.max_shared_bytes_per_workgroup)
    return cannotRun("shared memory");
  if (int64_t used = kernel.shared_bytes + device.reserved_shared_bytes)
    limits[4].workgroups =
        device.shared_bytes_per_cu / alignTo(used, device.shared_granule);

  const Limit &least = *std::min_element(limits.begin(), limits.end(),
                                         [](const Limit &a, const Limit &b) {
                                           return a.workgroups < b.workgroups;
                                         });
  o.workgroups_per_cu = int(least.workgroups);
  o.waves_per_cu = int(least.workgroups * waves);
  o.limit = least.name;
  return o;
}

std::string to_string(const Occupancy &o) {
  if (o.workgroups_per_cu == 0)
    return std::string("cannot run: too ") +
           (o.limit == "shared memory" ? "much " : "many ") + o.limit +
           " for one CU";
  auto count = [](int n, const char *what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
  };
  return count(o.workgroups_per_cu, "workgroup") + " (" +
         count(o.waves_per_cu, "wave") + ") per CU of " +
         std::to_string(o.max_waves_per_cu) + ", limited by " + o.limit;
}

} // namespace ktc
