//===- example.h - what the example programs share ---------------*- C++ -*-===//
//
// The flags (flags.h), random inputs, the float64 references and check,
// --bench's timing line, and the last line every example prints (PASS or
// FAIL). ktc-bench checks its kernels with the same helpers.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_EXAMPLES_COMMON_EXAMPLE_H
#define KTC_EXAMPLES_COMMON_EXAMPLE_H

#include "examples/common/flags.h"
#include "ktc/Bench.h"
#include "ktc/ktc.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace example {

/// Writes `text` to --out (or stdout).
inline int writeOut(const std::string &out, const std::string &text) {
  if (out.empty() || out == "-") {
    std::cout << text;
    return 0;
  }
  std::ofstream file(out);
  file << text;
  if (!file)
    fail("cannot write '" + out + "'");
  return 0;
}

inline std::vector<float> randomVector(size_t n, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(gen);
  return v;
}

/// Runs fn(begin, end) over [0, rows) in chunks, one a host thread (the
/// float64 references of ~100 large shapes in ktc-bench).
template <typename F> void forRows(int64_t rows, F fn) {
  int64_t threads = std::max(1u, std::thread::hardware_concurrency());
  int64_t chunk = std::max<int64_t>(1, ktc::cdiv(rows, threads));
  std::vector<std::thread> pool;
  for (int64_t begin = 0; begin < rows; begin += chunk)
    pool.emplace_back(fn, begin, std::min(rows, begin + chunk));
  for (std::thread &t : pool)
    t.join();
}

/// Per row of a rows x cols matrix, in float64: its max and the sum of
/// exp(x - max) -- what a softmax of the row divides by.
struct RowStats {
  double max = -INFINITY, sum = 0;
};
inline std::vector<RowStats> rowStats(const std::vector<float> &in,
                                      int64_t rows, int64_t cols) {
  std::vector<RowStats> stats(rows);
  forRows(rows, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const float *row = &in[r * cols];
      RowStats &st = stats[r];
      for (int64_t c = 0; c < cols; ++c)
        st.max = std::max(st.max, double(row[c]));
      for (int64_t c = 0; c < cols; ++c)
        st.sum += std::exp(double(row[c]) - st.max);
    }
  });
  return stats;
}

/// Softmax of each row of a rows x cols matrix, in float64 (the reference
/// every softmax kernel is checked against).
inline std::vector<double> softmaxReference(const std::vector<float> &in,
                                            int64_t rows, int64_t cols) {
  std::vector<RowStats> stats = rowStats(in, rows, cols);
  std::vector<double> out(in.size());
  forRows(rows, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r)
      for (int64_t c = 0; c < cols; ++c)
        out[r * cols + c] =
            std::exp(double(in[r * cols + c]) - stats[r].max) / stats[r].sum;
  });
  return out;
}

/// How far a result is from its float64 reference.
struct Check {
  double worst = 0; // the largest relative error
  size_t bad = 0;   // elements off by more than the tolerance
};
inline Check check(const std::vector<float> &got,
                   const std::vector<double> &want, double tolerance) {
  Check c;
  for (size_t i = 0; i < got.size(); ++i) {
    double err = std::isfinite(got[i])
                     ? std::fabs(got[i] - want[i]) /
                           std::max(std::fabs(want[i]), 1e-30)
                     : INFINITY; // unwritten (poisoned) or broken
    c.worst = std::max(c.worst, err);
    c.bad += !(err <= tolerance);
  }
  return c;
}

/// Prints the max relative error and the last line; returns the exit code.
inline int report(const std::vector<float> &got,
                  const std::vector<double> &want, double tolerance,
                  const std::string &what) {
  Check c = check(got, want, tolerance);
  std::printf("max relative error: %.3g (tolerance %.1g)\n", c.worst,
              tolerance);
  if (c.bad) {
    std::printf("FAIL %s: %zu of %zu elements off\n", what.c_str(), c.bad,
                got.size());
    return 1;
  }
  std::printf("PASS %s\n", what.c_str());
  return 0;
}

/// --bench: times `launch` with ktc::bench::do_bench (Triton's protocol:
/// L2 flushed before each repetition) and prints its line, e.g.
/// "bench: 0.1903 ms median (p20 0.1881, p80 0.1930), 1058.3 GB/s".
inline void printBench(ktc::Device &device, const std::function<void()> &launch,
                       double bytes) {
  ktc::bench::Result r = ktc::bench::do_bench(device, launch);
  std::printf("bench: %.4f ms median (p20 %.4f, p80 %.4f), %.1f GB/s\n",
              r.median_ms, r.p20_ms, r.p80_ms,
              ktc::bench::gbps(bytes, r.median_ms));
}

/// --info: what the kernel uses on `target` and its occupancy there, e.g.
/// "gfx942: 34 VGPRs, ..." then "occupancy: 4 workgroups (32 waves) per CU
/// of 32, limited by waves".
inline void printInfo(const ktc::KernelInfo &info, const std::string &target) {
  std::printf("%s\n", ktc::to_string(info).c_str());
  if (target == "cpu" || target == "host") {
    std::printf("occupancy: one program per hardware thread (%d)\n",
                ktc::Device::get("cpu").compute_units());
    return;
  }
  std::optional<ktc::DeviceLimits> limits =
      target == "cuda" || target == "hip"
          ? ktc::limits_for(ktc::Device::get(target))
          : ktc::limits_for(info.target);
  if (!limits) {
    std::printf("occupancy: no limits known for %s\n", info.target.c_str());
    return;
  }
  ktc::Occupancy o = ktc::occupancy(info, *limits);
  std::printf("occupancy: %s%s", ktc::to_string(o).c_str(),
              info.registers < 0 ? " (registers not counted: the driver "
                                   "allocates them when it loads the PTX)"
                                 : "");
  if (limits->compute_units > 0)
    std::printf("; %d programs resident on %d compute units",
                o.workgroups_per_cu * limits->compute_units,
                limits->compute_units);
  std::printf("\n");
}

} // namespace example

#endif // KTC_EXAMPLES_COMMON_EXAMPLE_H
