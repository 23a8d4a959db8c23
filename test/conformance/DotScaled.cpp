//===- DotScaled.cpp - dot_scaled of the OCP MX formats in the catalogue --===//
//
// acc0 + dot_scaled(a, a_scale, fa, b, b_scale, fb) over a K loop with a
// masked tail, 37 x 29 x 96 (three e8m0 groups along K), every format an
// fp8/fp4 operand may have: e2m1 (two codes a byte along K), e4m3, e5m2,
// held as u8. The codes are random finite ones plus a NaN (and for e5m2
// an infinity) in one row of a and one column of b; the scales random in
// 2^-15 .. 2^15 plus 0 (2^-127: subnormal products), 254 (2^127: past
// f32's range, +-inf) and 255 (NaN) in a few rows and columns. The
// reference decodes each code from the OCP MX v1.0 definitions in float64
// (ktc's kernel uses bit tricks instead). Without fast_math the product is
// an f32 ieee dot, which every target sums as acc = fma(a, b, acc) from k
// = 0 up: bit for bit, the host too; and against the float64 sum. With
// fast_math the scaled operands are rounded to bf16 for the matrix cores
// (scale 255 is +inf there): against float64 only.
//
//===----------------------------------------------------------------------===//

#include "Conformance.h"

#include <bit>
#include <cfloat>
#include <random>

namespace conformance {
namespace {

enum Fmt { E2M1, E4M3, E5M2 };
const char *kNames[] = {"e2m1", "e4m3", "e5m2"};
constexpr int M = 37, N = 29, K = 96, G = K / 32, BM = 32, BN = 32, BK = 64;
constexpr float kAcc0 = 0.375f;
constexpr uint32_t kPoisonBits = 0x7fa00bad; // a NaN no operation returns

double withSign(unsigned s, double v) { return s ? -v : v; }
/// OCP MX v1.0: E2M1 (bias 1, no inf/NaN), E4M3 (bias 7, S.1111.111 NaN,
/// no inf), E5M2 (bias 15, IEEE-like), E8M0 (2^(s - 127), 0xFF NaN).
double decode(Fmt f, unsigned c) {
  switch (f) {
  case E2M1: {
    unsigned e = c >> 1 & 3, m = c & 1;
    return withSign(c >> 3 & 1, e ? std::ldexp(1 + m / 2.0, e - 1) : m / 2.0);
  }
  case E4M3: {
    unsigned e = c >> 3 & 15, m = c & 7;
    if (e == 15 && m == 7)
      return NAN;
    return withSign(c >> 7 & 1, e ? std::ldexp(1 + m / 8.0, e - 7)
                                  : std::ldexp(m / 8.0, -6));
  }
  case E5M2: {
    unsigned e = c >> 2 & 31, m = c & 3;
    if (e == 31)
      return m ? NAN : withSign(c >> 7 & 1, INFINITY);
    return withSign(c >> 7 & 1, e ? std::ldexp(1 + m / 4.0, e - 15)
                                  : std::ldexp(m / 4.0, -14));
  }
  }
  return NAN;
}

/// c = acc0 + dot_scaled over K in BK steps; fp4 operands hold two codes a
/// byte along K (lhs M x K/2, rhs K/2 x N), scales are M x G and N x G.
template <int FA, int FB, bool FAST>
void scaledMatmul(Ptr<uint8_t> a, Ptr<uint8_t> as, Ptr<uint8_t> b,
                  Ptr<uint8_t> bs, Ptr<float> c) {
  auto pm = program_id(0), pn = program_id(1);
  auto rm = expand_dims(pm * BM + arange(0, BM), 1);
  auto rn = expand_dims(pn * BN + arange(0, BN), 0);
  auto rnCol = expand_dims(pn * BN + arange(0, BN), 1);
  Var acc = full({BM, BN}, kAcc0, DType::f32);
  for_range(0, K, BK, [&](Value k) {
    Value x, y;
    if (FA == E2M1) {
      auto kk = expand_dims(k / 2 + arange(0, BK / 2), 0);
      x = load(a + rm * (K / 2) + kk, (rm < M) & (kk < K / 2), 0);
    } else {
      auto ka = expand_dims(k + arange(0, BK), 0);
      x = load(a + rm * K + ka, (rm < M) & (ka < K), 0);
    }
    if (FB == E2M1) {
      auto kk = expand_dims(k / 2 + arange(0, BK / 2), 1);
      y = load(b + kk * N + rn, (kk < K / 2) & (rn < N), 0);
    } else {
      auto kb = expand_dims(k + arange(0, BK), 1);
      y = load(b + kb * N + rn, (kb < K) & (rn < N), 0);
    }
    // The masked tail's scales are 127 (1.0), never 0xFF (NaN).
    auto g = expand_dims(k / 32 + arange(0, BK / 32), 0);
    auto xs = load(as + rm * G + g, (rm < M) & (g < G), 127);
    auto ys = load(bs + rnCol * G + g, (rnCol < N) & (g < G), 127);
    acc = dot_scaled(x, xs, kNames[FA], y, ys, kNames[FB], acc, FAST);
  });
  store(c + rm * N + rn, acc, (rm < M) & (rn < N));
}

/// Random finite codes of `f`.
unsigned finiteCode(Fmt f, std::mt19937 &rng) {
  for (;;) {
    unsigned c = rng() & (f == E2M1 ? 0xf : 0xff);
    if (std::isfinite(decode(f, c)))
      return c;
  }
}

/// Packs codes (rows x cols, row-major) into storage: bytes, or for e2m1
/// two codes a byte along K (`alongRows`: K is the row index).
std::vector<uint8_t> pack(Fmt f, const std::vector<unsigned> &codes, int rows,
                          int cols, bool alongRows) {
  if (f != E2M1)
    return std::vector<uint8_t>(codes.begin(), codes.end());
  int pr = alongRows ? rows / 2 : rows, pc = alongRows ? cols : cols / 2;
  std::vector<uint8_t> bytes(size_t(pr) * pc, 0);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      int k = alongRows ? r : c;
      size_t at = alongRows ? size_t(r / 2) * pc + c : size_t(r) * pc + c / 2;
      bytes[at] |= uint8_t(codes[size_t(r) * cols + c] << (4 * (k & 1)));
    }
  return bytes;
}

template <int FA, int FB, bool FAST> void rows(Context &c) {
  std::string id = std::string("conf_dot_scaled_") + (FAST ? "fast_" : "") +
                   kNames[FA] + "_" + kNames[FB];
  auto kernel = Kernel(id, scaledMatmul<FA, FB, FAST>);
  std::mt19937 rng(FA * 3 + FB + FAST * 9 + 41);
  std::vector<unsigned> ca(size_t(M) * K), cb(size_t(K) * N);
  for (unsigned &x : ca)
    x = finiteCode(Fmt(FA), rng);
  for (unsigned &x : cb)
    x = finiteCode(Fmt(FB), rng);
  // Specials: a NaN code in row 3 of a (none in e2m1), a NaN or infinity
  // in column 4 of b.
  if (FA == E4M3)
    ca[size_t(3) * K + 10] = 0x7f;
  if (FA == E5M2)
    ca[size_t(3) * K + 10] = 0x7d;
  if (FB == E4M3)
    cb[size_t(20) * N + 4] = 0xff;
  if (FB == E5M2)
    cb[size_t(20) * N + 4] = 0xfc; // -inf
  std::vector<uint8_t> sa(size_t(M) * G), sb(size_t(N) * G);
  for (uint8_t &s : sa)
    s = uint8_t(112 + rng() % 31);
  for (uint8_t &s : sb)
    s = uint8_t(112 + rng() % 31);
  sa[5 * G + 1] = 255, sa[6 * G + 0] = 0, sa[9 * G + 2] = 254;
  sb[7 * G + 2] = 254, sb[8 * G + 0] = 0, sb[12 * G + 1] = 255;

  // The scaled operands, as dot_scaled documents them: exact in f32
  // (subnormals kept) or +-inf past its range; with fast_math rounded to
  // bf16, and scale 255 is +inf.
  auto scale = [](unsigned s) {
    return s == 255 ? (FAST ? double(INFINITY) : double(NAN))
                    : std::ldexp(1.0, int(s) - 127);
  };
  auto operand = [](double v) {
    float x = float(v);
    return FAST ? to_float(to_bfloat16(x)) : x;
  };
  std::vector<float> xa(ca.size()), xb(cb.size());
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k)
      xa[size_t(m) * K + k] = operand(decode(Fmt(FA), ca[size_t(m) * K + k]) *
                                      scale(sa[size_t(m) * G + k / 32]));
  for (int k = 0; k < K; ++k)
    for (int n = 0; n < N; ++n)
      xb[size_t(k) * N + n] = operand(decode(Fmt(FB), cb[size_t(k) * N + n]) *
                                      scale(sb[size_t(n) * G + k / 32]));
  std::vector<uint8_t> ha = pack(Fmt(FA), ca, M, K, false),
                       hb = pack(Fmt(FB), cb, K, N, true);

  std::string what = std::string("dot_scaled ") + kNames[FA] + " x " +
                     kNames[FB] + " 37x29x96" + (FAST ? ", fast_math" : "");
  const size_t n = size_t(M) * N;
  Row bits = c.row(id, what + ": fma from k = 0, bit for bit", "u8", n);
  bits.exact = true;
  Row sums = c.row(id, what + " (ulps of the sum of magnitudes)", "u8", n);
  sums.bound = K + 1;
  std::vector<Row> skeletons = {sums};
  if (!FAST)
    skeletons.insert(skeletons.begin(), bits);
  c.entry(skeletons, kernel, [&] {
    const float poison = std::bit_cast<float>(kPoisonBits);
    auto [got, host] =
        runBoth<float>(c, n, poison, [&](Device &d, Buffer<float> &out) {
          Buffer<uint8_t> ba(d, ha), bas(d, sa), bb(d, hb), bbs(d, sb);
          kernel.launch({int(cdiv(M, BM)), int(cdiv(N, BN))}, ba, bas, bb,
                        bbs, out);
        });
    int shown = 0, nans = 0, compared = 0;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float ordered = kAcc0;
        double ref = kAcc0, mag = kAcc0;
        for (int k = 0; k < K; ++k) {
          float x = xa[size_t(i) * K + k], y = xb[size_t(k) * N + j];
          ordered = std::fma(x, y, ordered);
          ref += double(x) * y, mag += std::fabs(double(x) * y);
        }
        size_t e = size_t(i) * N + j;
        float g = got[e];
        bool unwritten = std::bit_cast<uint32_t>(g) == kPoisonBits;
        if (!FAST) {
          bool wrong = unwritten || (!(std::isnan(g) && std::isnan(ordered)) &&
                                     std::bit_cast<uint32_t>(g) !=
                                         std::bit_cast<uint32_t>(ordered));
          if (wrong)
            bits.maxUlp = INFINITY;
          if (wrong || hostDiffers(got, host, e))
            showElement(c, bits, e, std::to_string(i) + "," + std::to_string(j),
                        g, hex(ordered), host, shown);
        }
        // float64: a NaN must be NaN (a NaN operand, 0 x inf or inf - inf
        // give it in any order); otherwise only where no order of f32 sums
        // can leave f32's range (an operand or a partial sum past it gives
        // +-inf or NaN depending on the order; the bits above rule there).
        double err = 0;
        if (unwritten) {
          err = INFINITY;
        } else if (std::isnan(ref)) {
          err = std::isnan(g) ? 0 : INFINITY;
          ++nans;
        } else if (mag <= FLT_MAX / 2) {
          err = std::isfinite(g) ? std::fabs(double(g) - ref) / (mag * 0x1p-24)
                                 : INFINITY;
          ++compared;
        }
        sums.maxUlp = std::max(sums.maxUlp, err);
        if (err > sums.bound)
          showElement(c, sums, e, std::to_string(i) + "," + std::to_string(j),
                      g, exactly(ref), host, shown);
      }
    // Most sums are finite and compared: the edges spoil a few rows and
    // columns only.
    std::fprintf(stderr, "%s: %d NaN, %d within f32's range of %zu\n",
                 id.c_str(), nans, compared, n);
    if (c.host)
      bits.hostDiffs = sums.hostDiffs = bitDiffs(got, host);
    if (!FAST)
      c.rows.push_back(bits);
    c.rows.push_back(sums);
  });
}

} // namespace

void dotScaledRows(Context &c) {
  rows<E2M1, E4M3, false>(c);
  rows<E4M3, E5M2, false>(c);
  rows<E5M2, E2M1, false>(c);
  rows<E2M1, E4M3, true>(c);
}

} // namespace conformance
