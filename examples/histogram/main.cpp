//===- histogram - one-kernel histogram with atomic_add, checked exactly ---===//
//
// Triton's histogram: each program loads BLOCK values in [0, 1), computes
// each one's bin, min(int(x * BINS), BINS - 1), and adds 1 to it with
// atomic_add. Programs run at once and collide on the bins; the bins start
// at known random counts (never zeros) and each must end at its count plus
// the number of values in it, exactly. Two guard words after the bins must
// stay untouched.
//
//===----------------------------------------------------------------------===//

#include "examples/common/example.h"

using namespace ktc;

namespace {
namespace cl = llvm::cl;
cl::OptionCategory category("histogram flags");
namespace flag {
example::DeviceFlag common(category);
cl::opt<std::string> &device = common.device;
example::KernelFlags kernelFlags(category);
cl::opt<std::string> &emit = kernelFlags.emit, &target = kernelFlags.target,
                     &out = kernelFlags.out;
cl::opt<bool> &info = kernelFlags.info, &bench = kernelFlags.bench;
cl::opt<long long, false, example::Int<1, INT32_MAX>>
    size("size", cl::desc("Values (default 100003)"), cl::init(100003),
         cl::cat(category));
cl::opt<long long, false, example::Int<1, 1 << 20>>
    bins("bins", cl::desc("Bins (default 64)"), cl::init(64),
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
} // namespace flag

/// The flags' values, copied once parsed: lld resets every cl::opt when it
/// links a gfx kernel.
struct Flags {
  std::string device = flag::device, emit = flag::emit, target = flag::target,
              out = flag::out;
  int64_t size = flag::size;
  uint64_t seed = flag::seed;
  int bins = flag::bins, block = flag::block, warps = flag::warps;
  bool bench = flag::bench, info = flag::info;
};

/// counts[bin(x[i])] += 1 for the BLOCK values of this program.
void histogram_kernel(Ptr<float> x, Ptr<int32_t> counts, Int n, int BINS,
                      int BLOCK) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  auto bin = minimum((load(x + offs, mask) * float(BINS)).to(DType::i32),
                     BINS - 1);
  atomic_add(counts + bin, 1, mask);
}
} // namespace

int main(int argc, char **argv) {
  example::parseFlags(argc, argv, category,
                      "histogram: atomic_add into bins, checked exactly\n");
  const Flags flags;
  try {
    auto kernel =
        Kernel("histogram_kernel", {"x", "counts", "n", "BINS", "BLOCK_SIZE"},
               histogram_kernel);
    Options options{.num_warps = flags.warps};
    if (flags.info) {
      example::printInfo(kernel.info(flags.target, flags.bins, flags.block,
                                     options),
                         flags.target);
      return 0;
    }
    if (!flags.emit.empty())
      return example::writeOut(flags.out,
                               kernel.emit(flags.emit, flags.target,
                                           flags.bins, flags.block, options));

    int64_t n = flags.size;
    int bins = flags.bins;
    Device &device = Device::get(flags.device);
    std::mt19937_64 gen(flags.seed);
    std::uniform_real_distribution<float> dist(0, 1);
    std::vector<float> hx(n);
    for (float &v : hx)
      v = dist(gen);
    // Known starting counts and two guard words after the bins.
    std::vector<int32_t> init(bins + 2);
    for (int32_t &c : init)
      c = int32_t(gen() % 1000) + 1;
    std::vector<int32_t> want = init;
    for (float v : hx)
      want[std::min(int(v * float(bins)), bins - 1)] += 1;

    Buffer<float> x(device, hx);
    Buffer<int32_t> counts(device, init);
    auto run = [&](Buffer<int32_t> &c) {
      kernel.launch({cdiv(n, flags.block)}, x, c, n, bins, flags.block,
                    options);
    };
    run(counts);
    device.synchronize();
    std::vector<int32_t> got = counts.to_host();
    std::printf("histogram: %lld values, %d bins, BLOCK %d, %d warps, on %s\n",
                (long long)n, bins, flags.block, options.num_warps,
                device.name().c_str());
    if (flags.bench) {
      Buffer<int32_t> scratch(device, init);
      example::printBench(device, [&] { run(scratch); }, 4.0 * n);
    }
    size_t bad = 0;
    for (size_t i = 0; i < got.size(); ++i)
      if (got[i] != want[i]) {
        if (bad++ < 5)
          std::printf("%s %zu: %d, want %d\n",
                      i < size_t(bins) ? "bin" : "guard", i, got[i], want[i]);
      }
    std::string what = "histogram size=" + std::to_string(n) +
                       " bins=" + std::to_string(bins);
    if (bad) {
      std::printf("FAIL %s: %zu of %zu counts off\n", what.c_str(), bad,
                  got.size());
      return 1;
    }
    std::printf("PASS %s: exact\n", what.c_str());
    return 0;
  } catch (const Error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
