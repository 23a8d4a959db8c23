//===- softmax - naive, online and fused softmax, checked against float64 ---===//

#include "examples/common/example.h"
#include "examples/kernels/launch.h"
#include "examples/kernels/seeds.h"

using namespace ktc;

static const char *kUsage = R"(usage: softmax [flags]
  --variant=naive|online|fused|tiled
                                naive: three passes over BLOCK-wide column chunks;
                                online: two passes, running max and sum carried;
                                fused: one program loads whole rows, striding over the rows;
                                tiled: 4 rows per program as one 2-D tile, at most
                                1024 columns (default fused)
  --device=auto|cpu|cuda|hip    where to run (default auto)
  --rows=M --cols=N             the matrix (default 1823 x 781)
  --block=B                     BLOCK for naive and online (default 256); fused
                                uses next_pow2(cols), at most 16384
  --warps=W                     waves per program (default 4; fused: 4 up to
                                8192 columns, then 16; doubled for fewer rows
                                than compute units, halved where that puts more
                                rows in flight: examples/kernels/launch.h)
  --stages=S                    num_stages: 2 or more issues the loop's loads S - 1
                                iterations ahead (software pipelining; default 1,
                                fused: examples/kernels/launch.h)
  --persistent=W                fused: W times as many programs as are resident at
                                once (compute units x occupancy of the compiled
                                kernel), each striding over the rows; 0 (default):
                                one program per row (examples/kernels/launch.h)
  --programs=P                  fused: this many programs instead
  --seed=S                      random seed (default 0)
  --emit=mlir|llvm|asm|bin      print the kernel at that stage instead of running it
  --target=host|<gfx arch>|<sm arch>   the target for --emit (default host)
  --out=FILE                    where --emit writes (default stdout)
  --info=1                      print what the kernel uses on --target (registers,
                                LDS/shared memory, scratch, spills) and its occupancy
                                instead of running it (--target=cuda|hip|cpu: the device)
  --bench=1                     after the check, time the launch with ktc::bench::do_bench
                                (L2 flushed before each repetition) and print the median
)";

/// The widest row the fused kernel takes: one block of 2^14 floats.
constexpr int64_t kMaxFusedCols = 16384;
/// The tiled kernel's rows per program, and its widest row (the tile goes
/// through a GPU's shared memory for the row reductions).
constexpr int kTiledRows = 4;
constexpr int64_t kMaxTiledCols = 1024;

int main(int argc, char **argv) {
  example::Flags flags(argc, argv,
                       {{"variant", "fused"}, {"device", "auto"},
                        {"rows", "1823"}, {"cols", "781"}, {"block", "256"},
                        {"programs", "0"}, {"warps", "0"}, {"stages", "0"},
                        {"persistent", "0"}, {"seed", "0"}, {"emit", ""},
                        {"target", "host"}, {"out", ""}, {"info", "0"},
                        {"bench", "0"}},
                       kUsage);
  try {
    const std::string variant = flags.str("variant");
    int64_t rows = flags.integer("rows", 1, INT32_MAX),
            cols = flags.integer("cols", 1, INT32_MAX);
    if (rows * cols > INT32_MAX)
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
                    : flags.int32("block");

    int warps = flags.int32("warps");
    if (warps <= 0)
      warps = variant == "fused" ? seeds::fused_num_warps(block) : 4;
    int stages = flags.int32("stages");
    if (stages <= 0)
      stages = variant == "fused" ? seeds::fused_num_stages(block) : 1;
    Options options{.num_warps = warps, .num_stages = stages};

    auto naive = Kernel("softmax_naive", seeds::softmax_naive);
    auto online = Kernel("softmax_online", seeds::softmax_online);
    auto fused = Kernel("softmax_fused", seeds::softmax_fused);
    auto tiled = Kernel("softmax_tiled", seeds::softmax_tiled);
    if (flags.str("info") == "1") {
      const std::string &target = flags.str("target");
      KernelInfo info =
          variant == "naive"    ? naive.info(target, block, options)
          : variant == "online" ? online.info(target, block, options)
          : variant == "tiled"  ? tiled.info(target, kTiledRows, block, options)
                                : fused.info(target, block, options);
      example::printInfo(info, target);
      return 0;
    }
    if (!flags.str("emit").empty()) {
      const std::string &stage = flags.str("emit"), &target = flags.str("target");
      return example::writeOut(
          flags,
          variant == "naive"    ? naive.emit(stage, target, block, options)
          : variant == "online" ? online.emit(stage, target, block, options)
          : variant == "tiled"
              ? tiled.emit(stage, target, kTiledRows, block, options)
              : fused.emit(stage, target, block, options));
    }

    Device &device = Device::get(flags.str("device"));
    // The fused default on a device: its occupancy may halve the waves.
    if (variant == "fused" && flags.integer("warps") <= 0) {
      warps = seeds::fused_launch_warps(fused, device, rows, block, stages);
      options.num_warps = warps;
    }
    auto hin = example::randomVector(rows * cols, flags.integer("seed"));
    Buffer<float> in(device, hin);
    Buffer<float> out(device, std::vector<float>(hin.size(), NAN)); // poisoned
    int64_t programs = rows;
    if (variant == "tiled") {
      programs = cdiv(rows, kTiledRows);
    } else if (variant == "fused") {
      programs = flags.integer("programs");
      programs = programs > 0 ? std::min(programs, rows)
                              : seeds::fused_programs(fused, device, rows,
                                                      block, warps, stages,
                                                      flags.integer("persistent"));
    }
    auto run = [&] {
      if (variant == "naive")
        naive.launch({rows}, in, out, cols, cols, block, options);
      else if (variant == "online")
        online.launch({rows}, in, out, cols, cols, block, options);
      else if (variant == "tiled")
        tiled.launch({programs}, out, in, cols, cols, rows, cols, kTiledRows,
                     block, options);
      else
        fused.launch({programs}, out, in, cols, cols, rows, cols, block,
                     options);
    };
    run();
    device.synchronize();
    std::vector<float> got = out.to_host();
    std::printf("softmax %s: %lld x %lld, BLOCK %d, %d warps, %s%lld "
                "programs, on %s\n",
                variant.c_str(), (long long)rows, (long long)cols, block, warps,
                stages > 1 ? (std::to_string(stages) + " stages, ").c_str() : "",
                (long long)programs, device.name().c_str());
    if (flags.str("bench") == "1")
      example::printBench(device, run, 8.0 * rows * cols);
    return example::report(got, example::softmaxReference(hin, rows, cols),
                           1e-4,
                           "softmax " + variant + " " + std::to_string(rows) +
                               "x" + std::to_string(cols));
  } catch (const Error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
