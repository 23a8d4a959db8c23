//===- ktc/Bench.h - timing kernels and reporting sweeps --------*- C++ -*-===//
//
// ktc's counterparts of triton.testing.do_bench and perf_report (library
// KtcBench):
//
//   ktc::Device &dev = ktc::Device::get();
//   ktc::bench::Result r = ktc::bench::do_bench(dev, [&] {
//     add.launch({ktc::cdiv(n, 1024)}, x, y, out, n, 1024);
//   });
//   std::printf("%.3f ms, %.1f GB/s\n", r.median_ms,
//               ktc::bench::gbps(12.0 * n, r.median_ms));
//
// do_bench times each repetition with device events (the host clock on the
// CPU) after flushing the last-level cache, as Triton does, and summarises
// the times with torch.quantile's linear interpolation. perf_report sweeps
// an x axis for several providers and writes a CSV and a gnuplot PNG.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_BENCH_H
#define KTC_BENCH_H

#include "ktc/Runtime.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <source_location>
#include <string>
#include <vector>

namespace ktc::bench {

struct Options {
  /// Time spent warming up, and timing repetitions: the counts are derived
  /// from an estimate of one run (Triton's defaults).
  int warmup_ms = 25;
  int rep_ms = 100;
  /// Upper bound on both counts (at least 1 repetition is always timed).
  int max_reps = 10000;
  /// Flush the last-level cache before each timed repetition by writing a
  /// buffer of `flush_bytes` with a ktc kernel; 0 takes 256 MiB on GPUs
  /// (Triton's size, five times an H200's 50 MiB L2) and 64 MiB on the
  /// CPU.
  bool flush_l2 = true;
  size_t flush_bytes = 0;
  /// The quantiles reported in Result::quantile_ms, each in [0, 1].
  std::vector<double> quantiles{0.5, 0.2, 0.8};
};

struct Result {
  /// Milliseconds per repetition: quantiles 0.5, 0.2 and 0.8, the extremes
  /// and the mean, over the timed repetitions.
  double median_ms = 0, p20_ms = 0, p80_ms = 0;
  double min_ms = 0, max_ms = 0, mean_ms = 0;
  /// One per Options::quantiles, in order.
  std::vector<double> quantile_ms;
  /// Every timed repetition, in the order run.
  std::vector<double> times_ms;
  /// One run (with its flush) as estimated from 5 runs, and the counts
  /// derived from it.
  double estimate_ms = 0;
  int warmup_reps = 0, reps = 0;
  /// Cache flushes launched: one before the estimate (compiling the flush
  /// kernel), one per estimate run and one per repetition; 0 without
  /// flush_l2.
  int flushes = 0;
};

/// Times `fn`, which launches work on `device`, as triton.testing.do_bench:
/// runs it once (compiling what it launches) and synchronizes; estimates one
/// run from 5 (each after a flush); runs warmup_ms / estimate warm-up runs;
/// then times rep_ms / estimate repetitions, each after a flush, between two
/// events, and synchronizes once at the end. Throws ktc::Error on bad
/// options, and when the flush buffer cannot be allocated, at the caller's
/// line.
Result do_bench(Device &device, const std::function<void()> &fn,
                const Options &options = {},
                std::source_location loc = std::source_location::current());

/// The q-quantile (q in [0, 1]) of `values`, interpolated linearly between
/// the closest ranks as torch.quantile does; NaN for no values. A q outside
/// [0, 1] is a ktc::Error at the caller's line.
double quantile(std::vector<double> values, double q,
                std::source_location loc = std::source_location::current());

/// Gigabytes (1e9 bytes) per second for `bytes` moved in `ms` milliseconds.
double gbps(double bytes, double ms);

/// A sweep, as triton.testing.Benchmark: one row per x value, one column per
/// provider.
struct Benchmark {
  std::string x_name = "N";
  std::vector<int64_t> x_vals;
  std::vector<std::string> providers;
  /// What the measurements are, for the plot's y axis (e.g. "GB/s").
  std::string y_label = "GB/s";
  /// The plot's title and the files' stem: DIR/PLOT_NAME.{csv,gp,png}.
  std::string plot_name = "perf";
  bool x_log = false, y_log = false;
};

struct ReportOptions {
  /// Where the files go (created if missing).
  std::string dir = ".";
  /// gnuplot, by name (searched on PATH) or path. When it cannot be found
  /// the CSV and the script are kept and one note goes to stderr.
  std::string gnuplot = "gnuplot";
  /// Print the table to stdout as it is measured.
  bool print = true;
};

struct Report {
  /// values[i][j]: provider j at x_vals[i]; NaN where `measure` gave none.
  std::vector<std::vector<double>> values;
  /// The CSV written: "x_name,provider...", then one line per x (empty
  /// fields for NaN).
  std::string csv;
  /// The files written; `png_path` is empty when there was no plot.
  std::string csv_path, script_path, png_path;
};

/// Runs measure(provider, x) for every x and provider (as perf_report's
/// decorated function), writes the CSV and a gnuplot script, and renders the
/// PNG with gnuplot. Throws ktc::Error, at the caller's line, when a file
/// cannot be written or the sweep is empty.
Report perf_report(
    const Benchmark &benchmark,
    const std::function<double(const std::string &provider, int64_t x)>
        &measure,
    const ReportOptions &options = {},
    std::source_location loc = std::source_location::current());

} // namespace ktc::bench

#endif // KTC_BENCH_H
