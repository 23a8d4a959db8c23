//===- launch.h - how the seed kernels are launched --------------*- C++ -*-===//
//
// The launch-side choices of the persistent fused softmax, shared by the
// softmax example, ktc-bench and the tests: how many waves a program gets
// for a row width, and how many programs fill the device.
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

/// Pipeline depth (Options::num_stages) of the fused softmax: 1, no
/// software pipelining (docs/bench/README.md).
inline int fused_num_stages(int64_t block) { return 1; }

/// Programs of the persistent fused softmax on `device`: as many as are
/// resident at once, compute units x workgroups per compute unit, the
/// occupancy of the kernel as compiled for the device (its registers and
/// shared memory against the device's limits); at most one per row. On the
/// CPU: one per hardware thread.
template <typename K>
int64_t fused_programs(const K &kernel, Device &device, int64_t rows, int block,
                       int num_warps, int num_stages = 1) {
  int64_t programs = device.compute_units();
  if (std::optional<DeviceLimits> limits = limits_for(device)) {
    KernelInfo info =
        kernel.info(name(device.kind()), block,
                    Options{.num_warps = num_warps, .num_stages = num_stages});
    programs *= std::max(occupancy(info, *limits).workgroups_per_cu, 1);
  }
  return std::min<int64_t>(rows, programs);
}

} // namespace ktc::seeds

#endif // KTC_EXAMPLES_KERNELS_LAUNCH_H
