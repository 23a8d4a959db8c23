//===- vector_add - the seeds' vector-add, checked against float64 ---------===//

#include "examples/common/example.h"
#include "examples/kernels/seeds.h"

using namespace ktc;

namespace {
namespace cl = llvm::cl;
cl::OptionCategory category("vector_add flags");
namespace flag {
example::DeviceFlag common(category);
cl::opt<std::string> &device = common.device;
example::KernelFlags kernelFlags(category);
cl::opt<std::string> &emit = kernelFlags.emit, &target = kernelFlags.target,
                     &out = kernelFlags.out;
cl::opt<bool> &info = kernelFlags.info, &bench = kernelFlags.bench;
cl::opt<long long, false, example::Int<1, INT32_MAX>>
    size("size", cl::desc("Elements (default 98432)"), cl::init(98432),
         cl::cat(category));
cl::opt<long long, false, example::Int<INT32_MIN, INT32_MAX>>
    block("block", cl::desc("BLOCK_SIZE, a power of two (default 1024)"),
          cl::init(1024), cl::cat(category));
cl::opt<long long, false, example::Int<INT32_MIN, INT32_MAX>>
    warps("warps", cl::desc("Waves per program (default 4)"), cl::init(4),
          cl::cat(category));
cl::opt<long long, false, example::Int<>>
    seed("seed", cl::desc("Random seed (default 0)"), cl::init(0),
         cl::cat(category));
cl::opt<bool> time("time",
                   cl::desc("After the check, time 10 more launches with "
                            "device events\nand print the mean (not a "
                            "benchmark: no L2 flush)"),
                   cl::cat(category));
} // namespace flag

/// The flags' values, copied once parsed: lld resets every cl::opt when it
/// links a gfx kernel.
struct Flags {
  std::string device = flag::device, emit = flag::emit, target = flag::target,
              out = flag::out;
  int64_t size = flag::size;
  uint64_t seed = flag::seed;
  int block = flag::block, warps = flag::warps;
  bool time = flag::time, bench = flag::bench, info = flag::info;
};
} // namespace

int main(int argc, char **argv) {
  example::parseFlags(argc, argv, category,
                      "vector_add: the seeds' vector-add, checked against "
                      "float64\n");
  const Flags flags;
  try {
    auto add = Kernel("add_kernel", {"x", "y", "out", "n", "BLOCK_SIZE"},
                      seeds::vector_add);
    int block = flags.block;
    Options options{.num_warps = flags.warps};
    if (flags.info) {
      example::printInfo(add.info(flags.target, block, options), flags.target);
      return 0;
    }
    if (!flags.emit.empty())
      return example::writeOut(
          flags.out, add.emit(flags.emit, flags.target, block, options));

    int64_t n = flags.size;
    Device &device = Device::get(flags.device);
    uint64_t seed = flags.seed;
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
    if (flags.time) {
      Buffer<float> scratch(device, n);
      Event start = device.record();
      for (int i = 0; i < 10; ++i)
        add.launch({cdiv(n, block)}, x, y, scratch, n, block, options);
      Event end = device.record();
      double ms = end.elapsed_ms(start) / 10;
      std::printf("time: %.4f ms per launch, %.1f GB/s (mean of 10, events)\n",
                  ms, 3.0 * 4 * n / (ms * 1e6));
    }
    if (flags.bench)
      example::printBench(device, run, 12.0 * n);
    return example::report(got, want, 1e-6,
                           "vector_add size=" + std::to_string(n));
  } catch (const Error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
