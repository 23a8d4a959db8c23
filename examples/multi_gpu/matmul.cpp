//===- matmul.cpp - multi_gpu's compute-bound workload: a split matmul ----===//
//
// C = A x B (M x K by K x N, f16 or bf16, f32 accumulation) with the
// tutorial's kernel (examples/kernels/matmul.h), split over devices by
// bands of whole BLOCK_M tile rows: device i of n computes the tiles of rows
// [begin_i, end_i) of C from its own copy of those rows of A and of all of
// B, one host thread per device, launching at once. Each device's C starts
// poisoned (a signalling NaN) with a guard after it that must stay so; the
// assembled C is checked against float64 within the f32 summation bound
// (examples/common/matmul_check.h), every row or --check-rows of them (each
// band's first and last among them).
//
// --repeat=R times R - 1 launches per device after the first (compile and
// load) and a tenth of that again as warm-up; the devices start together
// (a barrier) and the time is from the first start to the last device's
// end: TFLOP/s = 2 M N K (R - 1) / time. --speedup runs the whole matmul on
// the first device alone first, then split over all, and prints the ratio.
//
//===----------------------------------------------------------------------===//

#include "examples/multi_gpu/multi_gpu.h"

#include "examples/common/matmul_check.h"
#include "examples/kernels/matmul.h"
#include "examples/kernels/matmul_configs.h"

#include <atomic>
#include <barrier>
#include <chrono>
#include <mutex>
#include <thread>

using namespace ktc;

namespace multi_gpu {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int64_t kGuard = 1024; // poisoned elements after each device's C

/// Rows [begin, end) of C for device i of n: whole tile rows, as even as
/// they come (only the last band holds M's ragged edge).
struct Band {
  int64_t begin, end;
};
Band band(int64_t M, int blockM, size_t i, size_t n) {
  int64_t tiles = cdiv(M, int64_t(blockM));
  return {std::min(M, tiles * int64_t(i) / int64_t(n) * blockM),
          std::min(M, tiles * int64_t(i + 1) / int64_t(n) * blockM)};
}

template <typename T> struct Split {
  std::vector<T> c;           // M x N, assembled from every device's band
  std::atomic<int64_t> written = 0; // guard elements that lost the poison
  double ms = 0;              // the timed launches, all devices
  std::string error;
};

/// One run of the matmul over the first n devices of `found`.
template <typename T, typename Kern>
void split(Split<T> &out, const Kern &kernel, const MatmulFlags &f,
           const std::vector<DeviceInfo> &found, size_t n,
           const std::vector<T> &ha, const std::vector<T> &hb) {
  using F = example::Format<T>;
  const int64_t N = f.N, K = f.K;
  const int BM = f.blockM, BN = f.blockN, BK = f.blockK, GM = f.groupM;
  const Options options{.num_warps = f.warps, .num_stages = f.stages};
  const int warmup = f.repeat > 1 ? std::max(1, (f.repeat - 1) / 10) : 0;
  out.c.assign(f.M * N, T{F::poison});
  std::vector<std::string> errors(n);
  std::vector<Clock::time_point> starts(n, Clock::time_point::max()),
      ends(n, Clock::time_point::min());
  std::barrier gate(static_cast<std::ptrdiff_t>(n));
  std::mutex print;
  // [bands]
  std::vector<std::thread> threads;
  for (size_t i = 0; i < n; ++i)
    threads.emplace_back([&, i] {
      bool arrived = false;
      try {
        Device &device = Device::get(found[i].spec());
        Band b = band(f.M, BM, i, n);
        const int64_t mine = b.end - b.begin;
        if (mine == 0) { // more devices than tile rows
          arrived = true;
          gate.arrive_and_drop();
          return;
        }
        // This device's rows of A, all of B, its rows of C (poisoned).
        Buffer<T> a(device, std::vector<T>(ha.begin() + b.begin * K,
                                           ha.begin() + b.end * K));
        Buffer<T> bm(device, hb);
        Buffer<T> c(device, std::vector<T>(mine * N + kGuard, T{F::poison}));
        auto launch = [&] {
          kernel.launch(Grid(cdiv(mine, int64_t(BM)) * cdiv(N, int64_t(BN))),
                        a, bm, c, mine, N, K, K, 1, N, 1, N, 1, BM, BN, BK, GM,
                        seeds::kMatmulNone, options);
        };
        launch(); // compiles (once per arch) and loads (once per device)
        // [end bands]
        for (int w = 0; w < warmup; ++w)
          launch();
        device.synchronize();
        arrived = true;
        gate.arrive_and_wait(); // every device starts the timed launches
        starts[i] = Clock::now();
        for (int r = 1; r < f.repeat; ++r)
          launch();
        device.synchronize();
        ends[i] = Clock::now();
        std::vector<T> back = c.to_host();
        std::copy(back.begin(), back.begin() + mine * N,
                  out.c.begin() + b.begin * N);
        for (int64_t e = mine * N; e < mine * N + kGuard; ++e)
          out.written += back[e].bits != F::poison;
        std::lock_guard<std::mutex> lock(print);
        std::printf("  %s: rows %lld to %lld (tile rows: %lld) on %s\n",
                    device.spec().c_str(), (long long)b.begin,
                    (long long)b.end - 1, (long long)cdiv(mine, int64_t(BM)),
                    device.name().c_str());
      } catch (const std::exception &e) {
        errors[i] = e.what();
        if (!arrived)
          gate.arrive_and_drop();
      }
    });
  for (std::thread &t : threads)
    t.join();
  for (const std::string &e : errors)
    if (!e.empty() && out.error.empty())
      out.error = e;
  Clock::time_point first = *std::min_element(starts.begin(), starts.end()),
                    last = *std::max_element(ends.begin(), ends.end());
  if (last > first)
    out.ms = std::chrono::duration<double, std::milli>(last - first).count();
}

/// The rows of C to check: all, or `count` of them spread evenly with each
/// band's first and last row (of every split that ran) among them.
std::vector<int64_t> rowsToCheck(const MatmulFlags &f, size_t devices) {
  std::vector<int64_t> rows;
  if (f.checkRows <= 0 || f.checkRows >= f.M) {
    for (int64_t i = 0; i < f.M; ++i)
      rows.push_back(i);
    return rows;
  }
  for (size_t n : {size_t(1), devices})
    for (size_t i = 0; i < n; ++i) {
      Band b = band(f.M, f.blockM, i, n);
      if (b.end > b.begin)
        rows.insert(rows.end(), {b.begin, b.end - 1});
    }
  for (int64_t s = 0; s < f.checkRows; ++s)
    rows.push_back(f.M * s / f.checkRows);
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

/// Checks the rows `rows` of C against float64; prints the lines and the
/// last one; returns the exit code.
template <typename T>
int check(const Split<T> &s, const MatmulFlags &f, size_t devices,
          size_t used, const std::vector<T> &ha, const std::vector<T> &hb,
          const std::string &what) {
  std::vector<int64_t> rows = rowsToCheck(f, devices);
  const int64_t S = rows.size(), N = f.N, K = f.K;
  std::vector<T> a(S * K), c(S * N);
  for (int64_t r = 0; r < S; ++r) {
    std::copy_n(ha.begin() + rows[r] * K, K, a.begin() + r * K);
    std::copy_n(s.c.begin() + rows[r] * N, N, c.begin() + r * N);
  }
  if (S < f.M)
    std::printf("checking %lld of the %lld rows (c[i] below: the i-th of "
                "them)\n",
                (long long)S, (long long)f.M);
  example::MatmulCheck result = example::checkMatmul(
      a, example::Strides{K, 1}, hb, example::Strides{N, 1}, c, S, N, K,
      false);
  result.written = s.written;
  return example::reportMatmul(result, S * N, kGuard * int64_t(used), what);
}

template <typename T>
int run(const MatmulFlags &f, const std::vector<DeviceInfo> &found,
        size_t n) {
  using F = example::Format<T>;
  auto kernel = Kernel("matmul", seeds::matmulParamNames(), seeds::matmul<T>);
  std::printf("multi_gpu: matmul %lld x %lld x %lld %s over %zu device%s, "
              "BLOCK %dx%dx%d, GROUP_M %d, %d warps, %d stages\n",
              (long long)f.M, (long long)f.N, (long long)f.K, F::name, n,
              n == 1 ? "" : "s", f.blockM, f.blockN, f.blockK, f.groupM,
              f.warps, f.stages);
  std::fflush(stdout);
  std::vector<T> ha = example::randomMatrix<T>(f.M * f.K, f.seed);
  std::vector<T> hb = example::randomMatrix<T>(f.K * f.N, f.seed + 1);
  const double flops = 2.0 * f.M * f.N * f.K * (f.repeat - 1);
  auto tflops = [&](double ms) { return flops / (ms * 1e9); };
  const std::string what = "multi_gpu matmul " + std::to_string(f.M) + "x" +
                           std::to_string(f.N) + "x" + std::to_string(f.K) +
                           " " + F::name;
  int rc = 0;
  Split<T> one;
  const bool compare = f.speedup && f.repeat > 1 && n > 1;
  if (compare) { // the whole matmul on the first device alone
    std::printf("one device:\n");
    split(one, kernel, f, found, 1, ha, hb);
    if (!one.error.empty()) {
      std::fprintf(stderr, "%s\n", one.error.c_str());
      return 2;
    }
    std::printf("bench: 1 device: %d launches in %.3f ms, %.4g TFLOP/s\n",
                f.repeat - 1, one.ms, tflops(one.ms));
    rc |= check(one, f, n, 1, ha, hb, what + " on 1 device");
    std::printf("%zu devices:\n", n);
  }
  Split<T> all;
  split(all, kernel, f, found, n, ha, hb);
  if (!all.error.empty()) {
    std::fprintf(stderr, "%s\n", all.error.c_str());
    return 2;
  }
  // A band whose M is a multiple of 16 and one whose M is not are two
  // specialisations; each is loaded once on each device that runs it.
  std::printf("compiled %zu time%s, %zu load%s\n", kernel.num_compiled(),
              kernel.num_compiled() == 1 ? "" : "s", kernel.num_loaded(),
              kernel.num_loaded() == 1 ? "" : "s");
  if (f.repeat > 1)
    std::printf("bench: %zu device%s: %d launches each in %.3f ms, %.4g "
                "TFLOP/s\n",
                n, n == 1 ? "" : "s", f.repeat - 1, all.ms, tflops(all.ms));
  if (compare)
    std::printf("speedup: %.2fx on %zu devices over 1\n", one.ms / all.ms, n);
  std::fflush(stdout);
  rc |= check(all, f, n, n, ha, hb,
              what + " on " + std::to_string(n) + " device" +
                  (n == 1 ? "" : "s"));
  return rc;
}

} // namespace

int runMatmul(const MatmulFlags &flags, const std::vector<DeviceInfo> &found,
              size_t devices) {
  return flags.dtype == "bf16" ? run<bfloat16>(flags, found, devices)
                               : run<half>(flags, found, devices);
}

} // namespace multi_gpu
