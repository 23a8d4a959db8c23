//===- softmax - naive, online and fused softmax, checked against float64 ---===//

#include "examples/common/example.h"
#include "examples/kernels/seeds.h"

using namespace ktc;

static const char *kUsage = R"(usage: softmax [flags]
  --variant=naive|online|fused|tiled
                                naive: three passes over BLOCK-wide column chunks;
                                online: two passes, running max and sum carried;
                                fused: one program loads whole rows, persistent grid;
                                tiled: 4 rows per program as one 2-D tile, at most
                                1024 columns (default fused)
  --device=auto|cpu|cuda|hip    where to run (default auto)
  --rows=M --cols=N             the matrix (default 1823 x 781)
  --block=B                     BLOCK for naive and online (default 256); fused
                                uses next_pow2(cols), at most 16384
  --programs=P                  fused: number of programs (default: the device's
                                compute units, at most rows)
  --seed=S                      random seed (default 0)
  --emit=mlir|llvm|asm|bin      print the kernel at that stage instead of running it
  --target=host|<gfx arch>|<sm arch>   the target for --emit (default host)
  --out=FILE                    where --emit writes (default stdout)
  --info=1                      print what the kernel uses on --target (registers,
                                LDS/shared memory, scratch, spills) instead of running it
)";

/// The widest row the fused kernel takes: one block of 2^14 floats.
constexpr int64_t kMaxFusedCols = 16384;
/// The tiled kernel's rows per program, and its widest row (the tile goes
/// through a GPU's shared memory for the row reductions).
constexpr int kTiledRows = 4;
constexpr int64_t kMaxTiledCols = 1024;

static std::vector<double> reference(const std::vector<float> &in,
                                     int64_t rows, int64_t cols) {
  std::vector<double> out(in.size());
  for (int64_t r = 0; r < rows; ++r) {
    const float *row = &in[r * cols];
    double m = -INFINITY, s = 0;
    for (int64_t c = 0; c < cols; ++c)
      m = std::max(m, double(row[c]));
    for (int64_t c = 0; c < cols; ++c)
      s += std::exp(double(row[c]) - m);
    for (int64_t c = 0; c < cols; ++c)
      out[r * cols + c] = std::exp(double(row[c]) - m) / s;
  }
  return out;
}

int main(int argc, char **argv) {
  example::Flags flags(argc, argv,
                       {{"variant", "fused"}, {"device", "auto"},
                        {"rows", "1823"}, {"cols", "781"}, {"block", "256"},
                        {"programs", "0"}, {"seed", "0"}, {"emit", ""},
                        {"target", "host"}, {"out", ""}, {"info", "0"}},
                       kUsage);
  try {
    const std::string variant = flags.str("variant");
    int64_t rows = flags.integer("rows"), cols = flags.integer("cols");
    if (rows < 1 || cols < 1 || rows * cols > INT32_MAX)
      example::Flags::fail("--rows and --cols must be positive, with fewer "
                           "than 2^31 elements in all");
    if (variant != "naive" && variant != "online" && variant != "fused" &&
        variant != "tiled")
      example::Flags::fail("--variant must be naive, online, fused or tiled, "
                           "not '" + variant + "'");
    if (variant == "tiled" && cols > kMaxTiledCols)
      example::Flags::fail(
          "--variant=tiled takes at most " + std::to_string(kMaxTiledCols) +
          " columns (got " + std::to_string(cols) +
          "); use --variant=fused or --variant=online for longer rows");
    if (variant == "fused" && cols > kMaxFusedCols)
      example::Flags::fail(
          "--variant=fused loads a whole row into one block and takes at "
          "most " + std::to_string(kMaxFusedCols) + " columns (got " +
          std::to_string(cols) + "); use --variant=online for longer rows");
    int block = variant == "fused" || variant == "tiled"
                    ? int(next_pow2(cols))
                    : int(flags.integer("block"));

    auto naive = Kernel("softmax_naive", seeds::softmax_naive);
    auto online = Kernel("softmax_online", seeds::softmax_online);
    auto fused = Kernel("softmax_fused", seeds::softmax_fused);
    auto tiled = Kernel("softmax_tiled", seeds::softmax_tiled);
    if (flags.str("info") == "1") {
      const std::string &target = flags.str("target");
      KernelInfo info = variant == "naive"    ? naive.info(target, block)
                        : variant == "online" ? online.info(target, block)
                        : variant == "tiled"
                            ? tiled.info(target, kTiledRows, block)
                            : fused.info(target, block);
      std::printf("%s\n", to_string(info).c_str());
      return 0;
    }
    if (!flags.str("emit").empty()) {
      const std::string &stage = flags.str("emit"), &target = flags.str("target");
      return example::writeOut(
          flags, variant == "naive"    ? naive.emit(stage, target, block)
                 : variant == "online" ? online.emit(stage, target, block)
                 : variant == "tiled"
                     ? tiled.emit(stage, target, kTiledRows, block)
                     : fused.emit(stage, target, block));
    }

    Device &device = Device::get(flags.str("device"));
    auto hin = example::randomVector(rows * cols, flags.integer("seed"));
    Buffer<float> in(device, hin);
    Buffer<float> out(device, std::vector<float>(hin.size(), NAN)); // poisoned
    int64_t programs = rows;
    if (variant == "naive") {
      naive.launch({rows}, in, out, cols, cols, block);
    } else if (variant == "online") {
      online.launch({rows}, in, out, cols, cols, block);
    } else if (variant == "tiled") {
      programs = cdiv(rows, kTiledRows);
      tiled.launch({programs}, out, in, cols, cols, rows, cols, kTiledRows,
                   block);
    } else {
      programs = flags.integer("programs");
      if (programs <= 0)
        programs = device.compute_units();
      programs = std::min(programs, rows);
      fused.launch({programs}, out, in, cols, cols, rows, cols, block);
    }
    device.synchronize();
    std::printf("softmax %s: %lld x %lld, BLOCK %d, %lld programs, on %s\n",
                variant.c_str(), (long long)rows, (long long)cols, block,
                (long long)programs, device.name().c_str());
    return example::report(out.to_host(), reference(hin, rows, cols), 1e-4,
                           "softmax " + variant + " " + std::to_string(rows) +
                               "x" + std::to_string(cols));
  } catch (const Error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
