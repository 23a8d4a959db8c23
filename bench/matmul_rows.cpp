//===- matmul_rows.cpp - ktc-bench's matmul rows --------------------------===//
//
// Random operands, the autotuned launch, the sampled float64 check and the
// timing of examples/kernels/matmul.h (bench/matmul_rows.h) on each shape,
// in f16 and bf16.
//
//===----------------------------------------------------------------------===//

#include "bench/matmul_rows.h"
#include "examples/kernels/matmul.h"
#include "examples/kernels/matmul_configs.h"

#include "ktc/Autotune.h"

#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

namespace ktc::bench {
namespace {

float f32(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

/// Element types: random values exactly representable (k / 1024 for f16,
/// k / 128 for bf16, |k| below the scale: uniform in (-1, 1)), their float
/// values, and the rounding of the f32 result to the type (relative half
/// ulp, and the absolute one of its smallest subnormal).
struct F16 {
  using T = half;
  static constexpr const char *name = "matmul_f16";
  static T make(std::mt19937_64 &gen) {
    int k = int(gen() % 2047) - 1023;
    float v = std::ldexp(float(k), -10);
    if (k == 0)
      return T{0};
    uint32_t u = bitsOf(v);
    uint32_t exp = ((u >> 23) & 255) - 112, man = (u >> 13) & 1023;
    return T{uint16_t((u >> 31) << 15 | exp << 10 | man)};
  }
  static float value(T h) {
    uint32_t sign = uint32_t(h.bits >> 15) << 31, exp = (h.bits >> 10) & 31,
             man = h.bits & 1023;
    if (exp == 0) {
      float v = std::ldexp(float(man), -24);
      return sign ? -v : v;
    }
    if (exp == 31)
      return f32(sign | 0x7f800000 | man << 13);
    return f32(sign | (exp + 112) << 23 | man << 13);
  }
  static constexpr int precision = 11;     // round to nearest: 2^-11
  static constexpr double tiny = 0x1p-25;  // half the smallest subnormal
  static constexpr uint16_t poison = 0x7e5a; // a NaN
};

struct BF16 {
  using T = bfloat16;
  static constexpr const char *name = "matmul_bf16";
  static T make(std::mt19937_64 &gen) {
    int k = int(gen() % 255) - 127;
    return T{uint16_t(bitsOf(std::ldexp(float(k), -7)) >> 16)};
  }
  static float value(T b) { return f32(uint32_t(b.bits) << 16); }
  static constexpr int precision = 8;
  static constexpr double tiny = 0x1p-134;
  static constexpr uint16_t poison = 0x7fda;
};

template <typename E>
void runShape(Device &device, const Options &options, const MatmulShape &s,
              const std::function<void(const MatmulRow &)> &row,
              const std::function<void(const std::string &,
                                       const std::string &)> &fail) {
  using T = typename E::T;
  const std::string what = std::string(E::name) + "/" + std::to_string(s.M) +
                           "x" + std::to_string(s.N) + "x" +
                           std::to_string(s.K);
  std::mt19937_64 gen(uint64_t(s.M) * 1000003 + s.N * 101 + s.K);
  std::vector<T> ha(size_t(s.M * s.K)), hb(size_t(s.K * s.N));
  for (T &x : ha)
    x = E::make(gen);
  for (T &x : hb)
    x = E::make(gen);
  Buffer<T> a(device, ha), b(device, hb);
  Buffer<T> c(device, std::vector<T>(size_t(s.M * s.N), T{E::poison}));
  // One tuner per element type (and process: one device), keyed on the
  // shape; its choices are kept on disk with the kernel cache.
  static const auto tuner = [&] {
    AutotuneOptions tuning;
    tuning.bench = options;
    return Autotuner(
        Kernel("matmul", seeds::matmulParamNames(), seeds::matmul<T>),
        seeds::matmulAutotuneConfigs(device.kind()),
        {"M", "N", "K"}, tuning);
  }();
  auto run = [&] {
    tuner.launch(
        [&](const Config &cf) {
          return Grid(cdiv(s.M, cf["BLOCK_M"]) * cdiv(s.N, cf["BLOCK_N"]));
        },
        a, b, c, s.M, s.N, s.K, s.K, 1, s.N, 1, s.N, 1, seeds::kMatmulNone);
  };
  run(); // tunes this shape, then launches the best config
  const Config &best = tuner.best();
  MatmulConfig cfg{int(best.values.at("BLOCK_M")),
                   int(best.values.at("BLOCK_N")),
                   int(best.values.at("BLOCK_K")),
                   int(best.values.at("GROUP_M")), best.options.num_warps,
                   best.options.num_stages};
  device.synchronize();
  std::vector<T> got = c.to_host();

  // The four corners and 1024 random elements against float64.
  std::vector<std::pair<int64_t, int64_t>> at = {
      {0, 0}, {0, s.N - 1}, {s.M - 1, 0}, {s.M - 1, s.N - 1}};
  for (int i = 0; i < 1024; ++i)
    at.push_back({int64_t(gen() % s.M), int64_t(gen() % s.N)});
  double worst = 0;
  for (auto [i, j] : at) {
    double ref = 0, magnitude = 0;
    for (int64_t k = 0; k < s.K; ++k) {
      double p = double(E::value(ha[i * s.K + k])) * E::value(hb[k * s.N + j]);
      ref += p;
      magnitude += std::fabs(p);
    }
    // f32 summation of K products, then the rounding to T.
    double sum = (s.K + 1) * std::ldexp(magnitude, -24);
    double bound = sum + std::ldexp(std::fabs(ref) + sum, -E::precision) +
                   E::tiny;
    double g = E::value(got[i * s.N + j]);
    double error = std::fabs(g - ref) / bound;
    if (!(error <= 1)) { // NaN too: the poison left
      fail(what, "c[" + std::to_string(i) + ", " + std::to_string(j) +
                     "] = " + std::to_string(g) + ", float64 gives " +
                     std::to_string(ref) + " (bound " +
                     std::to_string(bound) + ")");
      return;
    }
    worst = std::max(worst, error);
  }
  MatmulRow r{E::name, s, cfg, do_bench(device, run, options), 0, worst};
  r.tflops = 2.0 * s.M * s.N * s.K / (r.time.median_ms * 1e-3) / 1e12;
  row(r);
}

} // namespace

void matmulRows(Device &device, const Options &options,
                const std::function<bool(const std::string &, int64_t,
                                         int64_t)> &wanted,
                const std::function<void(const MatmulRow &)> &row,
                const std::function<void(const std::string &,
                                         const std::string &)> &fail,
                const std::vector<MatmulShape> &shapes) {
  for (const MatmulShape &s : shapes) {
    auto one = [&](auto type, const char *name) {
      if (!wanted(name, s.M, s.N))
        return;
      try {
        runShape<decltype(type)>(device, options, s, row, fail);
      } catch (const std::exception &e) {
        fail(std::string(name) + "/" + std::to_string(s.M) + "x" +
                 std::to_string(s.N) + "x" + std::to_string(s.K),
             e.what());
      }
    };
    one(F16{}, F16::name);
    one(BF16{}, BF16::name);
  }
}

std::string describe(const MatmulRow &m) {
  char text[256];
  std::snprintf(text, sizeof text,
                "%-12s %5lldx%lldx%-5lld tile=%dx%dx%d warps=%d stages=%d "
                "ms=%.4f TFLOP/s=%.4g err/bound=%.2f",
                m.bench.c_str(), (long long)m.shape.M, (long long)m.shape.N,
                (long long)m.shape.K, m.config.blockM, m.config.blockN,
                m.config.blockK, m.config.warps, m.config.stages,
                m.time.median_ms, m.tflops, m.worst);
  return text;
}

std::optional<MatmulShape> parseShape(const std::string &text) {
  long long m = 0, n = 0, k = 0;
  char end = 0;
  if (std::sscanf(text.c_str(), "%lldx%lldx%lld%c", &m, &n, &k, &end) != 3)
    return std::nullopt;
  for (long long v : {m, n, k})
    if (v < 1 || v > INT32_MAX)
      return std::nullopt;
  return MatmulShape{m, n, k};
}

} // namespace ktc::bench
