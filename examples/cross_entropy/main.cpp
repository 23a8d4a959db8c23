//===- cross_entropy - per-row cross-entropy loss, checked against float64 ===//
//
// loss[r] = logsumexp(x[r]) - x[r][target[r]] of M x N logits (f32 or f16),
// 0 where target[r] == ignore_index, and the mean over the rows not
// ignored (examples/kernels/cross_entropy.h); --backward also checks dx =
// softmax(x) - onehot(target) (0 on ignored rows). Outputs start poisoned
// (NaN) and are checked against float64 from the same logits. Every fifth
// row (4, 9, ...) has the target ignore_index.
//
// --specials: row 0 is -inf but one finite logit and its target is
// another column (loss +inf), row 1 the same with the target at the finite
// logit (loss 0), row 2 a thousand times larger logits, row 3's target is
// ignore_index (loss 0, not counted in the mean), row 5 all -inf (loss
// NaN), row 6's target N, out of range (loss NaN; its dx the softmax
// alone). --all-ignored: every target is ignore_index, every loss 0, and
// the mean 0 / 0 = NaN (torch's mean reduction gives NaN too). Where the
// reference is +inf or NaN the result must be the same.
//
// --emit and --info show the kernel (--kernel: forward, backward or mean)
// a launch with the same --m, --n and --dtype runs.
//
//===----------------------------------------------------------------------===//

#include "examples/common/example.h"
#include "examples/kernels/cross_entropy.h"
#include "examples/common/f16.h"
#include "examples/common/tolerance.h"

using namespace ktc;

namespace {
namespace cl = llvm::cl;
using Int32 = example::Int<0, INT32_MAX>;
cl::OptionCategory category("cross_entropy flags");
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
    n("n", cl::desc("Classes, the columns (default 781)"), cl::init(781),
      cl::cat(category));
cl::opt<std::string> dtype("dtype", cl::desc("Logits' type (default f32)"),
                           cl::value_desc("f32|f16"), cl::init("f32"),
                           cl::cat(category));
cl::opt<long long, false, Int32> blockM(
    "block-m", cl::desc("Rows per program (0, default: by N)"), cl::init(0),
    cl::cat(category));
cl::opt<long long, false, Int32> blockN(
    "block-n", cl::desc("Columns per chunk (0, default: next_pow2(N) up to "
                        "8192, else\n4096); N <= BLOCK_N reads a row once"),
    cl::init(0), cl::cat(category));
cl::opt<long long, false, Int32>
    warps("warps", cl::desc("Waves per program (0, default: by N)"),
          cl::init(0), cl::cat(category));
cl::opt<long long, false, example::Int<INT32_MIN, INT32_MAX>>
    ignoreIndex("ignore-index", cl::desc("The target to ignore (default -100)"),
                cl::init(-100), cl::cat(category));
cl::opt<std::string> kernel(
    "kernel", cl::desc("The kernel --emit and --info show (default forward)"),
    cl::value_desc("forward|backward|mean"), cl::init("forward"),
    cl::cat(category));
cl::opt<bool> backward("backward", cl::desc("Also run and check dx"),
                       cl::cat(category));
cl::opt<bool> specials("specials",
                       cl::desc("Rows of -inf but one, x1000, an ignored "
                                "target"),
                       cl::cat(category));
cl::opt<bool> allIgnored("all-ignored",
                         cl::desc("Every target is --ignore-index"),
                         cl::cat(category));
cl::opt<long long, false, example::Int<>>
    seed("seed", cl::desc("Random seed (default 0)"), cl::init(0),
         cl::cat(category));
} // namespace flag

struct Flags {
  std::string device = flag::device, emit = flag::emit, target = flag::target,
              out = flag::out, dtype = flag::dtype, kernel = flag::kernel;
  int64_t m = flag::m, n = flag::n;
  uint64_t seed = flag::seed;
  int blockM = flag::blockM, blockN = flag::blockN, warps = flag::warps,
      ignoreIndex = int(flag::ignoreIndex);
  bool info = flag::info, bench = flag::bench, backward = flag::backward,
       specials = flag::specials, allIgnored = flag::allIgnored;
};

/// The logits as doubles (exactly the values the kernel reads) and targets.
struct Inputs {
  std::vector<double> x;
  std::vector<int32_t> t;
};
Inputs makeInputs(const Flags &f) {
  std::mt19937_64 gen(f.seed);
  std::normal_distribution<double> dist(0, 4);
  Inputs in{std::vector<double>(f.m * f.n), std::vector<int32_t>(f.m)};
  for (double &v : in.x)
    v = dist(gen);
  // Every fifth row (from row 4) ignored, so the mean leaves rows out.
  for (int64_t r = 0; r < f.m; ++r)
    in.t[r] = r % 5 == 4 ? f.ignoreIndex : int32_t(gen() % uint64_t(f.n));
  int64_t n = f.n;
  if (f.specials) {
    for (int64_t r = 0; r < std::min<int64_t>(2, f.m); ++r) {
      for (int64_t c = 0; c < n; ++c)
        in.x[r * n + c] = c == n / 3 ? in.x[r * n + c] : -INFINITY;
      in.t[r] = r == 1 || n == 1 ? int32_t(n / 3) : int32_t((n / 3 + 1) % n);
    }
    for (int64_t c = 0; f.m > 2 && c < n; ++c)
      in.x[2 * n + c] *= 1000;
    if (f.m > 3)
      in.t[3] = f.ignoreIndex;
    for (int64_t c = 0; f.m > 5 && c < n; ++c)
      in.x[5 * n + c] = -INFINITY;
    if (f.m > 6)
      in.t[6] = int32_t(n) == f.ignoreIndex ? int32_t(n) + 1 : int32_t(n);
  }
  if (f.allIgnored)
    std::fill(in.t.begin(), in.t.end(), f.ignoreIndex);
  if (f.dtype == "f16") // what the kernel reads
    for (double &v : in.x)
      v = example::f16::toDouble(example::f16::toHalf(v));
  return in;
}

/// Checks against float64 (examples/common/tolerance.h), infinities exact.
using example::Counter;

template <typename T> int run(const Flags &f) {
  int64_t m = f.m, n = f.n;
  cross_entropy::Config cfg = cross_entropy::defaultConfig(n);
  if (f.blockN > 0) {
    if (f.blockN & (f.blockN - 1))
      example::fail("--block-n must be a power of two, got " +
                    std::to_string(f.blockN));
    cfg.block_n = f.blockN;
    cfg.one_pass = n <= f.blockN;
    if (!cfg.one_pass)
      cfg.block_m = 1;
  }
  if (f.blockM > 0)
    cfg.block_m = f.blockM;
  if (f.warps > 0)
    cfg.num_warps = f.warps;
  Options options{.num_warps = cfg.num_warps};
  auto fwd = Kernel("cross_entropy_fwd", cross_entropy::forward<T>);
  const AnyBuffer<T> anyX;
  const AnyBuffer<int32_t> anyT;
  const AnyBuffer<float> anyL;
  auto meanK = Kernel("cross_entropy_mean", cross_entropy::mean_loss);
  auto bwd = Kernel("cross_entropy_bwd", cross_entropy::backward<T>);
  const Options bwdOptions{.num_warps = std::min(cfg.num_warps, 8)};
  // --info and --emit: the --kernel a launch with these --m and --n runs.
  auto asLaunched = [&](auto emitOrInfo) {
    if (f.kernel == "backward")
      return emitOrInfo(bwd, anyX, anyT, anyX, n, n, f.ignoreIndex, 1.0f,
                        cfg.block_n, cfg.one_pass, bwdOptions);
    if (f.kernel == "mean")
      return emitOrInfo(meanK, anyL, anyT, anyL, m, f.ignoreIndex, 1024,
                        Options{});
    return emitOrInfo(fwd, anyX, anyT, anyL, n, m, n, f.ignoreIndex,
                      cfg.block_m, cfg.block_n, cfg.one_pass, options);
  };
  if (f.kernel != "forward" && f.kernel != "backward" && f.kernel != "mean")
    example::fail("--kernel must be forward, backward or mean, not '" +
                  f.kernel + "'");
  if (f.info) {
    example::printInfo(asLaunched([&](const auto &kernel, const auto &...args) {
                         return kernel.info_as_launched(f.target, args...);
                       }),
                       f.target);
    return 0;
  }
  if (!f.emit.empty())
    return example::writeOut(
        f.out, asLaunched([&](const auto &kernel, const auto &...args) {
          return kernel.emit_as_launched(f.emit, f.target, args...);
        }));

  Device &device = Device::get(f.device);
  Inputs in = makeInputs(f);
  std::vector<T> hx(in.x.size());
  for (size_t i = 0; i < hx.size(); ++i) {
    if constexpr (std::is_same_v<T, half>)
      hx[i] = example::f16::toHalf(in.x[i]);
    else
      hx[i] = float(in.x[i]);
  }
  Buffer<T> x(device, hx);
  Buffer<int32_t> t(device, in.t);
  Buffer<float> loss(device, std::vector<float>(m, NAN)),
      mean(device, std::vector<float>{NAN});
  auto launch = [&] {
    fwd.launch({cdiv(m, cfg.block_m)}, x, t, loss, n, m, n, f.ignoreIndex,
               cfg.block_m, cfg.block_n, cfg.one_pass, options);
  };
  launch();
  meanK.launch({1}, loss, t, mean, m, f.ignoreIndex, 1024);
  device.synchronize();
  std::printf("cross_entropy: %lld x %lld %s, BLOCK_M %d, BLOCK_N %d, %s, %d "
              "warps, on %s\n",
              (long long)m, (long long)n, f.dtype.c_str(), cfg.block_m,
              cfg.block_n, cfg.one_pass ? "one pass" : "online", cfg.num_warps,
              device.name().c_str());
  if (f.bench) // logits and targets read, losses written
    example::printBench(device, launch, double(m) * n * sizeof(T) + 8.0 * m);

  // float64: loss = m + log(sum exp(x - m)) - x[t]; the bound scales with
  // |lse| and |x[t]| (f32 rounding) and with N (the f32 sum: N - 1
  // roundings of 2^-24 at most, relative to a sum of positive terms; each
  // term's exponential within a few 2^-24).
  std::vector<float> gotLoss = loss.to_host();
  Counter cl{"loss", true}, cm{"mean", true}, cd{"dx", true};
  double total = 0;
  int64_t count = 0;
  std::vector<double> lse(m);
  for (int64_t r = 0; r < m; ++r) {
    const double *row = &in.x[r * n];
    double mx = -INFINITY, s = 0;
    for (int64_t c = 0; c < n; ++c)
      mx = std::max(mx, row[c]);
    for (int64_t c = 0; c < n; ++c)
      s += std::isinf(row[c]) && row[c] < 0 ? 0 : std::exp(row[c] - mx);
    lse[r] = mx + std::log(s);
    int32_t tr = in.t[r];
    bool ignored = tr == f.ignoreIndex;
    double want = ignored ? 0 : tr < 0 || tr >= n ? NAN : lse[r] - row[tr];
    double xt = ignored || tr < 0 || tr >= n ? 0 : row[tr];
    cl(r, gotLoss[r], want,
       std::fabs(want) + std::fabs(lse[r]) + std::fabs(xt) + 1,
       1e-6 + double(n + 8) * 0x1p-24);
    if (!ignored) {
      total += want;
      ++count;
    }
  }
  double meanWant = total / double(count); // 0 / 0 = NaN: all ignored
  cm(0, mean.to_host()[0], meanWant, std::fabs(meanWant) + 1,
     1e-6 + double(n + m + 8) * 0x1p-24);
  int bad = cl.done() + cm.done();
  std::string what = "cross_entropy " + f.dtype + " " + std::to_string(m) +
                     "x" + std::to_string(n);
  if (f.backward) {
    std::vector<T> poison(m * n);
    for (T &p : poison) {
      if constexpr (std::is_same_v<T, half>)
        p = example::f16::kPoison;
      else
        p = NAN;
    }
    Buffer<T> dx(device, poison);
    bwd.launch({m}, x, t, dx, n, n, f.ignoreIndex, 1.0f, cfg.block_n,
               cfg.one_pass, bwdOptions);
    device.synchronize();
    std::vector<T> got = dx.to_host();
    // f16 output: half an ulp on top (2^-11 relative, plus 2^-25 absolute
    // for subnormals).
    double tol = 1e-6 + double(n + 8) * 0x1p-24 +
                 (std::is_same_v<T, half> ? 0x1p-11 : 0);
    for (int64_t r = 0; r < m; ++r)
      for (int64_t c = 0; c < n; ++c) {
        int64_t i = r * n + c;
        bool ignored = in.t[r] == f.ignoreIndex;
        double p = std::exp(in.x[i] - lse[r]);
        double want = ignored ? 0 : p - (c == in.t[r] ? 1 : 0);
        double g;
        if constexpr (std::is_same_v<T, half>)
          g = example::f16::toDouble(got[i]);
        else
          g = got[i];
        cd(i, g, want, std::fabs(want) + p + 0x1p-14, tol);
      }
    bad += cd.done();
    what += " with dx";
  }
  if (bad) {
    std::printf("FAIL %s: %d values off\n", what.c_str(), bad);
    return 1;
  }
  std::printf("PASS %s\n", what.c_str());
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  example::parseFlags(argc, argv, category,
                      "cross_entropy: per-row cross-entropy loss with "
                      "ignore_index and its mean, checked against float64\n");
  const Flags flags;
  try {
    if (flags.m * flags.n > INT32_MAX)
      example::fail("--m and --n must have fewer than 2^31 elements in all");
    if (flags.dtype == "f32")
      return run<float>(flags);
    if (flags.dtype == "f16")
      return run<half>(flags);
    example::fail("--dtype must be f32 or f16, not '" + flags.dtype + "'");
  } catch (const Error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
