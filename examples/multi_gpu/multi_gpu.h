//===- multi_gpu.h - what multi_gpu's workloads share ------------*- C++ -*-===//
//
// The flags, copied out of llvm::cl once parsed (lld resets every cl::opt
// when it links a gfx kernel), and the matmul workload (matmul.cpp); the
// softmax workload is in main.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_EXAMPLES_MULTI_GPU_MULTI_GPU_H
#define KTC_EXAMPLES_MULTI_GPU_MULTI_GPU_H

#include "ktc/ktc.h"

#include <cstdint>
#include <string>
#include <vector>

namespace multi_gpu {

struct MatmulFlags {
  int64_t M, N, K;
  std::string dtype; // f16 or bf16
  int blockM, blockN, blockK, groupM, warps, stages;
  int repeat;      // launches per device, the first untimed
  bool speedup;    // with repeat > 1: time one device first, then all
  int64_t checkRows; // 0: check every row of C, else this many rows
  uint64_t seed;
};

/// C = A x B split over the first `devices` of `found` by bands of tile rows,
/// one host thread each, checked against float64; returns the exit code.
int runMatmul(const MatmulFlags &flags,
              const std::vector<ktc::DeviceInfo> &found, size_t devices);

} // namespace multi_gpu

#endif // KTC_EXAMPLES_MULTI_GPU_MULTI_GPU_H
