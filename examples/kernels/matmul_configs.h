//===- matmul_configs.h - the tutorial matmul's configs ---------*- C++ -*-===//
//
// The configs examples/matmul --autotune tries and ktc-bench --matmul tunes
// over, for seeds::matmul (examples/kernels/matmul.h): Triton's tutorial
// lists, so that ktc and Triton pick from the same candidates; and the
// kernel's parameter names, which the configs set by name.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_EXAMPLES_KERNELS_MATMUL_CONFIGS_H
#define KTC_EXAMPLES_KERNELS_MATMUL_CONFIGS_H

#include "ktc/Autotune.h"

#include <string>
#include <vector>

namespace ktc::seeds {

/// seeds::matmul's parameters, in order: Kernel("matmul",
/// matmulParamNames(), seeds::matmul<T>).
inline std::vector<std::string> matmulParamNames() {
  return {"a",         "b",         "c",         "M",         "N",
          "K",         "stride_am", "stride_ak", "stride_bk", "stride_bn",
          "stride_cm", "stride_cn", "BLOCK_M",   "BLOCK_N",   "BLOCK_K",
          "GROUP_M",   "ACTIVATION"};
}

/// Triton's tutorial lists for CUDA and for HIP (get_cuda_autotune_config,
/// and get_hip_autotune_config without waves_per_eu, which ktc does not
/// take), and small tiles for the CPU, where a program is one host thread.
/// Each sets BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, num_warps and num_stages.
/// For CUDA all 16 of the tutorial's, the 8 it calls good for fp8 inputs
/// included, as bench/peer_matmul.py tunes Triton over all 16 (64x128x64
/// with 4 warps is Triton's pick at 1024 cubed).
inline std::vector<Config> matmulAutotuneConfigs(DeviceKind kind) {
  auto config = [](int bm, int bn, int bk, int gm, int warps, int stages) {
    return Config({{"BLOCK_M", bm}, {"BLOCK_N", bn}, {"BLOCK_K", bk},
                   {"GROUP_M", gm}},
                  {.num_warps = warps, .num_stages = stages});
  };
  if (kind == DeviceKind::CUDA)
    return {config(128, 256, 64, 8, 8, 3),  config(64, 256, 32, 8, 4, 4),
            config(128, 128, 32, 8, 4, 4),  config(128, 64, 32, 8, 4, 4),
            config(64, 128, 32, 8, 4, 4),   config(128, 32, 32, 8, 4, 4),
            config(64, 32, 32, 8, 2, 5),    config(32, 64, 32, 8, 2, 5),
            config(128, 256, 128, 8, 8, 3), config(256, 128, 128, 8, 8, 3),
            config(256, 64, 128, 8, 4, 4),  config(64, 256, 128, 8, 4, 4),
            config(128, 128, 128, 8, 4, 4), config(128, 64, 64, 8, 4, 4),
            config(64, 128, 64, 8, 4, 4),   config(128, 32, 64, 8, 4, 4)};
  if (kind == DeviceKind::HIP)
    return {config(128, 256, 16, 1, 4, 2), config(256, 256, 16, 4, 8, 2),
            config(128, 128, 32, 1, 8, 2), config(64, 128, 32, 8, 4, 2),
            config(64, 64, 32, 1, 4, 2)};
  return {config(32, 32, 32, 8, 4, 1), config(64, 64, 32, 8, 4, 1),
          config(16, 64, 64, 8, 4, 1)};
}

} // namespace ktc::seeds

#endif // KTC_EXAMPLES_KERNELS_MATMUL_CONFIGS_H
