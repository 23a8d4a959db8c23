//===- launch.h - how the seed kernels are launched --------------*- C++ -*-===//
//
// The launch-side choices of the persistent fused softmax, shared by the
// softmax example, ktc-bench and the tests: how many waves a program gets
// for a row width, and how many programs fill the device.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_EXAMPLES_KERNELS_LAUNCH_H
#define KTC_EXAMPLES_KERNELS_LAUNCH_H

#include "ktc/ktc.h"

#include <algorithm>

namespace ktc::seeds {

/// Waves per program of the fused softmax for a BLOCK-wide row: enough
/// threads that each keeps at most 32 floats of the row in registers, from
/// 4 up to 16 waves.
inline int fused_num_warps(int64_t block) {
  int64_t warps = block / (32 * 32);
  return int(std::clamp<int64_t>(next_pow2(std::max<int64_t>(warps, 1)), 4, 16));
}

/// Programs of the persistent fused softmax on `device`: as many as run at
/// once (compute units x workgroups per compute unit), at most one per row.
template <typename K>
int64_t fused_programs(const K &kernel, Device &device, int64_t rows, int block,
                       int num_warps) {
  (void)kernel, (void)block, (void)num_warps;
  return std::min<int64_t>(rows, device.compute_units());
}

} // namespace ktc::seeds

#endif // KTC_EXAMPLES_KERNELS_LAUNCH_H
