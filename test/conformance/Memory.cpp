//===- Memory.cpp - loads, where and reductions in the catalogue ----------===//
//
// Loads with `other` (a masked-off lane reads nothing and takes `other`)
// and `where` on every element type, bit for bit; max/min/sum reductions
// of f32 rows and columns with NaN rows, all-equal rows, NaN columns.
//
//===----------------------------------------------------------------------===//

#include "Conformance.h"

#include <random>

namespace conformance {
namespace {

template <typename T> std::vector<T> inputsOf(uint32_t seed) {
  if constexpr (std::is_same_v<T, float>)
    return floatInputs(seed);
  else if constexpr (std::is_same_v<T, half>)
    return halfInputs(seed);
  else if constexpr (std::is_same_v<T, bfloat16>)
    return bf16Inputs(seed);
  else if constexpr (std::is_same_v<T, int32_t>)
    return intInputs(seed);
  else
    return int64Inputs(seed);
}

template <typename T> const char *typeName() {
  if constexpr (std::is_same_v<T, float>)
    return "f32";
  else if constexpr (std::is_same_v<T, half>)
    return "f16";
  else if constexpr (std::is_same_v<T, bfloat16>)
    return "bf16";
  else if constexpr (std::is_same_v<T, int32_t>)
    return "i32";
  else
    return "i64";
}

/// A row whose every element must be `want(i)`'s bits exactly.
template <typename T, typename K>
void bitsOp(Context &c, const std::string &id, const std::string &op,
            K &kernel, int arity, const std::function<T(size_t)> &want) {
  std::vector<T> x = inputsOf<T>(7), y = inputsOf<T>(8);
  std::reverse(y.begin(), y.end());
  size_t n = x.size();
  Row r = c.row(id, op, typeName<T>(), n);
  r.exact = true;
  c.entry({r}, kernel, [&] {
    T poison;
    std::memset(&poison, 0x5e, sizeof poison);
    auto [got, host] = runBoth<T>(c, n, poison, [&](Device &d, Buffer<T> &out) {
      Buffer<T> bx(d, x), by(d, y);
      if (arity == 1)
        kernel.launch({int(cdiv(n, BLOCK))}, bx, out, int(n));
      else
        kernel.launch({int(cdiv(n, BLOCK))}, bx, by, out, int(n));
    });
    int shown = 0;
    for (size_t i = 0; i < n; ++i) {
      T w = i % 4 ? x[i] : y[i];
      w = want ? want(i) : w;
      bool wrong = std::memcmp(&got[i], &w, sizeof(T)) != 0;
      if (wrong)
        r.maxUlp = INFINITY;
      if (wrong || hostDiffers(got, host, i))
        showElement(c, r, i, hex(x[i]) + " " + hex(y[i]), got[i], hex(w),
                    host, shown);
    }
    if (c.host)
      r.hostDiffs = bitDiffs(got, host);
    c.rows.push_back(r);
  });
}

template <typename T> T from(double v) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
    // -2.5 and 2^40 only: exact in both formats.
    int e = std::ilogb(v);
    uint16_t sign = v < 0 ? 0x8000 : 0;
    double frac = std::fabs(v) / std::ldexp(1.0, e) - 1;
    int fb = formatOf<T>().fraction, bias = std::is_same_v<T, half> ? 15 : 127;
    return T{uint16_t(sign | ((e + bias) << fb) | int(frac * (1 << fb)))};
  } else {
    return T(v);
  }
}

/// load(x, mask & (offs & 3) != 0, other) stored everywhere, and
/// where((offs & 3) != 0, x, y). (`offs % 3` would do as well, but its
/// v_mul_hi_i32 stops the gfx942 emulator.)
template <typename T> void rows(Context &c) {
  std::string s = typeName<T>();
  using Literal = std::conditional_t<std::is_integral_v<T>, int, float>;
  constexpr Literal OTHER = Literal(std::is_integral_v<T> ? -7.0 : -2.5);
  auto ld = Kernel("conf_load_other_" + s, [](Ptr<T> x, Ptr<T> out, Int n) {
    KTC_OFFS;
    store(out + offs, load(x + offs, mask & ((offs & 3) != 0), OTHER), mask);
  });
  std::vector<T> x = inputsOf<T>(7);
  bitsOp<T>(c, "conf_load_other_" + s, "load(x, mask, other)", ld, 1,
            [&](size_t i) { return i % 4 ? x[i] : from<T>(OTHER); });
  auto wh = Kernel("conf_where_" + s, [](Ptr<T> x, Ptr<T> y, Ptr<T> out,
                                          Int n) {
    KTC_OFFS;
    auto a = load(x + offs, mask), b = load(y + offs, mask);
    store(out + offs, where((offs & 3) != 0, a, b), mask);
  });
  bitsOp<T>(c, "conf_where_" + s, "where(c, a, b)", wh, 2, nullptr);
}

} // namespace

void memoryRows(Context &c) {
  rows<float>(c);
  rows<half>(c);
  rows<bfloat16>(c);
  rows<int32_t>(c);
  rows<int64_t>(c);
}

/// Reductions of rows of 128 along each axis of a 8x128 block, and 1-D.
void reductionRows(Context &c) {
  auto k = Kernel("conf_reduce", [](Ptr<float> x, Ptr<float> out) {
    auto r = arange(0, 8), col = arange(0, 128);
    auto tile = load(x + expand_dims(r, 1) * 128 + expand_dims(col, 0));
    store(out + r, max(tile, 1));
    store(out + 8 + r, min(tile, 1));
    store(out + 16 + col, max(tile, 0));
    store(out + 144 + col, min(tile, 0));
    store(out + 272 + r, sum(tile, 1));
    store(out + 280 + col, sum(tile, 0));
    store(out + 408, max(load(x + arange(0, 1024)), 0));
    store(out + 409, sum(load(x + arange(0, 1024)), 0));
  });
  std::vector<float> x(1024);
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> u(-1000.f, 1000.f);
  for (float &v : x)
    v = u(rng);
  for (int j = 0; j < 128; ++j)
    x[j] = NAN; // row 0: all NaN
  for (int j = 0; j < 128; ++j)
    x[128 + j] = j == 77 ? -INFINITY : NAN; // row 1: NaN but one
  for (int j = 0; j < 128; ++j)
    x[256 + j] = 3.25f; // row 2: all equal
  for (int i = 0; i < 8; ++i)
    x[i * 128 + 5] = NAN; // column 5: all NaN
  Row extrema = c.row("conf_reduce", "max/min (1-D, 2-D both axes, NaN rows)",
                      "f32", 274);
  extrema.exact = true;
  // A float sum's order is the target's: its error is measured in ulps of
  // the sum of the magnitudes (the classic bound is the element count).
  Row sums = c.row("conf_reduce",
                   "sum (1-D, 2-D both axes; ulps of the sum of magnitudes)",
                   "f32", 137);
  sums.bound = 1024;
  c.entry({extrema, sums}, k, [&] {
    auto [got, host] =
        runBoth<float>(c, 410, 42.0f, [&](Device &d, Buffer<float> &out) {
          Buffer<float> bx(d, x);
          k.launch({1}, bx, out);
        });
    std::vector<double> want(410), mag(410, 0.0);
    auto at = [&](int i, int j) { return double(x[i * 128 + j]); };
    for (int i = 0; i < 8; ++i) {
      double mx = NAN, mn = NAN, s = 0, m = 0;
      for (int j = 0; j < 128; ++j)
        mx = fmaxNum(mx, at(i, j)), mn = fminNum(mn, at(i, j)),
        s += at(i, j), m += std::fabs(at(i, j));
      want[i] = mx, want[8 + i] = mn, want[272 + i] = s, mag[272 + i] = m;
    }
    for (int j = 0; j < 128; ++j) {
      double mx = NAN, mn = NAN, s = 0, m = 0;
      for (int i = 0; i < 8; ++i)
        mx = fmaxNum(mx, at(i, j)), mn = fminNum(mn, at(i, j)),
        s += at(i, j), m += std::fabs(at(i, j));
      want[16 + j] = mx, want[144 + j] = mn, want[280 + j] = s,
                mag[280 + j] = m;
    }
    double mx = NAN, sAll = 0, mAll = 0;
    for (float v : x)
      mx = fmaxNum(mx, v), sAll += v, mAll += std::fabs(v);
    want[408] = mx, want[409] = sAll, mag[409] = mAll;
    auto isSum = [](int i) { return (i >= 272 && i < 408) || i == 409; };
    for (int i = 0; i < 410; ++i) {
      Row &r = isSum(i) ? sums : extrema;
      double e = isSum(i) && std::isfinite(want[i]) && std::isfinite(got[i])
                     ? std::fabs(got[i] - want[i]) / (mag[i] * 0x1p-24)
                     : ulpError(got[i], want[i], F32);
      r.maxUlp = std::max(r.maxUlp, e);
    }
    if (c.host) {
      std::vector<float> gx, hx;
      for (int i = 0; i < 410; ++i)
        if (!isSum(i))
          gx.push_back(got[i]), hx.push_back(host[i]);
      extrema.hostDiffs = bitDiffs(gx, hx);
      sums.hostDiffs = bitDiffs(got, host) - extrema.hostDiffs;
    }
    c.rows.push_back(extrema);
    c.rows.push_back(sums);
  });
}

} // namespace conformance
