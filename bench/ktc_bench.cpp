//===- ktc_bench.cpp - ktc's side of the comparison with Triton -----------===//
//
// ktc-bench times the seed kernels on the shapes bench/peer.py times Triton's
// and torch's on, with the same protocol (ktc::bench::do_bench, Triton's
// do_bench: events, L2 flushed before each call, median and the 20th and 80th
// percentiles), and writes the same CSV for bench/report.py:
//
//   bench,provider,M,N,block,num_warps,ms,ms_p20,ms_p80,gbps
//
// Every kernel is checked once per shape against float64 on random inputs,
// its output poisoned (NaN) first; a failed check or an error prints to
// stderr and skips the row, so a wrong kernel is never timed. The CSV is
// flushed after every row: a run cut short keeps what it measured. The
// 2-D tiled transpose and the copy of its tiles (rows transpose and copy2d,
// examples/kernels/transpose.h) are checked exactly: they move floats.
//
// launch_overhead is host wall time per launch of a 1-element vector_add
// (10000 back-to-back launches, one synchronize; 5 trials), and on CUDA the
// same for the same kernel through cuLaunchKernel alone (provider "driver",
// bench/driver_floor.h: the floor under any launcher); cold_jit is the
// wall time from a freshly constructed Kernel to its first launch completing
// (online softmax on 4096x1024 and vector_add on 1024 elements, 3 trials, in
// a process whose compiler is already warm, as peer.py does for Triton). Run
// it with KTC_CACHE=off, else the disk cache serves the trials:
//
//   KTC_CACHE=off build/bin/ktc-bench --device=cuda --out=DIR/ktc.csv
//
// --matmul runs the matmul rows instead (bench/matmul_rows.h: f16 and bf16
// at the shapes bench/peer.py --matmul times Triton's tutorial matmul and
// cuBLAS on; examples/kernels/matmul.h autotuned over the tutorial's
// configs, as peer.py tunes Triton's), each checked at sampled elements
// against float64; their rate column holds TFLOP/s, block and num_warps
// the chosen config's:
//
//   build/bin/ktc-bench --device=cuda --matmul --out=DIR/ktc-matmul.csv
//
//===----------------------------------------------------------------------===//

#include "lib/Support/Env.h"
#include "examples/common/example.h"
#include "examples/kernels/launch.h"
#include "examples/kernels/seeds.h"
#include "examples/kernels/transpose.h"
#include "bench/driver_floor.h"
#include "bench/matmul_rows.h"
#include "ktc/Bench.h"
#include "ktc/Occupancy.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <regex>
#include <utility>

using namespace ktc;

namespace {

namespace cl = llvm::cl;
cl::OptionCategory category("ktc-bench flags");
namespace flag {
example::DeviceFlag common(category);
cl::opt<std::string> &device = common.device;
cl::opt<std::string> out("out",
                         cl::desc("The results (bench,provider,M,N,block,"
                                  "num_warps,ms,ms_p20,\nms_p80,gbps), "
                                  "flushed after every row (required)"),
                         cl::value_desc("file.csv"), cl::cat(category));
cl::opt<bool> quick("quick",
                    cl::desc("The fused sweep at N = 128 * {2, 10, 40, 99} "
                             "only"),
                    cl::cat(category));
cl::opt<std::string> only("only",
                          cl::desc("Only the rows whose BENCH/MxN matches, "
                                   "e.g.\n'softmax_fused/4096x' or "
                                   "'^vector_add/1x1048576$'"),
                          cl::value_desc("regex"), cl::cat(category));
cl::opt<bool> matmul("matmul",
                     cl::desc("The matmul rows (f16, bf16; TFLOP/s) instead "
                              "of the others (on the CPU\nwith --shape: "
                              "8192^3 takes hours there)"),
                     cl::cat(category));
cl::opt<std::string> shape("shape",
                          cl::desc("With --matmul: this shape only (e.g. "
                                   "67x45x93)"),
                          cl::value_desc("MxNxK"), cl::cat(category));
cl::opt<long long, false, example::Int<1, INT32_MAX>>
    rep("rep", cl::desc("do_bench's rep: ms of timed calls (default 100)"),
        cl::value_desc("ms"), cl::init(100), cl::cat(category));
} // namespace flag

constexpr int kAddBlock = 1024, kLoopBlock = 256, kDefaultWarps = 4;
constexpr double kAddTolerance = 1e-6, kSoftmaxTolerance = 1e-4;
constexpr std::pair<int64_t, int64_t> kShapes[] = {
    {8192, 8192}, {4096, 256},  {4096, 1024}, {4096, 4096},
    {4096, 12800}, {1823, 781}, {64, 2048},   {128, 4096}};
constexpr std::pair<int64_t, int64_t> kTransposeShapes[] = {{8192, 8192},
                                                            {4096, 4096}};
constexpr int64_t kSweepRows = 4096;

/// One row of the CSV; NaN prints as an empty field.
struct Row {
  std::string bench;
  int64_t M, N;
  int block, num_warps;
  double ms = NAN, p20 = NAN, p80 = NAN, gbps = NAN;
  std::string provider = "ktc";
};

class Runner {
public:
  Runner(Device &device, const std::string &path, std::regex only, int rep_ms)
      : device(device), only_(std::move(only)) {
    options_.rep_ms = rep_ms;
    csv_ = std::fopen(path.c_str(), "w");
    if (!csv_)
      example::fail("cannot write '" + path + "'");
    std::fprintf(csv_,
                 "bench,provider,M,N,block,num_warps,ms,ms_p20,ms_p80,gbps\n");
    std::fflush(csv_);
  }
  ~Runner() { std::fclose(csv_); }

  bool wanted(const std::string &bench, int64_t M, int64_t N) const {
    return std::regex_search(key(bench, M, N), only_);
  }

  /// Checks `run` once (on `out`, poisoned first, against `want`), then
  /// times it with do_bench and writes the row.
  void measure(Row row, double bytes, const std::function<void()> &run,
               Buffer<float> &out, const std::vector<double> &want,
               double tolerance) {
    std::string what = key(row.bench, row.M, row.N);
    try {
      out.copy_from(std::vector<float>(out.size(), NAN));
      run();
      device.synchronize();
      example::Check check = example::check(out.to_host(), want, tolerance);
      if (check.bad) {
        fail(what, std::to_string(check.bad) + " elements off, max relative "
                   "error " + std::to_string(check.worst));
        return;
      }
      bench::Result r = bench::do_bench(device, run, options_);
      row.ms = r.median_ms;
      row.p20 = r.p20_ms;
      row.p80 = r.p80_ms;
      row.gbps = bench::gbps(bytes, r.median_ms);
      write(row);
      std::printf("%-15s %5lldx%-9lld block=%-6d warps=%-2d ms=%.4f "
                  "GB/s=%7.1f err=%.1e\n",
                  row.bench.c_str(), (long long)row.M, (long long)row.N,
                  row.block, row.num_warps, row.ms, row.gbps, check.worst);
      std::fflush(stdout);
    } catch (const std::exception &e) {
      fail(what, e.what());
    }
  }

  void write(const Row &row) {
    auto cell = [](double v) {
      char text[32] = "";
      if (!std::isnan(v))
        std::snprintf(text, sizeof text, "%.6g", v);
      return std::string(text);
    };
    std::fprintf(csv_, "%s,%s,%lld,%lld,%d,%d,%s,%s,%s,%s\n",
                 row.bench.c_str(), row.provider.c_str(), (long long)row.M,
                 (long long)row.N,
                 row.block, row.num_warps, cell(row.ms).c_str(),
                 cell(row.p20).c_str(), cell(row.p80).c_str(),
                 cell(row.gbps).c_str());
    std::fflush(csv_);
    ++rows;
  }

  void fail(const std::string &what, const std::string &message) {
    std::fprintf(stderr, "FAILED %s: %s\n", what.c_str(), message.c_str());
    ++failures;
  }

  static std::string key(const std::string &bench, int64_t M, int64_t N) {
    return bench + "/" + std::to_string(M) + "x" + std::to_string(N);
  }

  const bench::Options &options() const { return options_; }

  Device &device;
  int rows = 0, failures = 0;

private:
  std::regex only_;
  bench::Options options_;
  std::FILE *csv_;
};

auto addKernel() {
  return Kernel("add_kernel", {"x", "y", "out", "n", "BLOCK_SIZE"},
                seeds::vector_add);
}

void vectorAdd(Runner &runner) {
  auto add = addKernel();
  for (int64_t n : {int64_t(1) << 20, int64_t(1) << 24, int64_t(1) << 28}) {
    if (!runner.wanted("vector_add", 1, n))
      continue;
    auto hx = example::randomVector(n, n), hy = example::randomVector(n, n + 1);
    std::vector<double> want(n);
    for (int64_t i = 0; i < n; ++i)
      want[i] = double(hx[i]) + double(hy[i]);
    Buffer<float> x(runner.device, hx), y(runner.device, hy),
        out(runner.device, n);
    runner.measure({"vector_add", 1, n, kAddBlock, kDefaultWarps}, 12.0 * n,
                   [&] {
                     add.launch({cdiv(n, kAddBlock)}, x, y, out, n, kAddBlock,
                                Options{.num_warps = kDefaultWarps});
                   },
                   out, want, kAddTolerance);
  }
}

/// The softmax kernels, compiled once per specialisation for the whole run.
struct SoftmaxKernels {
  Kernel<decltype(&seeds::softmax_naive)> naive{"softmax_naive",
                                                &seeds::softmax_naive};
  Kernel<decltype(&seeds::softmax_online)> online{"softmax_online",
                                                  &seeds::softmax_online};
  Kernel<decltype(&seeds::softmax_fused)> fused{"softmax_fused",
                                                &seeds::softmax_fused};
};

/// The softmax benches on M x N: naive and online (BLOCK 256, one program
/// per row) where `loops`, and the fused one (BLOCK = next_pow2(N), its
/// warps and persistent grid from examples/kernels/launch.h).
void softmax(Runner &runner, const SoftmaxKernels &kernels, int64_t M,
             int64_t N, bool loops) {
  bool naive = loops && runner.wanted("softmax_naive", M, N);
  bool online = loops && runner.wanted("softmax_online", M, N);
  bool fused = runner.wanted("softmax_fused", M, N);
  if (!naive && !online && !fused)
    return;
  Device &device = runner.device;
  auto hin = example::randomVector(M * N, M * 100003 + N);
  std::vector<double> want = example::softmaxReference(hin, M, N);
  Buffer<float> in(device, hin), out(device, M * N);
  double bytes = 8.0 * M * N;
  Options loopOptions{.num_warps = kDefaultWarps};
  if (naive)
    runner.measure({"softmax_naive", M, N, kLoopBlock, kDefaultWarps}, bytes,
                   [&] {
                     kernels.naive.launch({M}, in, out, N, N, kLoopBlock,
                                          loopOptions);
                   },
                   out, want, kSoftmaxTolerance);
  if (online)
    runner.measure({"softmax_online", M, N, kLoopBlock, kDefaultWarps}, bytes,
                   [&] {
                     kernels.online.launch({M}, in, out, N, N, kLoopBlock,
                                           loopOptions);
                   },
                   out, want, kSoftmaxTolerance);
  if (fused) {
    int block = int(next_pow2(N));
    int warps = seeds::fused_launch_warps(kernels.fused, device, M, block);
    int64_t programs =
        seeds::fused_programs(kernels.fused, device, M, block, warps);
    runner.measure({"softmax_fused", M, N, block, warps}, bytes,
                   [&] {
                     kernels.fused.launch({programs}, out, in, N, N, M, N,
                                          block, Options{.num_warps = warps});
                   },
                   out, want, kSoftmaxTolerance);
  }
}

/// The 2-D tiled transpose of M x N and the copy of the same tiles
/// (examples/kernels/transpose.h, its default tile and waves), checked
/// exactly. Bytes: 8·M·N.
void transposes(Runner &runner, int64_t M, int64_t N) {
  bool transpose = runner.wanted("transpose", M, N);
  bool copy = runner.wanted("copy2d", M, N);
  if (!transpose && !copy)
    return;
  Device &device = runner.device;
  auto hin = example::randomVector(M * N, M * 7919 + N);
  std::vector<double> same(hin.begin(), hin.end()), transposed(M * N);
  example::forRows(M, [&](int64_t begin, int64_t end) {
    for (int64_t m = begin; m < end; ++m)
      for (int64_t n = 0; n < N; ++n)
        transposed[n * M + m] = hin[m * N + n];
  });
  Buffer<float> in(device, hin), out(device, M * N);
  const int BM = seeds::kTransposeBlockM, BN = seeds::kTransposeBlockN;
  const Options options{.num_warps = seeds::kTransposeWarps};
  const Grid grid(cdiv(M, BM), cdiv(N, BN));
  Row row{"transpose", M, N, BM, options.num_warps};
  if (transpose) {
    auto kernel = Kernel("transpose", seeds::transpose);
    runner.measure(row, 8.0 * M * N,
                   [&] {
                     kernel.launch(grid, out, in, M, N, N, M, BM, BN, options);
                   },
                   out, transposed, 0.0);
  }
  if (copy) {
    auto kernel = Kernel("copy2d", seeds::copy2d);
    row.bench = "copy2d";
    runner.measure(row, 8.0 * M * N,
                   [&] {
                     kernel.launch(grid, out, in, M, N, N, N, BM, BN, options);
                   },
                   out, same, 0.0);
  }
}

/// Milliseconds since `start` on the host clock.
double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

/// A row of trials: the median and p20/p80 of `times` (ms), no bandwidth.
Row trialsRow(const std::string &bench, int64_t M, int64_t N, int block,
              const std::vector<double> &times) {
  Row row{bench, M, N, block, kDefaultWarps};
  row.ms = bench::quantile(times, 0.5);
  row.p20 = bench::quantile(times, 0.2);
  row.p80 = bench::quantile(times, 0.8);
  return row;
}

void launchOverhead(Runner &runner, int count = 10000, int trials = 5) {
  if (!runner.wanted("launch_overhead", 1, 1))
    return;
  Device &device = runner.device;
  try {
    auto add = addKernel();
    auto hx = example::randomVector(1, 1), hy = example::randomVector(1, 2);
    Buffer<float> x(device, hx), y(device, hy),
        out(device, std::vector<float>{NAN});
    auto launch = [&] {
      add.launch({1}, x, y, out, 1, kAddBlock,
                 Options{.num_warps = kDefaultWarps});
    };
    for (int i = 0; i < 100; ++i) // compile (n = 1 is its own kernel), warm up
      launch();
    device.synchronize();
    example::Check check = example::check(
        out.to_host(), {double(hx[0]) + double(hy[0])}, kAddTolerance);
    if (check.bad) {
      runner.fail("launch_overhead/1x1", "wrong result");
      return;
    }
    std::vector<double> perLaunch;
    for (int t = 0; t < trials; ++t) {
      auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < count; ++i)
        launch();
      device.synchronize();
      perLaunch.push_back(msSince(start) / count);
    }
    Row row = trialsRow("launch_overhead", 1, 1, kAddBlock, perLaunch);
    runner.write(row);
    std::printf("launch_overhead %.2f us/launch (%d x %d launches)\n",
                row.ms * 1e3, trials, count);
    std::fflush(stdout);
    // The floor under it: the same kernel through cuLaunchKernel alone.
    std::optional<DeviceLimits> limits = limits_for(device);
    if (device.kind() == DeviceKind::CUDA && limits) {
      std::string ptx = add.emit("asm", limits->arch, kAddBlock,
                                 Options{.num_warps = kDefaultWarps});
      std::string why;
      if (auto floor = bench::driverLaunchFloor(
              ptx, "add_kernel", 32 * kDefaultWarps, count, trials, why)) {
        Row driver = trialsRow("launch_overhead", 1, 1, kAddBlock, *floor);
        driver.provider = "driver";
        runner.write(driver);
        std::printf("launch_overhead driver floor %.2f us/launch\n",
                    driver.ms * 1e3);
      } else {
        std::printf("launch_overhead driver floor not measured: %s\n",
                    why.c_str());
      }
    }
  } catch (const std::exception &e) {
    runner.fail("launch_overhead/1x1", e.what());
  }
}

/// One cold-JIT case: `trials` times, a fresh kernel from `make`, launched
/// once by `launch(kernel)` into `out` and checked against `want`.
template <typename Make, typename Launch>
void coldJit(Runner &runner, const std::string &name, int64_t M, int64_t N,
             int block, Make make, Launch launch, Buffer<float> &out,
             const std::vector<double> &want, double tolerance,
             int trials = 3) {
  std::string what = Runner::key("cold_jit", M, N) + " (" + name + ")";
  try {
    std::vector<double> times;
    for (int t = 0; t < trials; ++t) {
      out.copy_from(std::vector<float>(out.size(), NAN));
      runner.device.synchronize();
      auto start = std::chrono::steady_clock::now();
      auto kernel = make();
      launch(kernel);
      runner.device.synchronize();
      times.push_back(msSince(start));
      if (example::check(out.to_host(), want, tolerance).bad) {
        runner.fail(what, "wrong result");
        return;
      }
    }
    Row row = trialsRow("cold_jit", M, N, block, times);
    runner.write(row);
    std::printf("cold_jit        %s %lldx%lld: %.1f ms (median of %d)\n",
                name.c_str(), (long long)M, (long long)N, row.ms, trials);
    std::fflush(stdout);
  } catch (const std::exception &e) {
    runner.fail(what, e.what());
  }
}

void coldJits(Runner &runner) {
  bool softmax = runner.wanted("cold_jit", 4096, 1024);
  bool add = runner.wanted("cold_jit", 1, 1024);
  if (!softmax && !add)
    return;
  if (ktc::env::flag("KTC_CACHE", true))
    std::fprintf(stderr, "note: cold_jit without KTC_CACHE=off: the disk "
                         "cache may serve the compiles\n");
  Device &device = runner.device;
  // Warm the compiler as the rest of the run would have (cold_jit times a
  // new kernel, not the process's first compile).
  Buffer<float> one(device, 1);
  Kernel("warm_up", seeds::vector_add).launch({1}, one, one, one, 1, 128);
  device.synchronize();
  if (softmax) {
    const int64_t M = 4096, N = 1024;
    auto hin = example::randomVector(M * N, 2);
    Buffer<float> in(device, hin), out(device, M * N);
    coldJit(
        runner, "softmax_online", M, N, kLoopBlock,
        [] { return Kernel("softmax_online", seeds::softmax_online); },
        [&](const auto &kernel) {
          kernel.launch({M}, in, out, N, N, kLoopBlock,
                        Options{.num_warps = kDefaultWarps});
        },
        out, example::softmaxReference(hin, M, N), kSoftmaxTolerance);
  }
  if (add) {
    const int64_t n = 1024;
    auto hx = example::randomVector(n, 3), hy = example::randomVector(n, 4);
    std::vector<double> want(n);
    for (int64_t i = 0; i < n; ++i)
      want[i] = double(hx[i]) + double(hy[i]);
    Buffer<float> x(device, hx), y(device, hy), out(device, n);
    coldJit(
        runner, "vector_add", 1, n, kAddBlock, [] { return addKernel(); },
        [&](const auto &kernel) {
          kernel.launch({1}, x, y, out, n, kAddBlock,
                        Options{.num_warps = kDefaultWarps});
        },
        out, want, kAddTolerance);
  }
}

/// The matmul rows (bench/matmul_rows.h) on `shapes`, written as they are
/// measured.
void matmuls(Runner &runner, const std::vector<bench::MatmulShape> &shapes) {
  bench::matmulRows(
      runner.device, runner.options(),
      [&](const std::string &bench, int64_t M, int64_t N) {
        return runner.wanted(bench, M, N);
      },
      [&](const bench::MatmulRow &m) {
        Row row{m.bench, m.shape.M, m.shape.N, m.config.blockM,
                m.config.warps};
        row.ms = m.time.median_ms;
        row.p20 = m.time.p20_ms;
        row.p80 = m.time.p80_ms;
        row.gbps = m.tflops; // the rate column: TFLOP/s for matmul rows
        runner.write(row);
        std::printf("%s\n", bench::describe(m).c_str());
        std::fflush(stdout);
      },
      [&](const std::string &what, const std::string &why) {
        runner.fail(what, why);
      },
      shapes);
}

} // namespace

int main(int argc, char **argv) {
  example::parseFlags(argc, argv, category,
                      "ktc-bench: ktc's side of the comparison with Triton\n");
  // Copied once parsed (as the examples do: lld resets every cl::opt when
  // it links a gfx kernel).
  const std::string deviceName = flag::device, out = flag::out,
                    onlyRegex = flag::only;
  const bool quick = flag::quick, matmul = flag::matmul;
  if (!flag::shape.empty() && !matmul)
    example::fail("--shape is for the matmul rows: add --matmul");
  std::vector<bench::MatmulShape> shapes(std::begin(bench::kMatmulShapes),
                                         std::end(bench::kMatmulShapes));
  if (!flag::shape.empty()) {
    std::optional<bench::MatmulShape> one = bench::parseShape(flag::shape);
    if (!one)
      example::fail("--shape must be MxNxK, each from 1 to 2147483647, not '" +
                    flag::shape + "'");
    shapes = {*one};
  }
  const int rep = int(flag::rep);
  if (out.empty())
    example::fail("--out=FILE.csv is required (ktc-bench --help lists the "
                  "flags)");
  std::regex only;
  try {
    only = std::regex(onlyRegex);
  } catch (const std::regex_error &e) {
    example::fail("--only: bad regex '" + onlyRegex + "': " + e.what());
  }
  try {
    Device &device = Device::get(deviceName);
    Runner runner(device, out, only, rep);
    std::printf("ktc-bench on %s\n", device.name().c_str());
    auto start = std::chrono::steady_clock::now();
    if (matmul) {
      matmuls(runner, shapes);
      std::printf("ktc-bench: %d rows, %d failed (see stderr), %.1f s\n",
                  runner.rows, runner.failures, msSince(start) / 1e3);
      return runner.rows ? 0 : 1;
    }

    // The order of bench/peer.py: the most wanted first, the sweep last.
    SoftmaxKernels softmaxKernels;
    vectorAdd(runner);
    for (auto [M, N] : kShapes)
      softmax(runner, softmaxKernels, M, N, /*loops=*/true);
    for (auto [M, N] : kTransposeShapes)
      transposes(runner, M, N);
    launchOverhead(runner);
    coldJits(runner);
    // The fused sweep: N = 128 i, i = 2..99, less the fixed shapes.
    for (int i = 2; i < 100; ++i) {
      std::pair<int64_t, int64_t> shape(kSweepRows, 128 * i);
      if ((quick && i != 2 && i != 10 && i != 40 && i != 99) ||
          std::find(std::begin(kShapes), std::end(kShapes), shape) !=
              std::end(kShapes))
        continue;
      softmax(runner, softmaxKernels, shape.first, shape.second,
              /*loops=*/false);
    }

    std::printf("ktc-bench: %d rows, %d failed (see stderr), %.1f s\n",
                runner.rows, runner.failures, msSince(start) / 1e3);
    return runner.rows ? 0 : 1;
  } catch (const Error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
