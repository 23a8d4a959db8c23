//===- host_dot.cpp - ktc's dot on the CPU beside a C++ triple loop -------===//
//
// GFLOP/s of ktc's dot on the host (Device "cpu"): the tiled matmul of
// bench/matmul_rows.h, f16 and f32 operands, an f32 result, for each size
// and tile asked; beside a plain C++ triple loop (i, k, j order, f32
// std::fma, compiled -O3 -march=native like ktc's host JIT, which targets
// the host CPU), on one thread and with the rows split over the device's
// threads (ktc runs its programs on all of them). Each is run once, then
// timed --reps times (the median and the best); GFLOP/s = 2·M·N·K / time.
// ktc's host dot is fma with k ascending, the triple loop's order: its
// result is checked bit for bit against the loop's (on the f16 operands'
// f32 values).
//
//   build/bin/ktc-host-dot [--sizes=512,1000] [--tiles=64x64x32,...]
//       [--reps=3] [--dtypes=f16,f32]
//
//===----------------------------------------------------------------------===//

#include "bench/matmul_rows.h"
#include "examples/common/flags.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <sstream>
#include <thread>
#include <vector>

using namespace ktc;

namespace {

namespace cl = llvm::cl;
cl::OptionCategory category("ktc-host-dot flags");
cl::opt<std::string> sizesFlag("sizes",
                               cl::desc("M = N = K of each run (default "
                                        "512,1000)"),
                               cl::value_desc("n,n,..."), cl::init("512,1000"),
                               cl::cat(category));
cl::opt<std::string>
    tilesFlag("tiles",
              cl::desc("BLOCK_MxBLOCK_NxBLOCK_K of each ktc run (default "
                       "32x32x32,64x64x32,128x128x32)"),
              cl::value_desc("MxNxK,..."),
              cl::init("32x32x32,64x64x32,128x128x32"), cl::cat(category));
cl::opt<std::string> dtypesFlag("dtypes",
                                cl::desc("Operand types (default f16,f32)"),
                                cl::value_desc("f16,f32"), cl::init("f16,f32"),
                                cl::cat(category));
cl::opt<long long, false, example::Int<1, 1000>>
    repsFlag("reps", cl::desc("Timed runs of each (default 3)"),
             cl::init(3), cl::cat(category));

std::vector<std::string> split(const std::string &text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    out.push_back(item);
  return out;
}

/// Median and best of `reps` timed runs of `fn` (after one untimed run), ms.
std::pair<double, double> timeIt(const std::function<void()> &fn, int reps) {
  fn();
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    auto start = std::chrono::steady_clock::now();
    fn();
    ms.push_back(std::chrono::duration<double, std::milli>(
                     std::chrono::steady_clock::now() - start)
                     .count());
  }
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms.front()};
}

/// c = a @ b, i, k, j order, rows [begin, end).
void tripleLoop(const float *a, const float *b, float *c, int64_t n,
                int64_t begin, int64_t end) {
  for (int64_t i = begin; i < end; ++i) {
    float *row = c + i * n;
    std::fill(row, row + n, 0.0f);
    for (int64_t k = 0; k < n; ++k) {
      const float x = a[i * n + k];
      const float *brow = b + k * n;
      for (int64_t j = 0; j < n; ++j)
        row[j] = std::fma(x, brow[j], row[j]);
    }
  }
}

void tripleLoopThreads(const float *a, const float *b, float *c, int64_t n,
                       int threads) {
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back(tripleLoop, a, b, c, n, n * t / threads,
                      n * (t + 1) / threads);
  for (std::thread &t : pool)
    t.join();
}

/// f16 bits of k / 1024 (|k| < 1024, exactly representable), its float.
half toHalf(int k) {
  if (k == 0)
    return half{0};
  float v = std::ldexp(float(k), -10);
  uint32_t u;
  std::memcpy(&u, &v, 4);
  return half{uint16_t((u >> 31) << 15 | (((u >> 23) & 255) - 112) << 10 |
                       ((u >> 13) & 1023))};
}

void row(const char *what, const std::string &dtype, int64_t n,
         const std::string &tile, std::pair<double, double> ms,
         const std::string &check) {
  double flop = 2.0 * n * n * n;
  std::printf("| %s | %s | %lld | %s | %.4g | %.4g | %.3g | %s |\n", what,
              dtype.c_str(), (long long)n, tile.c_str(), ms.first, ms.second,
              flop / (ms.first * 1e-3) / 1e9, check.c_str());
  std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv) {
  example::parseFlags(argc, argv, category,
                      "ktc-host-dot: ktc's dot on the CPU beside a C++ "
                      "triple loop\n");
  const std::vector<std::string> sizes = split(sizesFlag),
                                 tiles = split(tilesFlag),
                                 dtypes = split(dtypesFlag);
  const int reps = int(repsFlag);
  try {
    Device &device = Device::get("cpu");
    const int threads = device.compute_units();
    std::printf("ktc-host-dot on %s; %d timed runs each, after one\n\n",
                device.name().c_str(), reps);
    std::printf("| what | operands | n | tile | median ms | best ms | GFLOP/s "
                "(median) | check |\n|---|---|---:|---|---:|---:|---:|---|\n");
    static const auto f16Kernel =
        Kernel("tiled_matmul_f16", bench::tiled_matmul<half, float>);
    static const auto f32Kernel =
        Kernel("tiled_matmul_f32", bench::tiled_matmul<float, float>);
    for (const std::string &size : sizes) {
      const int64_t n = std::stoll(size);
      if (n < 1 || n > 8192)
        example::fail("--sizes: each from 1 to 8192, not '" + size + "'");
      std::mt19937_64 gen{uint64_t(n)};
      std::vector<half> ha(n * n), hb(n * n);
      std::vector<float> fa(n * n), fb(n * n), want(n * n), got(n * n);
      for (int64_t e = 0; e < n * n; ++e) {
        int ka = int(gen() % 2047) - 1023, kb = int(gen() % 2047) - 1023;
        ha[e] = toHalf(ka), hb[e] = toHalf(kb);
        fa[e] = std::ldexp(float(ka), -10), fb[e] = std::ldexp(float(kb), -10);
      }
      auto ms = timeIt(
          [&] { tripleLoop(fa.data(), fb.data(), want.data(), n, 0, n); },
          reps);
      row("C++ triple loop, 1 thread", "f32", n, "-", ms, "reference");
      ms = timeIt(
          [&] {
            tripleLoopThreads(fa.data(), fb.data(), got.data(), n, threads);
          },
          reps);
      row(("C++ triple loop, " + std::to_string(threads) + " threads").c_str(),
          "f32", n, "-", ms, got == want ? "bit-identical" : "DIFFERS");
      Buffer<half> a16(device, ha), b16(device, hb);
      Buffer<float> a32(device, fa), b32(device, fb), c(device, n * n);
      for (const std::string &dtype : dtypes)
        for (const std::string &tile : tiles) {
          std::optional<bench::MatmulShape> t = bench::parseShape(tile);
          if (!t || (dtype != "f16" && dtype != "f32"))
            example::fail("bad --tiles '" + tile + "' or --dtypes '" + dtype +
                          "'");
          const int BM = int(t->M), BN = int(t->N), BK = int(t->K);
          const Grid grid(unsigned(cdiv(n, BM) * cdiv(n, BN)));
          auto run = [&] {
            if (dtype == "f16")
              f16Kernel.launch(grid, a16, b16, c, n, n, n, n, n, n, BM, BN,
                               BK, 8);
            else
              f32Kernel.launch(grid, a32, b32, c, n, n, n, n, n, n, BM, BN,
                               BK, 8);
          };
          c.copy_from(std::vector<float>(n * n, NAN));
          ms = timeIt(run, reps);
          got = c.to_host();
          int64_t off = 0;
          for (int64_t e = 0; e < n * n; ++e)
            off += std::memcmp(&got[e], &want[e], 4) != 0;
          row("ktc dot, Device(\"cpu\")", dtype, n, tile, ms,
              off ? std::to_string(off) + " elements differ" : "bit-identical");
        }
    }
  } catch (const Error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  return 0;
}
