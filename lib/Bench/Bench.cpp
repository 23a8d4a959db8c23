//===- Bench.cpp - do_bench: timing device work as Triton does -------------===//
//
// The protocol is triton.testing.do_bench's, so that ktc's numbers and
// Triton's can be compared: one untimed run, an estimate from 5 runs, warm-up
// and repetition counts derived from it, and one pair of events around each
// repetition with the cache flushed before it. The flush is itself a ktc
// kernel (it stores zeros over a buffer kept per device), so it works on
// every device.
//
//===----------------------------------------------------------------------===//

#include "ktc/Bench.h"

#include "ktc/ktc.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>

namespace ktc::bench {
namespace {

constexpr int kFlushBlock = 1024;

void flushBody(Ptr<int32_t> buffer, Int n, int BLOCK) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  store(buffer + offs, zeros({BLOCK}, DType::i32), offs < n);
}

/// Writes the device's flush buffer (of at least `bytes`) once. The buffers
/// live for the process, one per device, and grow on demand. The kernel and
/// the buffers are never destroyed: a host kernel torn down by exit() runs
/// into LLVM's statics, already gone, and a buffer must not outlive its
/// device.
void flushCache(Device &device, size_t bytes, std::source_location loc) {
  static const auto *kernel =
      new Kernel("ktc_flush_cache", {"buffer", "n", "BLOCK"}, flushBody);
  static std::mutex mutex;
  static auto *buffers =
      new std::map<Device *, std::unique_ptr<Buffer<int32_t>>>();
  size_t count = std::max<size_t>(1, bytes / sizeof(int32_t));
  Buffer<int32_t> *buffer;
  {
    std::lock_guard<std::mutex> lock(mutex);
    std::unique_ptr<Buffer<int32_t>> &slot = (*buffers)[&device];
    if (!slot || slot->size() < count)
      slot = std::make_unique<Buffer<int32_t>>(device, count, loc);
    buffer = slot.get();
  }
  int64_t n = static_cast<int64_t>(buffer->size());
  kernel->launch(Grid(cdiv(n, int64_t(kFlushBlock)), 1, 1, loc), *buffer, n,
                 kFlushBlock);
}

int countFor(double budget_ms, double estimate_ms, int max_reps) {
  return static_cast<int>(
      std::clamp(std::floor(budget_ms / estimate_ms), 1.0, double(max_reps)));
}

} // namespace

double quantile(std::vector<double> values, double q,
                std::source_location loc) {
  if (!(q >= 0 && q <= 1))
    throw Error("quantile: q = " + std::to_string(q) + " is not in [0, 1]",
                loc);
  if (values.empty())
    return NAN;
  std::sort(values.begin(), values.end());
  double pos = q * double(values.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(pos));
  size_t hi = std::min(lo + 1, values.size() - 1);
  return values[lo] + (pos - double(lo)) * (values[hi] - values[lo]);
}

double gbps(double bytes, double ms) { return bytes / (ms * 1e6); }

Result do_bench(Device &device, const std::function<void()> &fn,
                const Options &options, std::source_location loc) {
  if (options.warmup_ms < 0 || options.rep_ms <= 0 || options.max_reps < 1)
    throw Error("do_bench: needs warmup_ms >= 0, rep_ms > 0 and max_reps >= 1 "
                "(got " + std::to_string(options.warmup_ms) + ", " +
                std::to_string(options.rep_ms) + ", " +
                std::to_string(options.max_reps) + ")",
                loc);
  for (double q : options.quantiles)
    if (!(q >= 0 && q <= 1))
      throw Error("do_bench: quantile " + std::to_string(q) +
                  " is not in [0, 1]",
                  loc);
  size_t flush_bytes = options.flush_bytes ? options.flush_bytes
                       : device.kind() == DeviceKind::CPU ? size_t(64) << 20
                                                          : size_t(256) << 20;
  Result r;
  auto flush = [&] {
    if (options.flush_l2) {
      flushCache(device, flush_bytes, loc);
      ++r.flushes;
    }
  };

  // Compile what fn and the flush launch, outside any timing.
  fn();
  flush();
  device.synchronize();

  Event begin = device.record();
  for (int i = 0; i < 5; ++i) {
    flush();
    fn();
  }
  Event end = device.record();
  r.estimate_ms = std::max(end.elapsed_ms(begin) / 5, 1e-6);
  r.warmup_reps = countFor(options.warmup_ms, r.estimate_ms, options.max_reps);
  r.reps = countFor(options.rep_ms, r.estimate_ms, options.max_reps);

  for (int i = 0; i < r.warmup_reps; ++i)
    fn();
  std::vector<Event> starts, ends;
  starts.reserve(r.reps);
  ends.reserve(r.reps);
  for (int i = 0; i < r.reps; ++i) {
    flush();
    starts.push_back(device.record());
    fn();
    ends.push_back(device.record());
  }
  device.synchronize();

  for (int i = 0; i < r.reps; ++i)
    r.times_ms.push_back(ends[i].elapsed_ms(starts[i]));
  r.median_ms = quantile(r.times_ms, 0.5);
  r.p20_ms = quantile(r.times_ms, 0.2);
  r.p80_ms = quantile(r.times_ms, 0.8);
  auto [lo, hi] = std::minmax_element(r.times_ms.begin(), r.times_ms.end());
  r.min_ms = *lo;
  r.max_ms = *hi;
  r.mean_ms = std::accumulate(r.times_ms.begin(), r.times_ms.end(), 0.0) /
              r.reps;
  for (double q : options.quantiles)
    r.quantile_ms.push_back(quantile(r.times_ms, q));
  return r;
}

} // namespace ktc::bench
