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

static const char *kUsage = R"(usage: autotune [flags]
  --device=auto|cpu|cuda|hip   where to run (default auto)
  --size=N                     vector-add elements, the key (default 98432)
  --rows=M --cols=N            online softmax's matrix; n_cols is its key
                               (default 1823 x 781)
  --seed=S                     random seed (default 0)
  --verbose=1                  print each config's time (as KTC_AUTOTUNE_LOG=1)
  --quick=1                    time each config briefly (1 ms warm-up, 5 ms of
                               repetitions, a 1 MiB cache flush): for tests
)";

int main(int argc, char **argv) {
  example::Flags flags(argc, argv,
                       {{"device", "auto"}, {"size", "98432"},
                        {"rows", "1823"}, {"cols", "781"}, {"seed", "0"},
                        {"verbose", "0"}, {"quick", "0"}},
                       kUsage);
  try {
    Device &device = Device::get(flags.str("device"));
    AutotuneOptions options;
    options.verbose = flags.str("verbose") == "1";
    if (flags.str("quick") == "1") {
      options.bench.warmup_ms = 1;
      options.bench.rep_ms = 5;
      options.bench.flush_bytes = 1 << 20;
    }
    uint64_t seed = flags.integer("seed");

    // Vector-add (seed 000): BLOCK_SIZE and num_warps tuned per size.
    auto add = Kernel("add_kernel", {"x", "y", "out", "n", "BLOCK_SIZE"},
                      seeds::vector_add);
    auto tunedAdd = Autotuner(add,
                              {Config({{"BLOCK_SIZE", 256}}, {.num_warps = 2}),
                               Config({{"BLOCK_SIZE", 1024}}, {.num_warps = 4}),
                               Config({{"BLOCK_SIZE", 1024}}, {.num_warps = 8}),
                               Config({{"BLOCK_SIZE", 4096}}, {.num_warps = 8})},
                              {"n"}, options);
    int64_t n = flags.integer("size");
    if (n < 1 || n > INT32_MAX)
      example::Flags::fail("--size must be from 1 to 2^31 - 1");
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
    int64_t rows = flags.integer("rows", 1, INT32_MAX),
            cols = flags.integer("cols", 1, INT32_MAX);
    if (rows * cols > INT32_MAX)
      example::Flags::fail("--rows and --cols must be positive, with fewer "
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
