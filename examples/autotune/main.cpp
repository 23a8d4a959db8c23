//===- autotune - the seeds' autotuned vector-add and softmax --------------===//
//
// The workshop's autotuning step in C++: ktc::Autotuner times each config
// (BLOCK_SIZE and num_warps) on the device, per key, and launches the
// fastest; both results are checked against float64. Run it twice with one
// KTC_CACHE_DIR and KTC_AUTOTUNE_LOG=1: the second run times nothing.
//
//===----------------------------------------------------------------------===//

#include "examples/common/example.h"
#include "examples/kernels/seeds.h"

#include "ktc/Autotune.h"

using namespace ktc;

namespace {
namespace cl = llvm::cl;
cl::OptionCategory category("autotune flags");
namespace flag {
example::DeviceFlag common(category);
cl::opt<std::string> &device = common.device;
cl::opt<long long, false, example::Int<1, INT32_MAX>>
    size("size", cl::desc("Vector-add elements, the key (default 98432)"),
         cl::init(98432), cl::cat(category));
cl::opt<long long, false, example::Int<1, INT32_MAX>>
    rows("rows", cl::desc("Online softmax's rows (default 1823)"),
         cl::init(1823), cl::cat(category));
cl::opt<long long, false, example::Int<1, INT32_MAX>>
    cols("cols", cl::desc("Online softmax's columns, n_cols, its key "
                          "(default 781)"),
         cl::init(781), cl::cat(category));
cl::opt<long long, false, example::Int<>>
    seed("seed", cl::desc("Random seed (default 0)"), cl::init(0),
         cl::cat(category));
cl::opt<bool> verbose("verbose",
                      cl::desc("Print each config's time (as "
                               "KTC_AUTOTUNE_LOG=1)"),
                      cl::cat(category));
cl::opt<bool> quick("quick",
                    cl::desc("Time each config briefly (1 ms warm-up, 5 ms "
                             "of repetitions,\na 1 MiB cache flush): for "
                             "tests"),
                    cl::cat(category));
} // namespace flag

/// The flags' values, copied once parsed: lld resets every cl::opt when it
/// links a gfx kernel.
struct Flags {
  std::string device = flag::device;
  int64_t size = flag::size, rows = flag::rows, cols = flag::cols;
  uint64_t seed = flag::seed;
  bool verbose = flag::verbose, quick = flag::quick;
};
} // namespace

int main(int argc, char **argv) {
  example::parseFlags(argc, argv, category,
                      "autotune: the seeds' autotuned vector-add and online "
                      "softmax, checked against float64\n");
  const Flags flags;
  try {
    Device &device = Device::get(flags.device);
    AutotuneOptions options;
    options.verbose = flags.verbose;
    if (flags.quick) {
      options.bench.warmup_ms = 1;
      options.bench.rep_ms = 5;
      options.bench.flush_bytes = 1 << 20;
    }
    uint64_t seed = flags.seed;

    // Vector-add (seed 000): BLOCK_SIZE and num_warps tuned per size.
    auto add = Kernel("add_kernel", {"x", "y", "out", "n", "BLOCK_SIZE"},
                      seeds::vector_add);
    auto tunedAdd = Autotuner(add,
                              {Config({{"BLOCK_SIZE", 256}}, {.num_warps = 2}),
                               Config({{"BLOCK_SIZE", 1024}}, {.num_warps = 4}),
                               Config({{"BLOCK_SIZE", 1024}}, {.num_warps = 8}),
                               Config({{"BLOCK_SIZE", 4096}}, {.num_warps = 8})},
                              {"n"}, options);
    int64_t n = flags.size;
    auto hx = example::randomVector(n, seed), hy = example::randomVector(n, seed + 1);
    Buffer<float> x(device, hx), y(device, hy);
    Buffer<float> sum(device, std::vector<float>(n, NAN)); // poisoned
    tunedAdd.launch(
        [&](const Config &c) { return Grid(cdiv(n, c["BLOCK_SIZE"])); }, x, y,
        sum, n);
    std::vector<double> wantSum(n);
    for (int64_t i = 0; i < n; ++i)
      wantSum[i] = double(hx[i]) + double(hy[i]);
    example::Check addCheck = example::check(sum.to_host(), wantSum, 1e-6);
    std::printf("vector_add n=%lld: config (%s), max relative error %.3g\n",
                (long long)n, tunedAdd.best().str().c_str(), addCheck.worst);
    std::fflush(stdout); // in order with the autotuner's log (stderr)

    // Online softmax (seed 003's generation 3 configs, on the kernel that
    // takes any BLOCK): tuned per n_cols.
    auto online = Kernel("softmax_online",
                         {"in", "out", "row_stride", "n_cols", "BLOCK_SIZE"},
                         seeds::softmax_online);
    auto tunedOnline =
        Autotuner(online,
                  {Config({{"BLOCK_SIZE", 256}}, {.num_warps = 4}),
                   Config({{"BLOCK_SIZE", 1024}}, {.num_warps = 4}),
                   Config({{"BLOCK_SIZE", 2048}}, {.num_warps = 8}),
                   Config({{"BLOCK_SIZE", 4096}}, {.num_warps = 8}),
                   Config({{"BLOCK_SIZE", 4096}}, {.num_warps = 16})},
                  {"n_cols"}, options);
    int64_t rows = flags.rows, cols = flags.cols;
    if (rows * cols > INT32_MAX)
      example::fail("--rows and --cols must be positive, with fewer "
                           "than 2^31 elements in all");
    auto hin = example::randomVector(rows * cols, seed + 2);
    Buffer<float> in(device, hin);
    Buffer<float> out(device, std::vector<float>(hin.size(), NAN));
    tunedOnline.launch([&](const Config &) { return Grid(rows); }, in, out,
                       cols, cols);
    std::printf("softmax_online %lldx%lld: config (%s), on %s\n",
                (long long)rows, (long long)cols,
                tunedOnline.best().str().c_str(), device.name().c_str());
    if (addCheck.bad) {
      std::printf("FAIL vector_add: %zu elements off\n", addCheck.bad);
      return 1;
    }
    return example::report(out.to_host(),
                           example::softmaxReference(hin, rows, cols), 1e-4,
                           "autotune vector_add " + std::to_string(n) +
                               " and softmax_online " + std::to_string(rows) +
                               "x" + std::to_string(cols));
  } catch (const Error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
