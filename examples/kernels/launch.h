//===- launch.h - how the seed kernels are launched --------------*- C++ -*-===//
//
// The launch-side choices of the fused softmax, shared by the softmax
// example, ktc-bench, ktc-fused-probe and the tests: how many waves a
// program gets for a row width, how deep its loop is pipelined, and how many
// programs the grid has.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_EXAMPLES_KERNELS_LAUNCH_H
#define KTC_EXAMPLES_KERNELS_LAUNCH_H

#include "ktc/Occupancy.h"
#include "ktc/ktc.h"

#include <algorithm>
#include <optional>

namespace ktc::seeds {

/// Waves per program of the fused softmax for a BLOCK-wide row, tuned on an
/// H200 (bench/tune-fused.sh, docs/bench): 4 up to rows of 8192 (more
/// programs per SM beat more waves per program), 16 for 16384 (64 floats a
/// thread would spill).
inline int fused_num_warps(int64_t block) { return block <= 8192 ? 4 : 16; }

/// Pipeline depth (Options::num_stages) of the fused softmax: 1. On the
/// H200, issuing the next row's loads a row ahead (2 or 3 stages) doubled
/// the registers a program holds and changed no benchmark shape by more
/// than the run-to-run spread (docs/bench/h200/tune-fused-stages.txt).
inline int fused_num_stages(int64_t) { return 1; }

/// The fused softmax's grid, in programs per program resident at once:
/// 0, one program per row. Measured on the H200 (docs/bench/README.md): a
/// persistent grid of exactly the resident programs (compute units x
/// occupancy, the seeds' formula) keeps every program's rows in lockstep
/// and tops out near 3.78 TB/s at 8192 x 8192 -- a plain row copy in the
/// same loop does too -- while one program per row, scheduled by the
/// hardware, reaches 4.03 TB/s; 4 waves of persistent programs fall in
/// between.
inline int64_t fused_grid_waves() { return 0; }

/// Workgroups of the fused softmax (BLOCK `block`) resident on one compute
/// unit of `device` at once: the occupancy of the kernel as compiled for the
/// device (its registers and shared memory against `limits`).
template <typename K>
int fused_workgroups_per_cu(const K &kernel, Device &device,
                            const DeviceLimits &limits, int block,
                            int num_warps, int num_stages) {
  KernelInfo info = kernel.info(
      device, block, Options{.num_warps = num_warps, .num_stages = num_stages});
  return occupancy(info, limits).workgroups_per_cu;
}

/// Programs of the fused softmax on `device`: `grid_waves` times as many as are
/// resident at once -- compute units x workgroups per compute unit, the
/// occupancy of the kernel as compiled for the device (its registers and
/// shared memory against the device's limits) -- and at most one per row;
/// `grid_waves` = 0 is one per row. On the CPU, a wave is one program per
/// hardware thread.
template <typename K>
int64_t fused_programs(const K &kernel, Device &device, int64_t rows, int block,
                       int num_warps, int num_stages = 1,
                       int64_t grid_waves = fused_grid_waves()) {
  if (grid_waves <= 0)
    return rows;
  int64_t programs = device.compute_units();
  if (std::optional<DeviceLimits> limits = limits_for(device))
    programs *= std::max(fused_workgroups_per_cu(kernel, device, *limits, block,
                                                 num_warps, num_stages),
                         1);
  return std::min<int64_t>(rows, programs * grid_waves);
}

/// Bytes of rows the fused softmax wants in flight per compute unit: the
/// device's bandwidth times its loaded memory latency, spread over its
/// compute units. Measured on the H200 (docs/bench/README.md): 8 rows of
/// 16 KiB a SM (4096 x 4096) keep it at copy bandwidth with 4 or 2 waves a
/// program alike, 16 rows of 4 KiB (4096 x 1024) do not.
constexpr int64_t kFusedBytesInFlightPerCU = 96 * 1024;

/// Waves per program of the fused softmax for `rows` rows on `device`,
/// from fused_num_warps(block) and the grid of one program per row:
///  - fewer rows than compute units (a compute unit runs one program, or
///    none): twice as many waves, at most 8, since one program's latency is
///    the whole kernel and a second wave on each scheduler hides it;
///  - half as many (at least 2) when the programs resident at once
///    (compute units x occupancy of the kernel as compiled for the device,
///    at most one per row) hold fewer bytes of rows than
///    kFusedBytesInFlightPerCU a compute unit, and halving the waves lets
///    more of them be resident.
/// On the H200 this takes 64 x 2048 and 128 x 4096 to 8 waves, 4096 x 256
/// and 4096 x 1024 to 2, and leaves 1823 x 781 (all rows resident) and
/// 4096 x 4096 at 4 (docs/bench/README.md).
template <typename K>
int fused_launch_warps(const K &kernel, Device &device, int64_t rows,
                       int block, int num_stages = fused_num_stages(0)) {
  int warps = fused_num_warps(block);
  std::optional<DeviceLimits> limits = limits_for(device);
  int64_t units = device.compute_units();
  if (!limits || units <= 0 || fused_grid_waves() != 0)
    return warps;
  if (rows < units)
    return std::max(warps, std::min(2 * warps, 8));
  if (warps / 2 < 2)
    return warps;
  auto inFlight = [&](int w) {
    return std::min<int64_t>(
        rows, units * fused_workgroups_per_cu(kernel, device, *limits, block, w,
                                              num_stages));
  };
  int64_t programs = inFlight(warps);
  int64_t bytesPerUnit = programs * block * int64_t(sizeof(float)) / units;
  if (bytesPerUnit < kFusedBytesInFlightPerCU && inFlight(warps / 2) > programs)
    return warps / 2;
  return warps;
}

} // namespace ktc::seeds

#endif // KTC_EXAMPLES_KERNELS_LAUNCH_H
