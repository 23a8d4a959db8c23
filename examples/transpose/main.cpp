//===- transpose - a 2-D tiled transpose or copy, checked bit for bit -----===//
//
// Transposes a rows x cols float matrix with examples/kernels/transpose.h
// (--variant=copy: copies it tile by tile instead, the bandwidth
// reference). A transpose moves floats and computes nothing, so the check is
// exact, on bit patterns: the input holds NaNs with payloads (quiet and
// signalling), infinities, signed zeros, subnormals and the largest floats
// among random values, the output is poisoned first, and a guard after it
// must stay poisoned (a store past the end shows). --emit and --info show
// the code the launch with the same --rows and --cols runs
// (Kernel::emit_as_launched).
//
//===----------------------------------------------------------------------===//

#include "examples/common/example.h"
#include "examples/kernels/transpose.h"

#include <bit>
#include <cinttypes>

using namespace ktc;

namespace {
namespace cl = llvm::cl;
using Int32 = example::Int<INT32_MIN, INT32_MAX>;
cl::OptionCategory category("transpose flags");
namespace flag {
example::DeviceFlag common(category);
cl::opt<std::string> &device = common.device;
example::KernelFlags kernelFlags(category);
cl::opt<std::string> &emit = kernelFlags.emit, &target = kernelFlags.target,
                     &out = kernelFlags.out;
cl::opt<bool> &info = kernelFlags.info, &bench = kernelFlags.bench;
cl::opt<std::string>
    variant("variant",
            cl::desc("transpose: out (cols x rows) = in transposed;\n"
                     "copy: out (rows x cols) = in, the same tiles stored "
                     "in place\n(default transpose)"),
            cl::value_desc("transpose|copy"), cl::init("transpose"),
            cl::cat(category));
cl::opt<long long, false, example::Int<1, INT32_MAX>>
    rows("rows", cl::desc("The input's rows (default 1024)"), cl::init(1024),
         cl::cat(category));
cl::opt<long long, false, example::Int<1, INT32_MAX>>
    cols("cols", cl::desc("The input's columns (default 768)"), cl::init(768),
         cl::cat(category));
cl::opt<long long, false, Int32>
    blockM("block-m",
           cl::desc("BLOCK_M, the tile's rows, a power of two (default 64)"),
           cl::init(seeds::kTransposeBlockM), cl::cat(category));
cl::opt<long long, false, Int32>
    blockN("block-n",
           cl::desc("BLOCK_N, the tile's columns, a power of two (default "
                    "64)"),
           cl::init(seeds::kTransposeBlockN), cl::cat(category));
cl::opt<long long, false, Int32>
    warps("warps", cl::desc("Waves per program (default 4)"),
          cl::init(seeds::kTransposeWarps), cl::cat(category));
cl::opt<long long, false, example::Int<>>
    seed("seed", cl::desc("Random seed (default 0)"), cl::init(0),
         cl::cat(category));
} // namespace flag

/// The flags' values, copied once parsed: lld resets every cl::opt when it
/// links a gfx kernel.
struct Flags {
  std::string variant = flag::variant, device = flag::device, emit = flag::emit,
              target = flag::target, out = flag::out;
  int64_t rows = flag::rows, cols = flag::cols;
  uint64_t seed = flag::seed;
  int blockM = flag::blockM, blockN = flag::blockN, warps = flag::warps;
  bool info = flag::info, bench = flag::bench;
};

/// What the output holds before the kernel runs (a signalling NaN the
/// input never holds): an element still holding it was not written.
constexpr uint32_t kPoison = 0x7fbadbad;
/// Poisoned floats after the output, which no store may reach.
constexpr int64_t kGuard = 1024;

float fromBits(uint32_t bits) { return std::bit_cast<float>(bits); }
uint32_t bitsOf(float x) { return std::bit_cast<uint32_t>(x); }

/// rows x cols floats: the edge values first (as many as fit), then random
/// ones -- three in four uniform in [-4, 4), one in four any bit pattern
/// (NaN payloads, subnormals, huge values) -- never the poison.
std::vector<float> edgyInput(int64_t n, uint64_t seed) {
  const uint32_t edges[] = {
      0x7fc00000, 0xffc00000, 0x7fc12345, 0x7f800001, 0xff812345, // NaNs
      0x7f800000, 0xff800000,                                     // +-inf
      0x00000000, 0x80000000,                                     // +-0
      0x00000001, 0x807fffff, 0x00400000,                         // subnormal
      0x00800000, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000};
  std::vector<float> v = example::randomVector(n, seed);
  std::mt19937_64 gen(seed ^ 0x9e3779b97f4a7c15ull);
  for (int64_t i = 0; i < n; ++i) {
    uint32_t bits = bitsOf(v[i]);
    if (i < int64_t(std::size(edges)))
      bits = edges[i];
    else if (gen() % 4 == 0)
      bits = uint32_t(gen());
    v[i] = fromBits(bits == kPoison ? 0x7fc0dead : bits);
  }
  return v;
}

/// Compares `got` with `want` bit for bit, and the guard after them with
/// the poison; prints the first few differences and the last line.
int reportExact(const std::vector<float> &got, const std::vector<float> &want,
                int64_t outCols, const std::string &what) {
  int64_t bad = 0, guardBad = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    if (bitsOf(got[i]) == bitsOf(want[i]))
      continue;
    if (++bad <= 5)
      std::printf(
          "out[%lld][%lld]: got 0x%08" PRIx32 "%s, want 0x%08" PRIx32 "\n",
          (long long)(i / outCols), (long long)(i % outCols), bitsOf(got[i]),
          bitsOf(got[i]) == kPoison ? " (never written)" : "", bitsOf(want[i]));
  }
  for (size_t i = want.size(); i < got.size(); ++i)
    guardBad += bitsOf(got[i]) != kPoison;
  if (guardBad)
    std::printf("%lld of the %lld floats after the output were written\n",
                (long long)guardBad, (long long)kGuard);
  if (bad || guardBad) {
    std::printf("FAIL %s: %lld of %zu elements differ\n", what.c_str(),
                (long long)bad, want.size());
    return 1;
  }
  std::printf("PASS %s: %zu elements, bit for bit\n", what.c_str(),
              want.size());
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  example::parseFlags(argc, argv, category,
                      "transpose: a 2-D tiled transpose (or copy), checked "
                      "bit for bit\n");
  const Flags flags;
  try {
    const std::string &variant = flags.variant;
    const bool copy = variant == "copy";
    if (!copy && variant != "transpose")
      example::fail("--variant must be transpose or copy, not '" + variant +
                    "'");
    const int64_t M = flags.rows, N = flags.cols;
    if (M * N > INT32_MAX)
      example::fail("--rows x --cols must be fewer than 2^31 elements (got " +
                    std::to_string(M) + " x " + std::to_string(N) + ")");
    for (auto [name, block] : {std::pair{"--block-m", flags.blockM},
                               std::pair{"--block-n", flags.blockN}})
      if (block < 1 || block > 4096 || (block & (block - 1)))
        example::fail(std::string(name) +
                      " must be a power of two from 1 to 4096, got " +
                      std::to_string(block));
    const int BM = flags.blockM, BN = flags.blockN;
    Options options{.num_warps = flags.warps};

    const std::vector<std::string> names = {
        "out", "in", "M", "N", "in_stride", "out_stride", "BLOCK_M", "BLOCK_N"};
    auto transpose = Kernel("transpose", names, seeds::transpose);
    auto copy2d = Kernel("copy2d", names, seeds::copy2d);
    // out is N x M (transpose) or M x N (copy), row-major, packed.
    const int64_t outStride = copy ? N : M;
    // --info and --emit: the code the launch below runs (specialised for
    // --rows and --cols, buffers as devices allocate them).
    const AnyBuffer<float> any;
    if (flags.info) {
      example::printInfo(
          copy ? copy2d.info_as_launched(flags.target, any, any, M, N, N,
                                         outStride, BM, BN, options)
               : transpose.info_as_launched(flags.target, any, any, M, N, N,
                                            outStride, BM, BN, options),
          flags.target);
      return 0;
    }
    if (!flags.emit.empty())
      return example::writeOut(
          flags.out,
          copy ? copy2d.emit_as_launched(flags.emit, flags.target, any, any,
                                         M, N, N, outStride, BM, BN, options)
               : transpose.emit_as_launched(flags.emit, flags.target, any,
                                            any, M, N, N, outStride, BM, BN,
                                            options));

    Device &device = Device::get(flags.device);
    std::vector<float> hin = edgyInput(M * N, flags.seed);
    Buffer<float> in(device, hin);
    Buffer<float> out(device,
                      std::vector<float>(M * N + kGuard, fromBits(kPoison)));
    const Grid grid(cdiv(M, BM), cdiv(N, BN));
    auto run = [&] {
      if (copy)
        copy2d.launch(grid, out, in, M, N, N, outStride, BM, BN, options);
      else
        transpose.launch(grid, out, in, M, N, N, outStride, BM, BN, options);
    };
    run();
    device.synchronize();
    std::vector<float> got = out.to_host();

    std::vector<float> want(M * N);
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n)
        want[copy ? m * N + n : n * M + m] = hin[m * N + n];
    std::printf("%s: %lld x %lld, BLOCK %d x %d, %d warps, %lld x %lld "
                "programs, on %s\n",
                variant.c_str(), (long long)M, (long long)N, BM, BN,
                options.num_warps, (long long)grid.x, (long long)grid.y,
                device.name().c_str());
    if (flags.bench)
      example::printBench(device, run, 8.0 * M * N);
    return reportExact(got, want, outStride,
                       variant + " " + std::to_string(M) + "x" +
                           std::to_string(N));
  } catch (const Error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
