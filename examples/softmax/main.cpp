//===- softmax - naive, online and fused softmax, checked against float64 ---===//
//
// --emit and --info show the code the launch with the same --rows and
// --cols runs (Kernel::emit_as_launched).
//
//===----------------------------------------------------------------------===//

#include "examples/common/example.h"
#include "examples/kernels/launch.h"
#include "examples/kernels/seeds.h"

using namespace ktc;

namespace {
namespace cl = llvm::cl;
using Int32 = example::Int<INT32_MIN, INT32_MAX>;
cl::OptionCategory category("softmax flags");
namespace flag {
example::DeviceFlag common(category);
cl::opt<std::string> &device = common.device;
example::KernelFlags kernelFlags(category);
cl::opt<std::string> &emit = kernelFlags.emit, &target = kernelFlags.target,
                     &out = kernelFlags.out;
cl::opt<bool> &info = kernelFlags.info, &bench = kernelFlags.bench;
cl::opt<std::string> variant(
    "variant",
    cl::desc("naive: three passes over BLOCK-wide column chunks;\n"
             "online: two passes, running max and sum carried;\n"
             "fused: one program loads whole rows, striding over the rows;\n"
             "tiled: a 2-D tile of up to 4 rows per program (4096 "
             "elements),\nat most 16384 columns\n(default fused)"),
    cl::value_desc("naive|online|fused|tiled"), cl::init("fused"),
    cl::cat(category));
cl::opt<long long, false, example::Int<1, INT32_MAX>>
    rows("rows", cl::desc("The matrix's rows (default 1823)"), cl::init(1823),
         cl::cat(category));
cl::opt<long long, false, example::Int<1, INT32_MAX>>
    cols("cols", cl::desc("The matrix's columns (default 781)"), cl::init(781),
         cl::cat(category));
cl::opt<long long, false, Int32>
    block("block",
          cl::desc("BLOCK for naive and online (default 256); fused and "
                   "tiled\nuse next_pow2(cols), at most 16384"),
          cl::init(256), cl::cat(category));
cl::opt<long long, false, Int32> warps(
    "warps",
    cl::desc("Waves per program; 0 (default): 4, fused: 4 up to 8192 "
             "columns,\nthen 16, doubled for fewer rows than compute units, "
             "halved\nwhere that puts more rows in flight "
             "(examples/kernels/launch.h)"),
    cl::init(0), cl::cat(category));
cl::opt<long long, false, Int32> stages(
    "stages",
    cl::desc("num_stages: 2 or more issues the loop's loads S - 1 "
             "iterations\nahead (software pipelining); 0 (default): 1, "
             "fused:\nexamples/kernels/launch.h"),
    cl::init(0), cl::cat(category));
cl::opt<long long, false, example::Int<>> persistent(
    "persistent",
    cl::desc("Fused: W times as many programs as are resident at once\n"
             "(compute units x occupancy of the compiled kernel), each\n"
             "striding over the rows; 0 (default): one program per row\n"
             "(examples/kernels/launch.h)"),
    cl::value_desc("W"), cl::init(0), cl::cat(category));
cl::opt<long long, false, example::Int<>>
    programs("programs",
             cl::desc("Fused: this many programs instead (0, default: "
                      "--persistent decides)"),
             cl::init(0), cl::cat(category));
cl::opt<long long, false, example::Int<>>
    seed("seed", cl::desc("Random seed (default 0)"), cl::init(0),
         cl::cat(category));
} // namespace flag

/// The flags' values, copied once parsed: lld resets every cl::opt when it
/// links a gfx kernel.
struct Flags {
  std::string variant = flag::variant, device = flag::device,
              emit = flag::emit, target = flag::target, out = flag::out;
  int64_t rows = flag::rows, cols = flag::cols, persistent = flag::persistent,
          programs = flag::programs;
  uint64_t seed = flag::seed;
  int block = flag::block, warps = flag::warps, stages = flag::stages;
  bool info = flag::info, bench = flag::bench;
};
} // namespace

/// The widest row the fused kernel takes: one block of 2^14 floats.
constexpr int64_t kMaxFusedCols = 16384;
/// The tiled kernel's widest row, and its rows per program: a tile of at
/// most 4096 elements, 4 rows at most (its row reductions stay in
/// registers and lanes, or cross waves through a few KiB of shared memory).
constexpr int64_t kMaxTiledCols = 16384;
constexpr int tiledRows(int block) {
  return block >= 4096 ? 1 : std::min(4, 4096 / block);
}

int main(int argc, char **argv) {
  example::parseFlags(argc, argv, category,
                      "softmax: naive, online, fused and tiled softmax, "
                      "checked against float64\n");
  const Flags flags;
  try {
    const std::string &variant = flags.variant;
    int64_t rows = flags.rows, cols = flags.cols;
    if (rows * cols > INT32_MAX)
      example::fail("--rows and --cols must be positive, with fewer "
                           "than 2^31 elements in all");
    if (variant != "naive" && variant != "online" && variant != "fused" &&
        variant != "tiled")
      example::fail("--variant must be naive, online, fused or tiled, "
                           "not '" + variant + "'");
    if (variant == "tiled" && cols > kMaxTiledCols)
      example::fail(
          "--variant=tiled takes at most " + std::to_string(kMaxTiledCols) +
          " columns (got " + std::to_string(cols) +
          "); use --variant=fused or --variant=online for longer rows");
    if (variant == "fused" && cols > kMaxFusedCols)
      example::fail(
          "--variant=fused loads a whole row into one block and takes at "
          "most " + std::to_string(kMaxFusedCols) + " columns (got " +
          std::to_string(cols) + "); use --variant=online for longer rows");
    int block = variant == "fused" || variant == "tiled"
                    ? int(next_pow2(cols))
                    : flags.block;

    int warps = flags.warps;
    if (warps <= 0)
      warps = variant == "fused" || (variant == "tiled" && block >= 4096)
                  ? seeds::fused_num_warps(block)
                  : 4;
    int stages = flags.stages;
    if (stages <= 0)
      stages = variant == "fused" ? seeds::fused_num_stages(block) : 1;
    Options options{.num_warps = warps, .num_stages = stages};

    auto naive = Kernel("softmax_naive", seeds::softmax_naive);
    auto online = Kernel("softmax_online", seeds::softmax_online);
    auto fused = Kernel("softmax_fused", seeds::softmax_fused);
    auto tiled = Kernel("softmax_tiled", seeds::softmax_tiled);
    // --info and --emit: the code a launch with these --rows and --cols
    // runs (specialised for them, buffers as devices allocate them).
    const AnyBuffer<float> any;
    auto asLaunched = [&](auto emitOrInfo) {
      return variant == "naive"
                 ? emitOrInfo(naive, any, any, cols, cols, block, options)
             : variant == "online"
                 ? emitOrInfo(online, any, any, cols, cols, block, options)
             : variant == "tiled"
                 ? emitOrInfo(tiled, any, any, cols, cols, rows, cols,
                              tiledRows(block), block, options)
                 : emitOrInfo(fused, any, any, cols, cols, rows, cols, block,
                              options);
    };
    if (flags.info) {
      const std::string &target = flags.target;
      example::printInfo(asLaunched([&](const auto &kernel,
                                        const auto &...args) {
                           return kernel.info_as_launched(target, args...);
                         }),
                         target);
      return 0;
    }
    if (!flags.emit.empty()) {
      const std::string &stage = flags.emit, &target = flags.target;
      return example::writeOut(
          flags.out,
          asLaunched([&](const auto &kernel, const auto &...args) {
            return kernel.emit_as_launched(stage, target, args...);
          }));
    }

    Device &device = Device::get(flags.device);
    // The fused default on a device: its occupancy may halve the waves.
    if (variant == "fused" && flags.warps <= 0) {
      warps = seeds::fused_launch_warps(fused, device, rows, block, stages);
      options.num_warps = warps;
    }
    auto hin = example::randomVector(rows * cols, flags.seed);
    Buffer<float> in(device, hin);
    Buffer<float> out(device, std::vector<float>(hin.size(), NAN)); // poisoned
    int64_t programs = rows;
    if (variant == "tiled") {
      programs = cdiv(rows, tiledRows(block));
    } else if (variant == "fused") {
      programs = flags.programs;
      programs = programs > 0 ? std::min(programs, rows)
                              : seeds::fused_programs(fused, device, rows,
                                                      block, warps, stages,
                                                      flags.persistent);
    }
    auto run = [&] {
      if (variant == "naive")
        naive.launch({rows}, in, out, cols, cols, block, options);
      else if (variant == "online")
        online.launch({rows}, in, out, cols, cols, block, options);
      else if (variant == "tiled")
        tiled.launch({programs}, out, in, cols, cols, rows, cols, tiledRows(block),
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
    if (flags.bench)
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
