//===- dropout - Triton's low-memory (seeded) dropout, checked exactly ----===//
//
// Triton's tutorial 04: instead of storing a dropout mask, each element's
// keep bit is drawn from (seed, offset) with rand (Philox, ktc/Random.h):
// keep = rand(seed, i) > p, out = keep ? x / (1 - p) : 0. The backward pass
// runs the same kernel on the gradient with the same seed, drawing the same
// mask again. The check: every keep bit against this file's own Philox
// (Triton 3.6's random.py written out in C++), every output against float64
// (x / (1 - p) rounded once to f32, or 0), the kept fraction within 5
// standard deviations of 1 - p, a different seed giving a different mask,
// and the poisoned (NaN) words after the outputs untouched.
//
//===----------------------------------------------------------------------===//

#include "examples/common/example.h"

#include <array>
#include <cstring>

using namespace ktc;

namespace {
namespace cl = llvm::cl;
cl::OptionCategory category("dropout flags");
namespace flag {
example::DeviceFlag common(category);
cl::opt<std::string> &device = common.device;
example::KernelFlags kernelFlags(category);
cl::opt<std::string> &emit = kernelFlags.emit, &target = kernelFlags.target,
                     &out = kernelFlags.out;
cl::opt<bool> &info = kernelFlags.info, &bench = kernelFlags.bench;
cl::opt<long long, false, example::Int<1, INT32_MAX>>
    size("size", cl::desc("Elements (default 98432)"), cl::init(98432),
         cl::cat(category));
cl::opt<double> p("p", cl::desc("Probability of dropping (0 to 1, default 0.5)"),
                  cl::init(0.5), cl::cat(category));
cl::opt<long long, false, example::Int<INT32_MIN, INT32_MAX>>
    dropoutSeed("dropout-seed",
                cl::desc("The Philox seed of the mask (default 123)"),
                cl::init(123), cl::cat(category));
cl::opt<long long, false, example::Int<INT32_MIN, INT32_MAX>>
    block("block", cl::desc("BLOCK_SIZE, a power of two (default 1024)"),
          cl::init(1024), cl::cat(category));
cl::opt<long long, false, example::Int<INT32_MIN, INT32_MAX>>
    warps("warps", cl::desc("Waves per program (default 4)"), cl::init(4),
          cl::cat(category));
cl::opt<long long, false, example::Int<>>
    seed("seed", cl::desc("Random seed of the data (default 0)"),
         cl::init(0), cl::cat(category));
} // namespace flag

/// The flags' values, copied once parsed: lld resets every cl::opt when it
/// links a gfx kernel.
struct Flags {
  std::string device = flag::device, emit = flag::emit, target = flag::target,
              out = flag::out;
  int64_t size = flag::size;
  uint64_t seed = flag::seed;
  double p = flag::p;
  int32_t dropoutSeed = int32_t(flag::dropoutSeed);
  int block = flag::block, warps = flag::warps;
  bool bench = flag::bench, info = flag::info;
};

/// out[i] = rand(seed, i) > p ? x[i] / (1 - p) : 0 (Triton's
/// _seeded_dropout).
void seededDropout(Ptr<float> x, Ptr<float> out, Int n, Float p, Int seed,
                   int BLOCK) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  auto v = load(x + offs, mask);
  auto keep = rand(seed, offs) > p;
  store(out + offs, where(keep, v / (1 - p), 0.0f), mask);
}

/// Philox 4x32-10's first word for (seed, offset) as Triton computes it.
uint32_t philoxFirst(int32_t seed, int32_t offset) {
  uint64_t key = uint64_t(int64_t(seed)); // sign-extended
  uint32_t k0 = uint32_t(key), k1 = uint32_t(key >> 32);
  std::array<uint32_t, 4> c = {uint32_t(offset), 0, 0, 0};
  for (int r = 0; r < 10; ++r) {
    uint64_t p0 = uint64_t(0xD2511F53u) * c[0];
    uint64_t p2 = uint64_t(0xCD9E8D57u) * c[2];
    c = {uint32_t(p2 >> 32) ^ c[1] ^ k0, uint32_t(p2),
         uint32_t(p0 >> 32) ^ c[3] ^ k1, uint32_t(p0)};
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return c[0];
}

/// Triton's uint_to_uniform_float, in f32 as Triton rounds it.
float uniform(uint32_t bits) {
  int32_t x = int32_t(bits);
  return float(x < 0 ? ~x : x) * float(4.6566127342e-10);
}

/// Checks out against x: the mask, the values (float64), the tail. Returns
/// the number of bad elements (printing the first few) and counts the kept.
size_t check(const char *what, const std::vector<float> &x,
             const std::vector<float> &got, int64_t n, float p, int32_t seed,
             int64_t &kept) {
  size_t bad = 0;
  kept = 0;
  double scale = double(1.0f - p); // 1 - p is rounded to f32 in the kernel
  for (int64_t i = 0; i < n; ++i) {
    bool keep = uniform(philoxFirst(seed, int32_t(i))) > p;
    kept += keep;
    float want = keep ? float(double(x[i]) / scale) : 0.0f;
    if (std::memcmp(&got[i], &want, sizeof(float)) != 0 && bad++ < 5)
      std::printf("%s %lld: %.9g, want %.9g (%s)\n", what, (long long)i,
                  got[i], want, keep ? "kept" : "dropped");
  }
  for (size_t i = n; i < got.size(); ++i)
    if (!std::isnan(got[i]) && bad++ < 5)
      std::printf("%s guard %zu written: %g\n", what, i, got[i]);
  return bad;
}
} // namespace

int main(int argc, char **argv) {
  example::parseFlags(argc, argv, category,
                      "dropout: Triton's seeded dropout, checked exactly\n");
  const Flags flags;
  if (!(flags.p >= 0 && flags.p <= 1))
  {
    char text[64];
    std::snprintf(text, sizeof text, "%g", flags.p);
    example::fail(std::string("--p must be from 0 to 1, got ") + text);
  }
  try {
    auto kernel = Kernel("seeded_dropout",
                         {"x", "output", "n_elements", "p", "seed",
                          "BLOCK_SIZE"},
                         seededDropout);
    Options options{.num_warps = flags.warps};
    if (flags.info) {
      example::printInfo(kernel.info(flags.target, flags.block, options),
                         flags.target);
      return 0;
    }
    if (!flags.emit.empty())
      return example::writeOut(
          flags.out, kernel.emit(flags.emit, flags.target, flags.block,
                                 options));

    int64_t n = flags.size;
    float p = float(flags.p);
    Device &device = Device::get(flags.device);
    std::vector<float> hx = example::randomVector(n, flags.seed);
    std::vector<float> hdy = example::randomVector(n, flags.seed + 1);
    std::vector<float> poison(n + 3, NAN);
    Buffer<float> x(device, hx), dy(device, hdy);
    Buffer<float> y(device, poison), dx(device, poison),
        other(device, poison);
    auto run = [&](Buffer<float> &in, Buffer<float> &o, int32_t s) {
      kernel.launch({unsigned(cdiv(n, flags.block))}, in, o, int32_t(n), p, s,
                    flags.block, options);
    };
    run(x, y, flags.dropoutSeed);  // forward
    run(dy, dx, flags.dropoutSeed); // backward: the same mask, drawn again
    run(x, other, flags.dropoutSeed ^ 0x5bd1e995); // another seed
    device.synchronize();
    std::printf("dropout: %lld elements, p %g, seed %d, BLOCK %d, %d warps, "
                "on %s\n",
                (long long)n, flags.p, flags.dropoutSeed, flags.block,
                options.num_warps, device.name().c_str());
    if (flags.bench) {
      Buffer<float> scratch(device, poison);
      example::printBench(device, [&] { run(x, scratch, flags.dropoutSeed); },
                          8.0 * n);
    }
    int64_t kept = 0, keptBwd = 0, keptOther = 0;
    size_t bad = check("forward", hx, y.to_host(), n, p, flags.dropoutSeed,
                       kept);
    bad += check("backward", hdy, dx.to_host(), n, p, flags.dropoutSeed,
                 keptBwd);
    int32_t otherSeed = flags.dropoutSeed ^ 0x5bd1e995;
    bad += check("other seed", hx, other.to_host(), n, p, otherSeed,
                 keptOther);
    // The kept fraction: binomial(n, 1 - p) within 5 standard deviations
    // (the reference's own count, so this checks Philox's uniformity).
    double mean = double(n) * (1 - flags.p);
    double sd = std::sqrt(double(n) * flags.p * (1 - flags.p));
    bool fractionOk = std::abs(double(kept) - mean) <= 5 * sd + 1;
    // Another seed gives another mask (unless nothing is random: p 0 or 1).
    size_t differ = 0;
    for (int64_t i = 0; i < n; ++i)
      differ += (uniform(philoxFirst(flags.dropoutSeed, int32_t(i))) > p) !=
                (uniform(philoxFirst(otherSeed, int32_t(i))) > p);
    bool seedsDiffer = differ > 0 || n < 64 || sd < 1;
    char pText[32];
    std::snprintf(pText, sizeof pText, "%g", flags.p);
    std::string what = "dropout size=" + std::to_string(n) + " p=" + pText;
    if (bad || !fractionOk || !seedsDiffer) {
      std::printf("FAIL %s: %zu elements off, kept %lld (expected %.1f +- "
                  "%.1f), %zu mask bits differ between seeds\n",
                  what.c_str(), bad, (long long)kept, mean, 5 * sd, differ);
      return 1;
    }
    std::printf("PASS %s: masks exact (forward = backward), kept %lld of "
                "%lld (expected %.1f +- %.1f)\n",
                what.c_str(), (long long)kept, (long long)n, mean, 5 * sd);
    return 0;
  } catch (const Error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
