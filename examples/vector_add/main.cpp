//===- vector_add - the seeds' vector-add, checked against float64 ---------===//

#include "examples/common/example.h"
#include "examples/kernels/seeds.h"

using namespace ktc;

static const char *kUsage = R"(usage: vector_add [flags]
  --device=auto|cpu|cuda|hip   where to run (default auto: KTC_DEVICE or the best found)
  --size=N                     elements (default 98432)
  --block=B                    BLOCK_SIZE, a power of two (default 1024)
  --warps=W                    waves per program (default 4)
  --seed=S                     random seed (default 0)
  --emit=mlir|llvm|asm|bin     print the kernel at that stage instead of running it
  --target=host|<gfx arch>|<sm arch>   the target for --emit (default host)
  --out=FILE                   where --emit writes (default stdout)
  --time=1                     after the check, time 10 more launches with device
                               events and print the mean (not a benchmark: no L2 flush)
  --bench=1                    after the check, time the launch with ktc::bench::do_bench
                               (L2 flushed before each repetition) and print the median
  --info=1                     print what the kernel uses on --target (registers,
                               LDS/shared memory, scratch, spills) instead of running it
)";

int main(int argc, char **argv) {
  example::Flags flags(argc, argv,
                       {{"device", "auto"}, {"size", "98432"},
                        {"block", "1024"}, {"warps", "4"}, {"seed", "0"}, {"emit", ""},
                        {"target", "host"}, {"out", ""}, {"info", "0"},
                        {"time", "0"}, {"bench", "0"}},
                       kUsage);
  try {
    auto add = Kernel("add_kernel", {"x", "y", "out", "n", "BLOCK_SIZE"},
                      seeds::vector_add);
    int block = flags.int32("block");
    Options options{.num_warps = flags.int32("warps")};
    if (flags.str("info") == "1") {
      example::printInfo(add.info(flags.str("target"), block, options),
                         flags.str("target"));
      return 0;
    }
    if (!flags.str("emit").empty())
      return example::writeOut(
          flags, add.emit(flags.str("emit"), flags.str("target"), block, options));

    int64_t n = flags.integer("size");
    if (n < 1 || n > INT32_MAX)
      example::Flags::fail("--size must be in [1, 2^31)");
    Device &device = Device::get(flags.str("device"));
    uint64_t seed = flags.integer("seed");
    auto hx = example::randomVector(n, seed), hy = example::randomVector(n, seed + 1);
    Buffer<float> x(device, hx), y(device, hy);
    Buffer<float> out(device, std::vector<float>(n, NAN)); // poisoned
    auto run = [&] { add.launch({cdiv(n, block)}, x, y, out, n, block, options); };
    run();
    device.synchronize();
    std::vector<float> got = out.to_host();

    std::vector<double> want(n);
    for (int64_t i = 0; i < n; ++i)
      want[i] = double(hx[i]) + double(hy[i]);
    std::printf("vector_add: %lld elements, BLOCK %d, %d warps, on %s\n",
                (long long)n, block, options.num_warps, device.name().c_str());
    if (flags.str("time") == "1") {
      Buffer<float> scratch(device, n);
      Event start = device.record();
      for (int i = 0; i < 10; ++i)
        add.launch({cdiv(n, block)}, x, y, scratch, n, block, options);
      Event end = device.record();
      double ms = end.elapsed_ms(start) / 10;
      std::printf("time: %.4f ms per launch, %.1f GB/s (mean of 10, events)\n",
                  ms, 3.0 * 4 * n / (ms * 1e6));
    }
    if (flags.str("bench") == "1")
      example::printBench(device, run, 12.0 * n);
    return example::report(got, want, 1e-6,
                           "vector_add size=" + std::to_string(n));
  } catch (const Error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
