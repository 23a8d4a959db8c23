//===- layernorm - Triton's layer-norm tutorial, checked against float64 ---===//
//
// Forward (y, and each row's mean and rstd) and, with --backward, dx, dw
// and db of an M x N f16 matrix, f32 statistics (examples/kernels/
// layernorm.h). Every output starts poisoned (NaN) and is checked against
// float64 computed from the same f16 inputs, each element within a bound
// scaled by the magnitudes that went into it (f32 sums, f16 rounding).
//
// --specials makes row 0 all one value (variance 0: y = b exactly), row 1
// a thousand times larger, and puts a NaN in row 2: that row's mean, rstd,
// y and dx are NaN, and so is every column of dw (each column sums the
// row's dy * xhat), while db (the sum of dy) stays finite; the other rows
// are unaffected. The check asks for exactly that.
//
// --emit and --info show the kernel (--kernel: forward, backward_dx or
// backward_dwdb) a launch with the same --m and --n runs; --autotune picks
// BLOCK_M and num_warps per N with ktc::Autotuner (rows of one tile only).
//
//===----------------------------------------------------------------------===//

#include "examples/common/example.h"
#include "examples/kernels/layernorm.h"
#include "examples/layernorm/reference.h"
#include "ktc/Autotune.h"

using namespace ktc;

namespace {
namespace cl = llvm::cl;
using Int32 = example::Int<0, INT32_MAX>;
cl::OptionCategory category("layernorm flags");
namespace flag {
example::DeviceFlag common(category);
cl::opt<std::string> &device = common.device;
example::KernelFlags kernelFlags(category);
cl::opt<std::string> &emit = kernelFlags.emit, &target = kernelFlags.target,
                     &out = kernelFlags.out;
cl::opt<bool> &info = kernelFlags.info, &bench = kernelFlags.bench;
cl::opt<long long, false, example::Int<1, INT32_MAX>>
    m("m", cl::desc("Rows (default 1823)"), cl::init(1823), cl::cat(category));
cl::opt<long long, false, example::Int<1, INT32_MAX>>
    n("n", cl::desc("Columns (default 781)"), cl::init(781), cl::cat(category));
cl::opt<long long, false, Int32> blockM(
    "block-m", cl::desc("Rows per program of the forward pass (0, default: "
                        "by N,\nexamples/kernels/layernorm.h)"),
    cl::init(0), cl::cat(category));
cl::opt<long long, false, Int32> blockN(
    "block-n", cl::desc("Columns per chunk (0, default: next_pow2(N) up to "
                        "8192, else\n4096); N <= BLOCK_N reads a row once"),
    cl::init(0), cl::cat(category));
cl::opt<long long, false, Int32>
    warps("warps", cl::desc("Waves per program (0, default: by N)"),
          cl::init(0), cl::cat(category));
cl::opt<bool> threePass(
    "three-pass",
    cl::desc("Read x three times in BLOCK_N chunks even when a row fits "
             "(Triton's\ntutorial's way), not once"),
    cl::cat(category));
cl::opt<bool> autotune("autotune",
                       cl::desc("Pick BLOCK_M and num_warps with "
                                "ktc::Autotuner (rows of one tile)"),
                       cl::cat(category));
cl::opt<bool> backward("backward",
                       cl::desc("Also run and check the backward pass"),
                       cl::cat(category));
cl::opt<bool> specials("specials",
                       cl::desc("Row 0 all equal, row 1 x1000, a NaN in "
                                "row 2"),
                       cl::cat(category));
cl::opt<std::string> kernel(
    "kernel", cl::desc("The kernel --emit and --info show (default forward)"),
    cl::value_desc("forward|backward_dx|backward_dwdb"), cl::init("forward"),
    cl::cat(category));
cl::opt<double> eps("eps", cl::desc("Epsilon (default 1e-5)"), cl::init(1e-5),
                    cl::cat(category));
cl::opt<long long, false, example::Int<>>
    seed("seed", cl::desc("Random seed (default 0)"), cl::init(0),
         cl::cat(category));
} // namespace flag

/// The flags' values, copied once parsed: lld resets every cl::opt when it
/// links a gfx kernel.
struct Flags {
  std::string device = flag::device, emit = flag::emit, target = flag::target,
              out = flag::out, kernel = flag::kernel;
  int64_t m = flag::m, n = flag::n;
  uint64_t seed = flag::seed;
  int blockM = flag::blockM, blockN = flag::blockN, warps = flag::warps;
  double eps = flag::eps;
  bool info = flag::info, bench = flag::bench, autotune = flag::autotune,
       backward = flag::backward, specials = flag::specials,
       threePass = flag::threePass;
};

/// The autotuner's candidates for rows of BLOCK_N columns (one pass):
/// BLOCK_M rows of at most 16384 elements, 4 to 64 of them a thread.
std::vector<Config> forwardConfigs(int blockN) {
  std::vector<Config> configs;
  for (int bm = 1; bm <= 16 && bm * blockN <= 16384; bm *= 2)
    for (int w = 1; w <= 16; w *= 2) {
      int perThread = bm * blockN / (32 * w);
      if (perThread >= 4 && perThread <= 64)
        configs.push_back(Config({{"BLOCK_M", bm}}, {.num_warps = w}));
    }
  if (configs.empty())
    configs.push_back(Config({{"BLOCK_M", 1}}, {.num_warps = 1}));
  return configs;
}
} // namespace

int main(int argc, char **argv) {
  example::parseFlags(argc, argv, category,
                      "layernorm: Triton's layer-norm tutorial (f16, f32 "
                      "statistics), forward and backward, checked against "
                      "float64\n");
  const Flags flags;
  try {
    int64_t m = flags.m, n = flags.n;
    if (m * n > INT32_MAX)
      example::fail("--m and --n must have fewer than 2^31 elements in all");
    layernorm::ForwardConfig cfg = layernorm::forwardConfig(n);
    if (flags.blockN > 0) {
      if (flags.blockN & (flags.blockN - 1))
        example::fail("--block-n must be a power of two, got " +
                      std::to_string(flags.blockN));
      cfg.block_n = flags.blockN;
      cfg.one_pass = n <= flags.blockN;
      if (!cfg.one_pass)
        cfg.block_m = 1;
    }
    if (flags.threePass) {
      cfg.one_pass = false;
      cfg.block_m = 1;
    }
    if (flags.blockM > 0)
      cfg.block_m = flags.blockM;
    if (flags.warps > 0)
      cfg.num_warps = flags.warps;
    Options options{.num_warps = cfg.num_warps};
    auto fwd = Kernel("layernorm_fwd",
                      {"x", "y", "w", "b", "mean", "rstd", "stride", "m", "n",
                       "eps", "BLOCK_M", "BLOCK_N", "ONE_PASS"},
                      layernorm::forward);
    float eps = float(flags.eps);
    const AnyBuffer<half> anyH;
    const AnyBuffer<float> anyF;
    // The backward pass: GROUP_M rows of partial sums, as the tutorial
    // picks them; rows in chunks of at most 4096.
    int group = int(std::min<int64_t>(n <= 1024 ? 256 : n <= 4096 ? 128 : 96,
                                      m));
    int blockN = int(std::min<int64_t>(next_pow2(n), 4096));
    Options bwdOptions{.num_warps = std::clamp(blockN / 256, 1, 8)};
    const Options dwdbOptions{.num_warps = 4};
    auto dxK = Kernel("layernorm_bwd_dx", layernorm::backward_dx);
    auto dwdbK = Kernel("layernorm_bwd_dwdb", layernorm::backward_dwdb);
    // --info and --emit: the --kernel a launch with these --m and --n runs.
    auto asLaunched = [&](auto emitOrInfo) {
      if (flags.kernel == "backward_dx")
        return emitOrInfo(dxK, anyH, anyH, anyH, anyH, anyF, anyF, anyF, anyF,
                          n, n, group, blockN, bwdOptions);
      if (flags.kernel == "backward_dwdb")
        return emitOrInfo(dwdbK, anyF, anyF, anyH, anyH, group, n, 32, 128,
                          dwdbOptions);
      return emitOrInfo(fwd, anyH, anyH, anyH, anyH, anyF, anyF, n, m, n, eps,
                        cfg.block_m, cfg.block_n, cfg.one_pass, options);
    };
    if (flags.kernel != "forward" && flags.kernel != "backward_dx" &&
        flags.kernel != "backward_dwdb")
      example::fail("--kernel must be forward, backward_dx or backward_dwdb, "
                    "not '" + flags.kernel + "'");
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
          flags.out, asLaunched([&](const auto &kernel, const auto &...args) {
            return kernel.emit_as_launched(stage, target, args...);
          }));
    }

    Device &device = Device::get(flags.device);
    reference::Inputs in = reference::makeInputs(m, n, flags.seed,
                                                 flags.specials);
    Buffer<half> x(device, in.x), w(device, in.w), b(device, in.b);
    Buffer<half> y(device, std::vector<half>(m * n, reference::kPoison));
    Buffer<float> mean(device, std::vector<float>(m, NAN)),
        rstd(device, std::vector<float>(m, NAN));
    std::function<void()> run;
    std::optional<Autotuner<decltype(&layernorm::forward)>> tuned;
    if (flags.autotune && cfg.one_pass) {
      tuned.emplace(fwd, forwardConfigs(cfg.block_n),
                    std::vector<std::string>{"n"});
      run = [&] {
        tuned->launch(
            [&](const Config &c) { return Grid(cdiv(m, c["BLOCK_M"])); }, x, y,
            w, b, mean, rstd, n, m, n, eps, cfg.block_n, cfg.one_pass);
      };
    } else {
      run = [&] {
        fwd.launch({cdiv(m, cfg.block_m)}, x, y, w, b, mean, rstd, n, m, n,
                   eps, cfg.block_m, cfg.block_n, cfg.one_pass, options);
      };
    }
    run();
    device.synchronize();
    if (tuned) {
      cfg.block_m = int(tuned->best()["BLOCK_M"]);
      cfg.num_warps = tuned->best().options.num_warps;
    }
    std::printf("layernorm: %lld x %lld f16, BLOCK_M %d, BLOCK_N %d, %s, %d "
                "warps, on %s\n",
                (long long)m, (long long)n, cfg.block_m, cfg.block_n,
                cfg.one_pass ? "one pass" : "three passes", cfg.num_warps,
                device.name().c_str());
    if (flags.bench) // Triton's measure: x read and y written, in f16
      example::printBench(device, run, 2.0 * 2 * m * n);
    reference::Forward want = reference::forward(in, flags.eps);
    int bad = reference::checkForward(want, y.to_host(), mean.to_host(),
                                      rstd.to_host());
    std::string what = "layernorm " + std::to_string(m) + "x" +
                       std::to_string(n);
    if (flags.backward) {
      Buffer<half> dy(device, in.dy);
      Buffer<half> dx(device, std::vector<half>(m * n, reference::kPoison));
      Buffer<float> dwPart(device, std::vector<float>(group * n, 0.0f)),
          dbPart(device, std::vector<float>(group * n, 0.0f));
      Buffer<half> dw(device, std::vector<half>(n, reference::kPoison)),
          db(device, std::vector<half>(n, reference::kPoison));
      dxK.launch({m}, dx, dy, x, w, mean, rstd, dwPart, dbPart, n, n, group,
                 blockN, bwdOptions);
      dwdbK.launch({cdiv(n, 128)}, dwPart, dbPart, dw, db, group, n, 32, 128,
                   dwdbOptions);
      device.synchronize();
      bad += reference::checkBackward(in, want, dx.to_host(), dw.to_host(),
                                      db.to_host());
      what += " forward and backward";
    }
    if (bad) {
      std::printf("FAIL %s: %d elements off\n", what.c_str(), bad);
      return 1;
    }
    std::printf("PASS %s\n", what.c_str());
    return 0;
  } catch (const Error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
