//===- MultiDeviceKernels.h - the kernels of the multi-device tests -*- C++ -*-===//
//
// What MultiDeviceTest (the host's logical devices) and MultiDeviceGpuTest
// (every GPU of a kind) both launch: kernel names the disk cache cannot
// answer, the vector add, and its exact check with the output poisoned
// first and a poisoned guard after it.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_TEST_UNIT_MULTIDEVICEKERNELS_H
#define KTC_TEST_UNIT_MULTIDEVICEKERNELS_H

#include "examples/common/example.h"
#include "ktc/ktc.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <string>
#include <vector>

namespace ktc::test {

/// A kernel name of this process's own: the disk cache cannot answer it.
inline std::string fresh(const std::string &name) {
  static int n = 0;
  return name + "_" + std::to_string(getpid()) + "_" + std::to_string(++n);
}

/// out = x + y, BLOCK elements a program, masked to n.
inline auto addKernel(const std::string &name) {
  return Kernel(name, {"x", "y", "out", "n", "BLOCK"},
                [](Ptr<float> x, Ptr<float> y, Ptr<float> out, Int n,
                   int BLOCK) {
                  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
                  auto mask = offs < n;
                  store(out + offs, load(x + offs, mask) + load(y + offs, mask),
                        mask);
                });
}

/// x + y through `add` on `device`, checked exactly (float64 sums of two
/// floats round to the float sum), the output poisoned first and the 7
/// floats after it still NaN (no store past n).
template <typename K>
void checkAdd(const K &add, Device &device, size_t n, unsigned seed) {
  std::vector<float> hx = example::randomVector(n, seed),
                     hy = example::randomVector(n, seed + 1);
  Buffer<float> x(device, hx), y(device, hy);
  Buffer<float> out(device, std::vector<float>(n + 7, NAN));
  add.launch({cdiv(int64_t(n), 128)}, x, y, out, int64_t(n), 128);
  device.synchronize();
  std::vector<float> got = out.to_host();
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(got[i], float(double(hx[i]) + double(hy[i]))) << i;
  for (size_t i = n; i < n + 7; ++i)
    ASSERT_TRUE(std::isnan(got[i])) << i;
}

} // namespace ktc::test

#endif // KTC_TEST_UNIT_MULTIDEVICEKERNELS_H
