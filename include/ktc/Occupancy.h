//===- ktc/Occupancy.h - workgroups of a kernel per CU ----------*- C++ -*-===//
//
// Occupancy: how many workgroups (blocks) and waves (warps) of a compiled
// kernel are resident at once on one compute unit (an AMD CU, an RDNA WGP,
// an NVIDIA SM), and which resource stops there being more. It comes from
// what the kernel uses (KernelInfo) and from a table of what one compute unit
// of each architecture offers (DeviceLimits), so it needs no device. A
// persistent kernel sizes its grid by it:
//
//   std::optional<ktc::DeviceLimits> cu = ktc::limits_for(info.target);
//   int programs = dev.compute_units() *
//                  ktc::occupancy(info, *cu).workgroups_per_cu;
//
// Plain C++ (no LLVM or MLIR): lib/Target/Occupancy.cpp says where each
// number of the table comes from.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_OCCUPANCY_H
#define KTC_OCCUPANCY_H

#include "ktc/Runtime.h"

#include <optional>
#include <string>

namespace ktc {

/// What one compute unit (AMD CU, NVIDIA SM) of a device offers. On RDNA
/// (gfx10-gfx12) the unit is the WGP (two CUs, four SIMDs): kernels run in
/// WGP mode and HIP counts WGPs as its compute units. gfx1250 has no WGP
/// mode: its unit is the CU, of four SIMDs.
struct DeviceLimits {
  std::string arch;      // "gfx942", "sm_90", ...
  int compute_units = 0; // 0 when not known (offline)
  int wave_size = 0;
  /// SIMDs a workgroup's waves are spread over (AMD), register-file
  /// partitions of an SM (NVIDIA); each holds at most max_waves_per_simd.
  int simds_per_cu = 0;
  int max_waves_per_simd = 0;
  /// Resident workgroups per CU: on AMD the barrier limit, which spares
  /// workgroups of a single wave; on NVIDIA the blocks per SM.
  int max_workgroups_per_cu = 0;
  int max_threads_per_workgroup = 0;
  /// The vector register file of one SIMD (partition) in registers per lane,
  /// the granule a wave's registers are allocated in, and the most registers
  /// one thread can have (AMD: VGPRs, arch + acc on CDNA).
  int registers_per_simd = 0;
  int register_granule = 0;
  int max_registers = 0;
  /// AMD GCN/CDNA only (0 elsewhere: SGPRs never limit): the SGPRs of one
  /// SIMD, their allocation granule, and the trap handler's temporaries
  /// allocated with every wave.
  int scalar_registers_per_simd = 0;
  int scalar_register_granule = 0;
  int trap_scalar_registers = 0;
  /// LDS / shared memory of one CU, the most one workgroup may use, the
  /// granule it is allocated in, and what the driver adds to every block
  /// (NVIDIA sm_80+).
  int shared_bytes_per_cu = 0;
  int max_shared_bytes_per_workgroup = 0;
  int shared_granule = 0;
  int reserved_shared_bytes = 0;

  int max_waves_per_cu() const { return simds_per_cu * max_waves_per_simd; }
};

/// The limits of a known architecture (a table; compute_units left 0), or
/// nullopt for an unknown arch and for "host". Accepts target-id suffixes
/// ("gfx942:sramecc+:xnack-") and NVIDIA's "a"/"f" variants ("sm_90a").
std::optional<DeviceLimits> limits_for(const std::string &arch);
/// The limits of a device in this process, compute_units included; nullopt
/// for the CPU. (Part of the runtime, KtcRuntime.)
std::optional<DeviceLimits> limits_for(Device &device);

struct Occupancy {
  int workgroups_per_cu = 0; // blocks per SM on NVIDIA
  int waves_per_cu = 0;      // = workgroups_per_cu × waves per workgroup
  int max_waves_per_cu = 0;  // the hardware maximum
  /// What limits it: "waves", "workgroups", "registers", "scalar registers",
  /// "shared memory"; when workgroups_per_cu is 0, what the kernel has too
  /// much of for one CU: "threads", "registers", "shared memory".
  std::string limit;
  double fraction() const; // waves_per_cu / max_waves_per_cu
};

/// The occupancy of a kernel on a device. A kernel that cannot run at all
/// (too many registers, threads or shared memory) gives workgroups_per_cu = 0
/// with `limit` saying why. Resources KernelInfo does not know (-1) do not
/// limit; scratch and spills never do (scratch is backed by memory). Waves
/// are counted in the device's wave size, the one ktc compiles for.
Occupancy occupancy(const KernelInfo &kernel, const DeviceLimits &device);

/// e.g. "2 workgroups (16 waves) per CU of 32, limited by registers", or
/// "cannot run: too many registers for one CU".
std::string to_string(const Occupancy &o);

} // namespace ktc

#endif // KTC_OCCUPANCY_H
