//===- compile_bench.cpp - what compiling and caching kernels costs -------===//
//
// Google Benchmark figures for the JIT's compile path (docs/bench/compile.md):
//
//   ColdCompileHost      online softmax (BLOCK 256) traced, lowered, compiled
//                        to a host object, stored in the disk cache and
//                        loaded: a disk-cache miss (each iteration asks for
//                        new options, so each compiles).
//   ColdCompileGfx942    the same kernel traced and compiled to an HSACO for
//                        gfx942 (Kernel::emit("bin"), no cache).
//   DiskCacheHit         a fresh Kernel object (empty memory cache) launching
//                        a kernel whose code is on disk: trace, key, read,
//                        check, load, launch.
//   MemoryCacheLaunch    Kernel::launch of a compiled kernel on the CPU
//                        device (vector_add of one element): the launch path
//                        with the kernel's own run; `allocs` counts heap
//                        allocations per launch.
//
// KTC_CACHE_DIR is pointed at a fresh temporary directory first.
//
//===----------------------------------------------------------------------===//

#include "ktc/ktc.h"
#include "examples/kernels/seeds.h"

#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>
#include <unistd.h>

using namespace ktc;

// Counts heap allocations (for MemoryCacheLaunch). GCC cannot see that the
// replaced new and delete below pair malloc with free.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
static std::atomic<uint64_t> allocations{0};
void *operator new(std::size_t size) {
  ++allocations;
  if (void *p = std::malloc(size ? size : 1))
    return p;
  throw std::bad_alloc();
}
void operator delete(void *p) noexcept { std::free(p); }
void operator delete(void *p, std::size_t) noexcept { std::free(p); }

namespace {

Device &cpu() { return Device::get("cpu"); }

struct Rows {
  Rows() : in(cpu(), std::vector<float>(37 * 300, 0.5f)), out(cpu(), 37 * 300) {}
  Buffer<float> in, out;
};

void ColdCompileHost(benchmark::State &state) {
  Rows rows;
  static int stages = 1000; // options no earlier run asked for: a disk miss
  for (auto _ : state) {
    auto online = Kernel("softmax_online", seeds::softmax_online);
    online.launch({37}, rows.in, rows.out, 300, 300, 256,
                  Options{.num_stages = stages++});
  }
}
BENCHMARK(ColdCompileHost)->Unit(benchmark::kMillisecond)->Iterations(10);

void ColdCompileGfx942(benchmark::State &state) {
  auto online = Kernel("softmax_online", seeds::softmax_online);
  for (auto _ : state)
    benchmark::DoNotOptimize(online.emit("bin", "gfx942", 256));
}
BENCHMARK(ColdCompileGfx942)->Unit(benchmark::kMillisecond)->Iterations(10);

void DiskCacheHit(benchmark::State &state) {
  Rows rows;
  Kernel("softmax_online", seeds::softmax_online)
      .launch({37}, rows.in, rows.out, 300, 300, 256); // now on disk
  uint64_t hits = cache_stats().disk_hits;
  for (auto _ : state) {
    auto online = Kernel("softmax_online", seeds::softmax_online);
    online.launch({1}, rows.in, rows.out, 300, 300, 256);
  }
  if (cache_stats().disk_hits - hits != uint64_t(state.iterations()))
    state.SkipWithError("a launch missed the disk cache");
}
BENCHMARK(DiskCacheHit)->Unit(benchmark::kMicrosecond);

void MemoryCacheLaunch(benchmark::State &state) {
  auto add = Kernel("add", seeds::vector_add);
  Buffer<float> x(cpu(), std::vector<float>(16, 1.0f));
  add.launch({1}, x, x, x, 1, 16);
  uint64_t before = allocations;
  for (auto _ : state)
    add.launch({1}, x, x, x, 1, 16);
  state.counters["allocs"] = benchmark::Counter(
      double(allocations - before), benchmark::Counter::kAvgIterations);
}
BENCHMARK(MemoryCacheLaunch)->Unit(benchmark::kMicrosecond);

} // namespace

int main(int argc, char **argv) {
  char dir[] = "/tmp/ktc-compile-bench-XXXXXX";
  setenv("KTC_CACHE_DIR", mkdtemp(dir), 1);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  std::string remove = std::string("rm -rf ") + dir;
  return std::system(remove.c_str());
}
