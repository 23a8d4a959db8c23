//===- BenchTest.cpp - do_bench, quantiles and perf_report on the CPU -----===//
//
// The timing protocol is checked with host sleeps of known length (on the
// CPU device events are the host clock), the statistics on known sets, and
// perf_report on a fake measurement, down to the CSV's exact text.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"
#include "ktc/Bench.h"

#include "examples/kernels/seeds.h"
#include "ktc/ktc.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <unistd.h>

using namespace ktc;
namespace fs = std::filesystem;

namespace {

Device &cpu() { return Device::get("cpu"); }

void sleepMs(double ms) {
  std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(ms));
}

/// Quick options: no flush unless asked, short budgets.
bench::Options quick(int rep_ms) {
  bench::Options o;
  o.warmup_ms = 0;
  o.rep_ms = rep_ms;
  o.flush_l2 = false;
  return o;
}

std::string readFile(const fs::path &path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

fs::path scratchDir(const std::string &name) {
  fs::path dir = fs::temp_directory_path() /
                 ("ktc-bench-test-" + std::to_string(getpid())) / name;
  fs::remove_all(dir);
  return dir;
}

TEST(Bench, QuantileInterpolatesLinearlyAsTorch) {
  // torch.quantile(torch.tensor([3., 1., 4., 1., 5.]), q): sorted 1 1 3 4 5.
  std::vector<double> v{3, 1, 4, 1, 5};
  EXPECT_DOUBLE_EQ(bench::quantile(v, 0.0), 1);
  EXPECT_DOUBLE_EQ(bench::quantile(v, 0.5), 3);
  EXPECT_DOUBLE_EQ(bench::quantile(v, 1.0), 5);
  EXPECT_DOUBLE_EQ(bench::quantile(v, 0.2), 1);   // rank 0.8: 1 + 0.8 * 0
  EXPECT_DOUBLE_EQ(bench::quantile(v, 0.8), 4.2); // rank 3.2: 4 + 0.2 * 1
  EXPECT_DOUBLE_EQ(bench::quantile(v, 0.625), 3.5); // rank 2.5
  EXPECT_DOUBLE_EQ(bench::quantile({10, 20}, 0.5), 15);
  EXPECT_DOUBLE_EQ(bench::quantile({7}, 0.3), 7);
  EXPECT_TRUE(std::isnan(bench::quantile({}, 0.5)));
  EXPECT_THROW(bench::quantile(v, 1.5), Error);
}

TEST(Bench, Gbps) {
  EXPECT_DOUBLE_EQ(bench::gbps(12e9, 1000), 12);
  EXPECT_DOUBLE_EQ(bench::gbps(3e6, 0.5), 6);
}

TEST(Bench, SleepOfTwoMillisecondsIsMeasuredAsSuch) {
  bench::Options o = quick(60);
  o.quantiles = {0.5, 0.1, 0.9, 1.0};
  bench::Result r = bench::do_bench(cpu(), [] { sleepMs(2); }, o);
  EXPECT_GE(r.min_ms, 2.0);
  EXPECT_GE(r.median_ms, 2.0);
  EXPECT_LT(r.median_ms, 10.0); // a loaded machine oversleeps, not by 8 ms
  EXPECT_LE(r.p20_ms, r.median_ms);
  EXPECT_LE(r.median_ms, r.p80_ms);
  EXPECT_LE(r.min_ms, r.p20_ms);
  EXPECT_LE(r.p80_ms, r.max_ms);
  EXPECT_GE(r.mean_ms, r.min_ms);
  EXPECT_LE(r.mean_ms, r.max_ms);
  ASSERT_EQ(r.quantile_ms.size(), 4u);
  EXPECT_DOUBLE_EQ(r.quantile_ms[0], r.median_ms);
  EXPECT_DOUBLE_EQ(r.quantile_ms[1], bench::quantile(r.times_ms, 0.1));
  EXPECT_DOUBLE_EQ(r.quantile_ms[3], r.max_ms);
  EXPECT_EQ(r.times_ms.size(), size_t(r.reps));
  EXPECT_GE(r.estimate_ms, 2.0);
  EXPECT_EQ(r.flushes, 0);
}

TEST(Bench, RepetitionsComeFromTheBudget) {
  // About 1 ms a run: rep_ms 20 gives at most 20 repetitions, warmup_ms 5 at
  // most 5 warm-up runs (each count is floor(budget / estimate)).
  bench::Options o = quick(20);
  o.warmup_ms = 5;
  int runs = 0;
  bench::Result r = bench::do_bench(cpu(), [&] { sleepMs(1); ++runs; }, o);
  EXPECT_GE(r.reps, 5);
  EXPECT_LE(r.reps, 20);
  EXPECT_GE(r.warmup_reps, 1);
  EXPECT_LE(r.warmup_reps, 5);
  EXPECT_EQ(r.reps, int(std::floor(20 / r.estimate_ms)));
  EXPECT_EQ(runs, 1 + 5 + r.warmup_reps + r.reps);

  // A budget shorter than one run still times one; max_reps caps both.
  r = bench::do_bench(cpu(), [] { sleepMs(3); }, quick(1));
  EXPECT_EQ(r.reps, 1);
  EXPECT_EQ(r.warmup_reps, 1);
  o = quick(10000);
  o.warmup_ms = 10000;
  o.max_reps = 7;
  r = bench::do_bench(cpu(), [] {}, o);
  EXPECT_EQ(r.reps, 7);
  EXPECT_EQ(r.warmup_reps, 7);
}

TEST(Bench, FlushRunsBeforeEveryRepetition) {
  bench::Options o = quick(5);
  o.flush_l2 = true;
  o.flush_bytes = 1 << 20;
  bench::Result r = bench::do_bench(cpu(), [] { sleepMs(0.2); }, o);
  EXPECT_GE(r.reps, 1);
  EXPECT_EQ(r.flushes, 1 + 5 + r.reps);
}

TEST(Bench, TimesAKernel) {
  auto add = Kernel("add", seeds::vector_add);
  const int64_t n = 1 << 16;
  Buffer<float> x(cpu(), std::vector<float>(n, 1.0f));
  Buffer<float> y(cpu(), std::vector<float>(n, 2.0f)), out(cpu(), n);
  bench::Options o = quick(10);
  o.flush_l2 = true;
  o.flush_bytes = 4 << 20;
  bench::Result r = bench::do_bench(
      cpu(), [&] { add.launch({cdiv(n, 1024)}, x, y, out, n, 1024); }, o);
  EXPECT_GT(r.median_ms, 0);
  EXPECT_EQ(add.num_compiled(), 1u);
  EXPECT_EQ(out.to_host()[n - 1], 3.0f);
}

TEST(Bench, BadOptionsAreErrors) {
  bench::Options o;
  o.rep_ms = 0;
  EXPECT_THROW(bench::do_bench(cpu(), [] {}, o), Error);
  o = bench::Options();
  o.quantiles = {0.5, -0.1};
  EXPECT_THROW(bench::do_bench(cpu(), [] {}, o), Error);
}

bench::Benchmark smallSweep() {
  bench::Benchmark b;
  b.x_name = "N";
  b.x_vals = {256, 1024, 4096};
  b.providers = {"ktc", "triton"};
  b.y_label = "GB/s";
  b.plot_name = "vector-add";
  b.x_log = true;
  return b;
}

/// A fake measurement: ktc at N / 256 GB/s, triton twice that but missing at
/// 1024.
double fakeMeasure(const std::string &provider, int64_t x) {
  if (provider == "triton")
    return x == 1024 ? NAN : x / 128.0;
  return x / 256.0 + 0.125;
}

TEST(Bench, PerfReportWritesTheCsv) {
  fs::path dir = scratchDir("csv");
  bench::ReportOptions options;
  options.dir = dir.string();
  options.gnuplot = "/nonexistent/gnuplot";
  options.print = false;
  testing::internal::CaptureStderr();
  bench::Report report =
      bench::perf_report(smallSweep(), fakeMeasure, options);
  std::string err = testing::internal::GetCapturedStderr();
  const char *want = "N,ktc,triton\n"
                     "256,1.125,2\n"
                     "1024,4.125,\n"
                     "4096,16.125,32\n";
  EXPECT_EQ(report.csv, want);
  EXPECT_EQ(readFile(dir / "vector-add.csv"), want);
  EXPECT_EQ(report.csv_path, (dir / "vector-add.csv").string());
  ASSERT_EQ(report.values.size(), 3u);
  EXPECT_DOUBLE_EQ(report.values[2][1], 32);
  EXPECT_TRUE(std::isnan(report.values[1][1]));

  // No gnuplot: one note, the script kept, no PNG.
  EXPECT_EQ(report.png_path, "");
  EXPECT_FALSE(fs::exists(dir / "vector-add.png"));
  EXPECT_NE(err.find("note: /nonexistent/gnuplot not found"),
            std::string::npos) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  std::string gp = readFile(dir / "vector-add.gp");
  EXPECT_NE(gp.find("set logscale x 2\n"), std::string::npos) << gp;
  EXPECT_NE(gp.find("plot for [i=2:3] 'vector-add.csv' using 1:i"),
            std::string::npos) << gp;
  fs::remove_all(dir);
}

TEST(Bench, PerfReportLooksForGnuplotOnPath) {
  fs::path dir = scratchDir("path");
  const char *old = std::getenv("PATH");
  std::string saved = old ? old : "";
  setenv("PATH", (dir / "empty-bin").c_str(), 1);
  bench::ReportOptions options;
  options.dir = dir.string();
  options.print = false;
  testing::internal::CaptureStderr();
  bench::Report report = bench::perf_report(smallSweep(), fakeMeasure, options);
  std::string err = testing::internal::GetCapturedStderr();
  setenv("PATH", saved.c_str(), 1);
  EXPECT_EQ(report.png_path, "");
  EXPECT_NE(err.find("note: gnuplot not found"), std::string::npos) << err;
  EXPECT_TRUE(fs::exists(dir / "vector-add.csv"));
  fs::remove_all(dir);
}

TEST(Bench, PerfReportPlotsWithGnuplot) {
  if (std::system("command -v gnuplot > /dev/null") != 0)
    GTEST_SKIP() << "gnuplot is not installed";
  bench::ReportOptions options;
  options.print = false;
  options.dir = scratchDir("plot").string();
  bench::Report report = bench::perf_report(smallSweep(), fakeMeasure, options);
  ASSERT_EQ(report.png_path, options.dir + "/vector-add.png");
  EXPECT_GT(fs::file_size(report.png_path), 1000u);
  std::string png = readFile(report.png_path);
  EXPECT_EQ(png.substr(1, 3), "PNG");
  fs::remove_all(options.dir);
}

} // namespace

//===----------------------------------------------------------------------===//
// Errors at the caller's line (they once carried no file:line, and a flush
// buffer that could not be allocated named libstdc++'s unique_ptr.h).
//===----------------------------------------------------------------------===//

namespace {

int at = 0; // the line an error must point to

void expectError(const std::function<void()> &f, const std::string &message) {
  test::expectErrorAt(f, message, __FILE__, at);
}

TEST(BenchErrors, AtTheCallersLine) {
  bench::Options o = quick(1);
  o.rep_ms = 0;
  expectError([&] { at = __LINE__; bench::do_bench(cpu(), [] {}, o); },
              "do_bench: needs warmup_ms >= 0, rep_ms > 0 and max_reps >= 1 "
              "(got 0, 0, 10000)");
  o = quick(1);
  o.quantiles = {0.5, -0.25};
  expectError([&] { at = __LINE__; bench::do_bench(cpu(), [] {}, o); },
              "do_bench: quantile -0.250000 is not in [0, 1]");
  expectError([&] { at = __LINE__; bench::quantile({1.0, 2.0}, 1.5); },
              "quantile: q = 1.500000 is not in [0, 1]");
  expectError([&] { at = __LINE__; bench::quantile({}, NAN); },
              "quantile: q = nan is not in [0, 1]");
}

TEST(BenchErrors, FlushBufferThatCannotBeAllocated) {
  bench::Options o = quick(1);
  o.flush_l2 = true;
  o.flush_bytes = size_t(1) << 62; // 4 EiB
  expectError([&] { at = __LINE__; bench::do_bench(cpu(), [] {}, o); },
              "cannot allocate 4611686018427387904 bytes on " + cpu().name());
}

TEST(BenchErrors, PerfReportAtTheCallersLine) {
  bench::Benchmark empty;
  empty.plot_name = "empty";
  bench::ReportOptions quiet;
  quiet.print = false;
  expectError([&] { at = __LINE__; bench::perf_report(empty, fakeMeasure, quiet); },
              "perf_report: 'empty' needs at least one x value and one "
              "provider");
  // A directory under a regular file cannot be created.
  fs::path dir = scratchDir("under-a-file");
  fs::create_directories(dir);
  std::ofstream(dir / "file") << "x";
  quiet.dir = (dir / "file" / "plots").string();
  expectError([&] { at = __LINE__; bench::perf_report(smallSweep(), fakeMeasure, quiet); },
              "perf_report: cannot create '" + quiet.dir + "': Not a directory");
  fs::remove_all(dir);
}

} // namespace
