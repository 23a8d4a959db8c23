//===- fused_probe - where the persistent fused softmax's time goes -------===//
//
// A diagnostic beside ktc-bench (docs/bench/README.md): the fused softmax
// next to kernels that keep its persistent row loop but drop part of its
// work, timed with ktc::bench::do_bench on one shape:
//   rowcopy   out[row] = in[row]            (the loop's memory traffic only)
//   rowscale  out[row] = in[row] * 2        (no reductions)
//   rowmax    out[row] = in[row] - max(row) (one reduction)
//   fused     the seeds' fused softmax
//   fused_rcp the fused softmax multiplying by 1 / sum
// Each is checked on the device against a float64 reference first.
//   ktc-fused-probe --device=cuda --rows=8192 --cols=8192 [--warps=W]
//                   [--stages=S] [--programs=P]
//
//===----------------------------------------------------------------------===//

#include "examples/common/example.h"
#include "examples/kernels/launch.h"
#include "examples/kernels/seeds.h"

#include <cmath>

using namespace ktc;

namespace {

/// The fused softmax's row loop with `body` in place of the softmax.
template <typename Body>
void rowLoop(Ptr<float> out, Ptr<float> in, Int stride, Int rows, Int cols,
             int BLOCK, Body body) {
  auto c = arange(0, BLOCK);
  auto mask = c < cols;
  for_range(program_id(0), rows, num_programs(0), [&](Value row) {
    auto x = load(in + row * stride + c, mask, -INFINITY);
    store(out + row * stride + c, body(x), mask);
  });
}

void rowcopy(Ptr<float> out, Ptr<float> in, Int stride, Int rows, Int cols,
             int BLOCK) {
  rowLoop(out, in, stride, rows, cols, BLOCK, [](Value x) { return x; });
}
void rowscale(Ptr<float> out, Ptr<float> in, Int stride, Int rows, Int cols,
              int BLOCK) {
  rowLoop(out, in, stride, rows, cols, BLOCK,
          [](Value x) { return x * 2.0f; });
}
void rowmax(Ptr<float> out, Ptr<float> in, Int stride, Int rows, Int cols,
            int BLOCK) {
  rowLoop(out, in, stride, rows, cols, BLOCK,
          [](Value x) { return x - max(x, 0); });
}
void fused_rcp(Ptr<float> out, Ptr<float> in, Int stride, Int rows, Int cols,
               int BLOCK) {
  rowLoop(out, in, stride, rows, cols, BLOCK, [](Value x) {
    auto num = exp(x - max(x, 0));
    return num * (1.0f / sum(num, 0));
  });
}
void fused(Ptr<float> out, Ptr<float> in, Int stride, Int rows, Int cols,
           int BLOCK) {
  seeds::softmax_fused(out, in, stride, stride, rows, cols, BLOCK);
}

namespace cl = llvm::cl;
cl::OptionCategory category("ktc-fused-probe flags");
namespace flag {
example::DeviceFlag common(category);
cl::opt<std::string> &device = common.device;
using Int32 = example::Int<INT32_MIN, INT32_MAX>;
cl::opt<long long, false, example::Int<1, INT32_MAX>>
    rows("rows", cl::desc("The matrix's rows (default 8192)"), cl::init(8192),
         cl::cat(category));
cl::opt<long long, false, example::Int<1, INT32_MAX>>
    cols("cols", cl::desc("The matrix's columns (default 8192)"),
         cl::init(8192), cl::cat(category));
cl::opt<long long, false, Int32>
    warps("warps", cl::desc("Waves per program (0, default: the fused "
                            "softmax's choice)"),
          cl::init(0), cl::cat(category));
cl::opt<long long, false, Int32>
    stages("stages", cl::desc("num_stages (default 1)"), cl::init(1),
           cl::cat(category));
cl::opt<long long, false, example::Int<>>
    programs("programs", cl::desc("Programs (0, default: as many as are "
                                  "resident at once)"),
             cl::init(0), cl::cat(category));
cl::opt<std::string> only("only", cl::desc("Only the probe of this name"),
                          cl::value_desc("name"), cl::cat(category));
} // namespace flag

/// The flags' values, copied once parsed (as the examples do: lld resets
/// every cl::opt when it links a gfx kernel).
struct Flags {
  std::string device = flag::device, only = flag::only;
  int64_t rows = flag::rows, cols = flag::cols, programs = flag::programs;
  int warps = flag::warps, stages = flag::stages;
};

} // namespace

int main(int argc, char **argv) {
  example::parseFlags(argc, argv, category,
                      "ktc-fused-probe: where the persistent fused softmax's "
                      "time goes\n");
  const Flags flags;
  try {
    Device &device = Device::get(flags.device);
    int64_t rows = flags.rows, cols = flags.cols;
    int block = int(next_pow2(cols));
    int warps = flags.warps;
    if (warps <= 0)
      warps = seeds::fused_num_warps(block);
    Options options{.num_warps = warps,
                    .num_stages = flags.stages};
    auto hin = example::randomVector(size_t(rows * cols), 11);
    std::vector<example::RowStats> stats = example::rowStats(hin, rows, cols);
    Buffer<float> in(device, hin);
    Buffer<float> out(device, std::vector<float>(hin.size(), NAN));

    using Fn = void (*)(Ptr<float>, Ptr<float>, Int, Int, Int, int);
    struct Probe {
      const char *name;
      Fn fn;
      std::function<double(float, double, double)> want; // x, max, sum
    };
    const Probe probes[] = {
        {"rowcopy", rowcopy, [](float x, double, double) { return x; }},
        {"rowscale", rowscale, [](float x, double, double) { return 2.0 * x; }},
        {"rowmax", rowmax, [](float x, double m, double) { return x - m; }},
        {"fused", fused,
         [](float x, double m, double s) { return std::exp(x - m) / s; }},
        {"fused_rcp", fused_rcp,
         [](float x, double m, double s) { return std::exp(x - m) / s; }},
    };
    int failures = 0;
    for (const Probe &p : probes) {
      if (!flags.only.empty() && flags.only != p.name)
        continue;
      Kernel kernel(p.name, p.fn);
      int64_t programs = flags.programs;
      if (programs <= 0)
        programs = seeds::fused_programs(kernel, device, rows, block, warps,
                                         options.num_stages);
      programs = std::min(programs, rows);
      out.copy_from(std::vector<float>(hin.size(), NAN));
      auto run = [&] {
        kernel.launch({programs}, out, in, cols, rows, cols, block, options);
      };
      run();
      device.synchronize();
      std::vector<float> got = out.to_host();
      std::vector<double> want(got.size());
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c)
          want[r * cols + c] =
              p.want(hin[r * cols + c], stats[r].max, stats[r].sum);
      example::Check check = example::check(got, want, 1e-4);
      bench::Result r = bench::do_bench(device, run);
      std::printf("%-10s %lldx%lld warps=%d stages=%d programs=%lld: %.4f ms "
                  "(p20 %.4f, p80 %.4f) %.1f GB/s %s\n",
                  p.name, (long long)rows, (long long)cols, warps,
                  options.num_stages, (long long)programs, r.median_ms,
                  r.p20_ms, r.p80_ms,
                  bench::gbps(8.0 * rows * cols, r.median_ms),
                  check.bad == 0 ? "PASS" : "FAIL");
      failures += check.bad != 0;
    }
    return failures ? 1 : 0;
  } catch (const Error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
