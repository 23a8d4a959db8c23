//===- tutorial - the Triton workshop, step by step, in C++ ----------------===//
//
// The program docs/tutorial.md walks through: vector-add, looking at what it
// compiles to, autotuning it, then softmax three ways (naive, online, fused),
// a benchmark sweep of the three, and (step 10) Triton's tutorial matmul from
// examples/kernels/matmul.h. Every result is checked against
// float64. Each region between `// [name]` and `// [end name]` is quoted
// verbatim in docs/tutorial.md, and CTest checks that the quotes still match
// (check_snippets.py), so the tutorial's code is code that compiles and runs.
//
//   build/bin/tutorial [--device=cpu|cuda|hip] [--show] [--quick] [--sweep=DIR]
//
//===----------------------------------------------------------------------===//

#include "examples/common/example.h"
#include "examples/common/matmul_check.h"
#include "examples/kernels/matmul.h"

#include "ktc/Autotune.h"
#include "ktc/Bench.h"
#include "ktc/ktc.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

using namespace ktc;

//===----------------------------------------------------------------------===//
// Step 1: vector-add
//===----------------------------------------------------------------------===//

// [vector-add-kernel]
// out[i] = x[i] + y[i]: each program adds one block of BLOCK_SIZE elements.
void add_kernel(Ptr<float> x, Ptr<float> y, Ptr<float> out, Int n,
                int BLOCK_SIZE) {                 // int: a constexpr
  auto pid = program_id(0);                       // which block is mine
  auto offsets = pid * BLOCK_SIZE + arange(0, BLOCK_SIZE);
  auto mask = offsets < n;                        // the last block is partial
  auto sum = load(x + offsets, mask) + load(y + offsets, mask);
  store(out + offsets, sum, mask);
}
// [end vector-add-kernel]

//===----------------------------------------------------------------------===//
// Steps 3 to 5: softmax of each row of a matrix
//===----------------------------------------------------------------------===//

// [softmax-naive]
// One program per row, three passes over the row in BLOCK-wide chunks:
// the maximum, the sum of exponentials, then the output.
void softmax_naive(Ptr<float> in, Ptr<float> out, Int row_stride, Int n_cols,
                   int BLOCK) {
  auto row_in = in + program_id(0) * row_stride;
  auto row_out = out + program_id(0) * row_stride;
  Var row_max = -INFINITY;                        // carried through the loop
  for_range(0, n_cols, BLOCK, [&](Value col) {
    auto offsets = col + arange(0, BLOCK);
    auto x = load(row_in + offsets, offsets < n_cols, -INFINITY);
    row_max = maximum(row_max, max(x, 0));
  });
  Var denominator = 0.0f;
  for_range(0, n_cols, BLOCK, [&](Value col) {
    auto offsets = col + arange(0, BLOCK);
    auto x = load(row_in + offsets, offsets < n_cols, -INFINITY);
    denominator = denominator + sum(exp(x - row_max), 0); // exp(-inf) = 0
  });
  for_range(0, n_cols, BLOCK, [&](Value col) {
    auto offsets = col + arange(0, BLOCK);
    auto mask = offsets < n_cols;
    auto x = load(row_in + offsets, mask);
    store(row_out + offsets, exp(x - row_max) / denominator, mask);
  });
}
// [end softmax-naive]

// [softmax-online]
// Two passes: the running maximum and the sum of exponentials are carried
// together, the sum rescaled whenever the maximum grows.
void softmax_online(Ptr<float> in, Ptr<float> out, Int row_stride, Int n_cols,
                    int BLOCK) {
  auto row_in = in + program_id(0) * row_stride;
  auto row_out = out + program_id(0) * row_stride;
  Var row_max = -INFINITY;
  Var denominator = 0.0f;
  for_range(0, n_cols, BLOCK, [&](Value col) {
    auto offsets = col + arange(0, BLOCK);
    auto mask = offsets < n_cols;
    auto x = load(row_in + offsets, mask, -INFINITY);
    auto new_max = maximum(row_max, max(x, 0));
    denominator = denominator * exp(row_max - new_max) +
                  sum(where(mask, exp(x - new_max), 0.0f), 0);
    row_max = new_max;
  });
  for_range(0, n_cols, BLOCK, [&](Value col) {
    auto offsets = col + arange(0, BLOCK);
    auto mask = offsets < n_cols;
    auto x = load(row_in + offsets, mask);
    store(row_out + offsets, exp(x - row_max) / denominator, mask);
  });
}
// [end softmax-online]

// [softmax-fused]
// One pass: a whole row fits in one block (BLOCK >= n_cols). A fixed number
// of programs stride over the rows (a persistent kernel).
void softmax_fused(Ptr<float> out, Ptr<float> in, Int in_stride,
                   Int out_stride, Int n_rows, Int n_cols, int BLOCK) {
  auto cols = arange(0, BLOCK);
  auto mask = cols < n_cols;
  for_range(program_id(0), n_rows, num_programs(0), [&](Value row) {
    auto x = load(in + row * in_stride + cols, mask, -INFINITY);
    auto numerator = exp(x - max(x, 0));
    store(out + row * out_stride + cols, numerator / sum(numerator, 0), mask);
  });
}
// [end softmax-fused]

static const auto naive = Kernel("softmax_naive", softmax_naive);
static const auto online = Kernel("softmax_online", softmax_online);
static const auto fused = Kernel("softmax_fused", softmax_fused);

// [softmax-fused-launch]
// As many programs as the device keeps resident at once: its compute units
// times how many programs of this kernel fit on one (its occupancy, from the
// registers and shared memory the compiled kernel uses). The CPU runs one
// program per hardware thread.
int64_t fused_programs(Device &dev, int64_t rows, int BLOCK) {
  int64_t programs = dev.compute_units();
  if (std::optional<DeviceLimits> cu = limits_for(dev)) {  // a GPU
    KernelInfo used = fused.info(name(dev.kind()), BLOCK);
    programs *= std::max(occupancy(used, *cu).workgroups_per_cu, 1);
  }
  return std::min(programs, rows);
}

void softmax(const std::string &variant, Buffer<float> &in, Buffer<float> &out,
             int64_t rows, int64_t cols) {
  Device &dev = in.device();
  if (variant == "naive") {
    naive.launch({rows}, in, out, cols, cols, 256);       // one program a row
  } else if (variant == "online") {
    online.launch({rows}, in, out, cols, cols, 256);
  } else {
    int BLOCK = int(next_pow2(cols));                     // the whole row
    fused.launch({fused_programs(dev, rows, BLOCK)}, out, in, cols, cols, rows,
                 cols, BLOCK);
  }
}
// [end softmax-fused-launch]

namespace {
namespace cl = llvm::cl;
cl::OptionCategory category("tutorial flags");
namespace flag {
example::DeviceFlag common(category);
cl::opt<std::string> &device = common.device;
cl::opt<bool> show("show",
                   cl::desc("Print what vector-add compiles to: the ktc "
                            "dialect, PTX,\nMI300 assembly and its "
                            "registers"),
                   cl::cat(category));
cl::opt<bool> quick("quick",
                    cl::desc("Autotune and sweep briefly (for tests)"),
                    cl::cat(category));
cl::opt<std::string> sweep("sweep",
                           cl::desc("Run the softmax benchmark sweep and "
                                    "write its table and plot there"),
                           cl::value_desc("dir"), cl::cat(category));
} // namespace flag

/// The flags' values, copied once parsed: lld resets every cl::opt when it
/// links a gfx kernel (--show).
struct Flags {
  std::string device = flag::device, sweep = flag::sweep;
  bool show = flag::show, quick = flag::quick;
};
} // namespace

int main(int argc, char **argv) {
  example::parseFlags(argc, argv, category,
                      "tutorial: the Triton workshop, step by step, in C++ "
                      "(docs/tutorial.md)\n");
  const Flags flags;
  try {
    int failures = 0;
    // [vector-add-launch]
    Device &dev = Device::get(flags.device);        // "auto": KTC_DEVICE or the best
    const int n = 98432;                            // the workshop's size
    std::vector<float> hx = example::randomVector(n, 0);
    std::vector<float> hy = example::randomVector(n, 1);
    Buffer<float> x(dev, hx), y(dev, hy);           // copied to the device
    Buffer<float> out(dev, std::vector<float>(n, NAN)); // poisoned: NaN
    auto add = Kernel("add_kernel", {"x", "y", "out", "n", "BLOCK_SIZE"},
                      add_kernel);
    add.launch({cdiv(n, 1024)}, x, y, out, n, 1024); // grid, then arguments
    std::vector<float> got = out.to_host();
    // [end vector-add-launch]
    std::vector<double> want(n);
    for (int i = 0; i < n; ++i)
      want[i] = double(hx[i]) + double(hy[i]);
    failures += example::report(got, want, 1e-6, "step 1: vector-add");

    if (flags.show) {
      // [vector-add-show]
      std::cout << add.mlir(1024);                  // the ktc dialect
      std::cout << add.emit("asm", "sm_90", 1024);  // PTX for an H100/H200
      std::cout << add.emit("asm", "gfx942", 1024); // MI300 assembly
      std::cout << to_string(add.info("gfx942", 1024)) << "\n";
      // [end vector-add-show]
    }

    // Step 2: autotuning. --quick times each config briefly (for tests).
    AutotuneOptions tuning;
    if (flags.quick)
      tuning.bench = {.warmup_ms = 1, .rep_ms = 5, .flush_bytes = 1 << 20};
    // [autotune]
    auto tuned = Autotuner(add,
                           {Config({{"BLOCK_SIZE", 256}}, {.num_warps = 2}),
                            Config({{"BLOCK_SIZE", 1024}}, {.num_warps = 4}),
                            Config({{"BLOCK_SIZE", 4096}}, {.num_warps = 8})},
                           /*key=*/{"n"}, tuning);
    out.copy_from(std::vector<float>(n, NAN));
    tuned.launch([&](const Config &c) { return Grid(cdiv(n, c["BLOCK_SIZE"])); },
                 x, y, out, n);                     // all but BLOCK_SIZE
    std::printf("step 2: the fastest config for n = %d: %s\n", n,
                tuned.best().str().c_str());
    // [end autotune]
    failures += example::report(out.to_host(), want, 1e-6, "step 2: autotuned");

    // Steps 3 to 5: softmax of the Triton tutorial's 1823 x 781 matrix.
    // [softmax-check]
    const int64_t rows = 1823, cols = 781;
    std::vector<float> hin = example::randomVector(rows * cols, 2);
    std::vector<double> expected = example::softmaxReference(hin, rows, cols);
    Buffer<float> in(dev, hin);
    for (std::string variant : {"naive", "online", "fused"}) {
      Buffer<float> result(dev, std::vector<float>(rows * cols, NAN));
      softmax(variant, in, result, rows, cols);
      failures += example::report(result.to_host(), expected, 1e-4,
                                  "softmax " + variant);
    }
    // [end softmax-check]

    // Step 10: matrix multiplication, f16 in, f32 accumulated, f16 out.
    {
      const int64_t M = 100, N = 37, K = 129; // tiles cut at every edge
      std::vector<half> ha = example::randomMatrix<half>(M * K, 4);
      std::vector<half> hb = example::randomMatrix<half>(K * N, 5);
      const half poison{example::Format<half>::poison};
      // [matmul-launch]
      Buffer<half> a(dev, ha), b(dev, hb);            // M x K and K x N
      Buffer<half> c(dev, std::vector<half>(M * N + 64, poison)); // + a guard
      auto matmul = Kernel("matmul", seeds::matmul<half>);
      const int BLOCK_M = 32, BLOCK_N = 32, BLOCK_K = 32, GROUP_M = 8;
      matmul.launch({cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)}, // one program a tile
                    a, b, c, M, N, K,
                    K, 1,   // stride_am, stride_ak: a is row-major
                    N, 1,   // stride_bk, stride_bn
                    N, 1,   // stride_cm, stride_cn
                    BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, seeds::kMatmulNone);
      // [end matmul-launch]
      failures += example::reportMatmul(
          example::checkMatmul(ha, {K, 1}, hb, {N, 1}, c.to_host(), M, N, K,
                               false),
          M * N, 64, "step 10: matmul");
    }

    // Step 6: the benchmark sweep, as perf_report in the Triton tutorial.
    if (!flags.sweep.empty()) {
      const bool quick = flags.quick;
      bench::Options timing;
      if (quick)
        timing = {.warmup_ms = 1, .rep_ms = 5, .flush_bytes = 1 << 20};
      // [benchmark]
      const int64_t M = quick ? 64 : 4096;
      bench::Benchmark sweep;
      sweep.x_name = "N";
      for (int64_t N = 256; N <= (quick ? 1024 : 16384); N *= 2)
        sweep.x_vals.push_back(N);
      sweep.providers = {"naive", "online", "fused"};
      sweep.y_label = "GB/s";
      sweep.plot_name = "softmax-performance";
      bench::perf_report(
          sweep,
          [&](const std::string &provider, int64_t N) {
            Buffer<float> a(dev, example::randomVector(M * N, 3));
            Buffer<float> b(dev, M * N);
            bench::Result r = bench::do_bench(
                dev, [&] { softmax(provider, a, b, M, N); }, timing);
            return bench::gbps(8.0 * M * N, r.median_ms); // read + write
          },
          {.dir = flags.sweep});
      // [end benchmark]
    }
    return failures ? 1 : 0;
  } catch (const Error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
