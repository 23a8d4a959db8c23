//===- matmul - Triton's tutorial matmul, checked against float64 ---------===//
//
// C = A x B (M x K by K x N) in f16 or bf16 with f32 accumulation, with
// examples/kernels/matmul.h, optionally with the fused leaky ReLU
// (--activation=leaky_relu), A and B stored either way round (--trans-a,
// --trans-b: only the strides change), with one config (--block-m ...) or
// the best of a list timed on the device (--autotune, ktc::Autotuner keyed
// on M, N and K, as the tutorial's @triton.autotune, over its configs:
// examples/kernels/matmul_configs.h). --emit and --info show the code the
// launch with the same flags runs (Kernel::emit_as_launched). --block-ptr
// runs the same product written with block pointers (matmul_block_ptr).
//
// The inputs are random values exactly representable in the type, of both
// signs, with zeros and subnormals among them (--specials adds NaNs and
// infinities); the output is poisoned first (a signalling NaN), with a guard
// after it that must stay poisoned. Each element is checked against a
// float64 reference within the bound of f32 summation, (K + 1) 2^-24
// sum_k |a_ik b_kj|, plus the final rounding to f16 or bf16 (half an ulp,
// relative); a NaN or an infinity in the reference must come out the same.
//
// The ctest rows run small shapes on the CPU; the GPU shapes are
// 1000 x 1000 x 1000, 4096 x 4096 x 4096 and the odd 3001 x 517 x 2049 (on
// 2 host cores, the kernel and the float64 check take 3 s, minutes and 8 s).
//
//===----------------------------------------------------------------------===//

#include "examples/common/matmul_check.h"
#include "examples/kernels/matmul.h"
#include "examples/kernels/matmul_configs.h"

#include "ktc/Autotune.h"

#include <memory>
#include <tuple>

using namespace ktc;

namespace {
namespace cl = llvm::cl;
using Int32 = example::Int<INT32_MIN, INT32_MAX>;
using Size = example::Int<1, INT32_MAX>;
cl::OptionCategory category("matmul flags");
namespace flag {
example::DeviceFlag common(category);
example::KernelFlags kernelFlags(category);
cl::opt<long long, false, Size> m("m", cl::desc("A's rows, M (default 512)"),
                                  cl::init(512), cl::cat(category));
cl::opt<long long, false, Size> n("n", cl::desc("B's columns, N (default 512)"),
                                  cl::init(512), cl::cat(category));
cl::opt<long long, false, Size>
    k("k", cl::desc("A's columns and B's rows, K (default 512)"),
      cl::init(512), cl::cat(category));
cl::opt<std::string> dtype("dtype",
                           cl::desc("The inputs' and the output's type "
                                    "(default f16)"),
                           cl::value_desc("f16|bf16"), cl::init("f16"),
                           cl::cat(category));
cl::opt<std::string>
    activation("activation",
               cl::desc("The epilogue, fused before the output is rounded "
                        "(default none)"),
               cl::value_desc("none|leaky_relu"), cl::init("none"),
               cl::cat(category));
cl::opt<bool> transA("trans-a",
                     cl::desc("Store A column-major (stride_am = 1)"),
                     cl::cat(category));
cl::opt<bool> transB("trans-b",
                     cl::desc("Store B column-major (stride_bn = K)"),
                     cl::cat(category));
cl::opt<bool> blockPtr("block-ptr",
                       cl::desc("Run the kernel written with block pointers "
                                "(matmul_block_ptr)"),
                       cl::cat(category));
cl::opt<bool> specials("specials",
                       cl::desc("Put NaNs and infinities among the inputs"),
                       cl::cat(category));
cl::opt<long long, false, Int32>
    blockM("block-m", cl::desc("BLOCK_M, a power of two (default 128)"),
           cl::init(seeds::kMatmulBlockM), cl::cat(category));
cl::opt<long long, false, Int32>
    blockN("block-n", cl::desc("BLOCK_N, a power of two (default 64)"),
           cl::init(seeds::kMatmulBlockN), cl::cat(category));
cl::opt<long long, false, Int32>
    blockK("block-k", cl::desc("BLOCK_K, a power of two (default 32)"),
           cl::init(seeds::kMatmulBlockK), cl::cat(category));
cl::opt<long long, false, Int32>
    groupM("group-m", cl::desc("GROUP_M, tile rows a group (default 8)"),
           cl::init(seeds::kMatmulGroupM), cl::cat(category));
cl::opt<long long, false, Int32>
    warps("warps", cl::desc("Waves per program (default 4)"),
          cl::init(seeds::kMatmulWarps), cl::cat(category));
cl::opt<long long, false, Int32>
    stages("stages", cl::desc("Pipeline stages, num_stages (default 4)"),
           cl::init(seeds::kMatmulStages), cl::cat(category));
cl::opt<bool> autotune("autotune",
                       cl::desc("Launch the fastest of the tutorial's configs "
                                "for the device\n(the --block-*, --group-m, "
                                "--warps and --stages flags are for --emit\n"
                                "and --info then)"),
                       cl::cat(category));
cl::opt<bool> quick("quick",
                    cl::desc("--autotune: time each config briefly (for "
                             "tests)"),
                    cl::cat(category));
cl::opt<long long, false, example::Int<>>
    seed("seed", cl::desc("Random seed (default 0)"), cl::init(0),
         cl::cat(category));
} // namespace flag

/// The flags' values, copied once parsed: lld resets every cl::opt when it
/// links a gfx kernel.
struct Flags {
  std::string device = flag::common.device, emit = flag::kernelFlags.emit,
              target = flag::kernelFlags.target, out = flag::kernelFlags.out,
              dtype = flag::dtype, activation = flag::activation;
  int64_t M = flag::m, N = flag::n, K = flag::k;
  uint64_t seed = flag::seed;
  int blockM = flag::blockM, blockN = flag::blockN, blockK = flag::blockK,
      groupM = flag::groupM, warps = flag::warps, stages = flag::stages;
  bool info = flag::kernelFlags.info, bench = flag::kernelFlags.bench,
       transA = flag::transA, transB = flag::transB,
       blockPtr = flag::blockPtr,
       specials = flag::specials, autotune = flag::autotune,
       quick = flag::quick;
};

template <typename T> int run(const Flags &flags) {
  using F = example::Format<T>;
  const int64_t M = flags.M, N = flags.N, K = flags.K;
  const int act = flags.activation == "leaky_relu" ? seeds::kMatmulLeakyRelu
                                                   : seeds::kMatmulNone;
  const int BM = flags.blockM, BN = flags.blockN, BK = flags.blockK,
            GM = flags.groupM;
  const Options options{.num_warps = flags.warps, .num_stages = flags.stages};
  auto kernel = Kernel(flags.blockPtr ? "matmul_block_ptr" : "matmul",
                       seeds::matmulParamNames(),
                       flags.blockPtr ? seeds::matmul_block_ptr<T>
                                      : seeds::matmul<T>);
  // A is M x K, B is K x N, logically; each stored row- or column-major.
  const example::Strides sa = flags.transA ? example::Strides{1, M}
                                           : example::Strides{K, 1};
  const example::Strides sb = flags.transB ? example::Strides{1, K}
                                           : example::Strides{N, 1};
  // --info and --emit show the code the launch below runs: specialised for
  // these sizes and strides (a stride of 1 folded, multiples of 16 known),
  // with buffers as every device allocates them.
  const AnyBuffer<T> any;
  if (flags.info) {
    example::printInfo(
        kernel.info_as_launched(flags.target, any, any, any, M, N, K, sa.rows,
                                sa.cols, sb.rows, sb.cols, N, 1, BM, BN, BK,
                                GM, act, options),
        flags.target);
    return 0;
  }
  if (!flags.emit.empty())
    return example::writeOut(
        flags.out,
        kernel.emit_as_launched(flags.emit, flags.target, any, any, any, M, N,
                                K, sa.rows, sa.cols, sb.rows, sb.cols, N, 1,
                                BM, BN, BK, GM, act, options));
  std::vector<T> ha = example::randomMatrix<T>(M * K, flags.seed);
  std::vector<T> hb = example::randomMatrix<T>(K * N, flags.seed + 1);
  if (flags.specials) { // NaNs and infinities, at random places
    std::mt19937_64 gen(flags.seed + 2);
    for (int i = 0; i < 6; ++i) {
      ha[gen() % ha.size()] = example::special<T>(i);
      hb[gen() % hb.size()] = example::special<T>(i + 1);
    }
  }

  Device &device = Device::get(flags.device);
  Buffer<T> a(device, ha), b(device, hb);
  const int64_t kGuard = 1024;
  Buffer<T> c(device, std::vector<T>(M * N + kGuard, T{F::poison}));
  std::function<void()> launch;
  std::string config;
  if (flags.autotune) {
    AutotuneOptions tuning;
    if (flags.quick)
      tuning.bench = {.warmup_ms = 1, .rep_ms = 5, .flush_bytes = 1 << 20};
    // Shared by the launch and the line below: it remembers the best config.
    auto tuner = Autotuner(kernel, seeds::matmulAutotuneConfigs(device.kind()),
                           {"M", "N", "K"}, tuning);
    auto tuned = std::make_shared<decltype(tuner)>(std::move(tuner));
    launch = [=, &a, &b, &c] {
      tuned->launch(
          [&](const Config &cf) {
            return Grid(cdiv(M, cf["BLOCK_M"]) * cdiv(N, cf["BLOCK_N"]));
          },
          a, b, c, M, N, K, sa.rows, sa.cols, sb.rows, sb.cols, N, 1, act);
    };
    launch();
    config = "autotuned: " + tuned->best().str();
  } else {
    launch = [&] {
      kernel.launch(Grid(cdiv(M, BM) * cdiv(N, BN)), a, b, c, M, N, K, sa.rows,
                    sa.cols, sb.rows, sb.cols, N, 1, BM, BN, BK, GM, act,
                    options);
    };
    launch();
    config = "BLOCK " + std::to_string(BM) + "x" + std::to_string(BN) + "x" +
             std::to_string(BK) + ", GROUP_M " + std::to_string(GM) + ", " +
             std::to_string(options.num_warps) + " warps, " +
             std::to_string(options.num_stages) + " stages";
  }
  device.synchronize();
  std::vector<T> got = c.to_host();
  std::printf("matmul: %lld x %lld x %lld %s%s%s%s%s, %s, on %s\n",
              (long long)M, (long long)N, (long long)K, F::name,
              act ? ", leaky_relu" : "", flags.transA ? ", A^T" : "",
              flags.transB ? ", B^T" : "",
              flags.blockPtr ? ", block pointers" : "", config.c_str(),
              device.name().c_str());
  std::fflush(stdout);
  example::MatmulCheck check =
      example::checkMatmul(ha, sa, hb, sb, got, M, N, K, act != 0);
  if (flags.bench) {
    bench::Result r = bench::do_bench(device, launch);
    std::printf("bench: %.4f ms median (p20 %.4f, p80 %.4f), %.4g TFLOPS\n",
                r.median_ms, r.p20_ms, r.p80_ms,
                2.0 * M * N * K / (r.median_ms * 1e9));
  }
  return example::reportMatmul(
      check, M * N, kGuard,
      "matmul " + std::to_string(M) + "x" + std::to_string(N) + "x" +
          std::to_string(K) + " " + F::name + (act ? " leaky_relu" : ""));
}
} // namespace

int main(int argc, char **argv) {
  example::parseFlags(argc, argv, category,
                      "matmul: Triton's tutorial matmul (f16/bf16, f32 "
                      "accumulation), checked against float64.\nThe GPU "
                      "shapes: 1000x1000x1000, 4096x4096x4096, "
                      "3001x517x2049\n");
  const Flags flags;
  try {
    if (flags.dtype != "f16" && flags.dtype != "bf16")
      example::fail("--dtype must be f16 or bf16, not '" + flags.dtype + "'");
    if (flags.activation != "none" && flags.activation != "leaky_relu")
      example::fail("--activation must be none or leaky_relu, not '" +
                    flags.activation + "'");
    for (auto [name, rows, cols] :
         {std::tuple{"--m x --k", flags.M, flags.K},
          std::tuple{"--k x --n", flags.K, flags.N},
          std::tuple{"--m x --n", flags.M, flags.N}})
      if (rows * cols >= (int64_t(1) << 31))
        example::fail(std::string(name) +
                      " must be fewer than 2^31 elements (got " +
                      std::to_string(rows) + " x " + std::to_string(cols) +
                      ")");
    for (auto [name, block] : {std::pair{"--block-m", flags.blockM},
                               std::pair{"--block-n", flags.blockN},
                               std::pair{"--block-k", flags.blockK}})
      if (block < 1 || block > 1024 || (block & (block - 1)))
        example::fail(std::string(name) +
                      " must be a power of two from 1 to 1024, got " +
                      std::to_string(block));
    if (flags.groupM < 1)
      example::fail("--group-m must be at least 1, got " +
                    std::to_string(flags.groupM));
    return flags.dtype == "f16" ? run<half>(flags) : run<bfloat16>(flags);
  } catch (const Error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
