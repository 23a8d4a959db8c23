//===- BlockPtr.cpp - block pointers and tensor descriptors in the catalogue ===//
//
// Tiles of a 100 x 77 f32 matrix stored with 81 elements a row (the last 4
// of each row are not the tensor's: they must stay poisoned), read and
// written through make_block_ptr with both dimensions checked, from
// negative offsets, with zero and NaN padding, and through tensor
// descriptors, tiles partly and wholly outside the tensor; the inputs are
// every bit pattern floatInputs has (NaNs with payloads, infinities,
// subnormals, the largest values), moved bit for bit. Then matmuls walking
// K with advance() at odd M, N and K: f32 (InputPrecision::ieee, which
// every target sums as acc = fma(a, b, acc) from k = 0 up, the K tail's
// zeros included: bit for bit) and f16 with an f32 result (the matrix
// cores; within the f32 summation bound of a float64 reference).
//
//===----------------------------------------------------------------------===//

#include "Conformance.h"

#include <bit>
#include <random>

namespace conformance {
namespace {

constexpr uint32_t kPoisonBits = 0x7fa00bad; // a NaN no operation returns
float poison() { return std::bit_cast<float>(kPoisonBits); }
bool same(float a, float b) {
  return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b);
}

// The matrix and its tiles.
constexpr int M = 100, N = 77, LD = 81;
// Block pointers: 32 x 64 tiles from (-5, -3).
constexpr int BPM = 32, BPN = 64, BP_DI = -5, BP_DJ = -3;
// Descriptors: 16 x 32 tiles from (-7, -11), and one more program each way
// whose tile lies wholly outside.
constexpr int TDM = 16, TDN = 32, TD_DI = -7, TD_DJ = -11;

/// The output buffer: the matrix written back (M x LD), then the tiles
/// loaded with zero padding, then with NaN padding (rows x ts each).
struct Layout {
  int bm, bn, di, dj, gm, gn;
  int rows() const { return gm * bm; }
  int ts() const { return gn * bn; }
  size_t tiles() const { return size_t(rows()) * ts(); }
  size_t size() const { return size_t(M) * LD + 2 * tiles(); }
};
constexpr Layout kBlockPtr{BPM, BPN, BP_DI, BP_DJ, (M - BP_DI + BPM - 1) / BPM,
                           (N - BP_DJ + BPN - 1) / BPN};
constexpr Layout kDescriptor{TDM, TDN, TD_DI, TD_DJ,
                             (M - TD_DI + TDM - 1) / TDM + 1,
                             (N - TD_DJ + TDN - 1) / TDN + 1};

/// Program (i, j): the tile at (i BM + di, j BN + dj) read with both
/// dimensions checked, zero- and NaN-padded; the first stored back through
/// a checked block pointer, both whole (unchecked) to the tile areas.
void blockPtrCopy(Ptr<float> x, Ptr<float> out, Int di, Int dj, Int ts) {
  auto i = program_id(0), j = program_id(1);
  auto src = make_block_ptr(x, {M, N}, {LD, 1}, {i * BPM + di, j * BPN + dj},
                            {BPM, BPN}, {1, 0});
  auto zero = load(src, {0, 1}, Padding::zero);
  auto nan = load(src, {0, 1}, Padding::nan);
  auto dst = make_block_ptr(out, {M, N}, {LD, 1}, {i * BPM + di, j * BPN + dj},
                            {BPM, BPN}, {1, 0});
  store(dst, zero, {0, 1});
  const int rows = kBlockPtr.rows();
  auto z = make_block_ptr(out + M * LD, {rows, ts}, {ts, 1},
                          {i * BPM, j * BPN}, {BPM, BPN}, {1, 0});
  store(z, zero);
  auto w = make_block_ptr(out + M * LD + rows * ts, {rows, ts}, {ts, 1},
                          {i * BPM, j * BPN}, {BPM, BPN}, {1, 0});
  store(w, nan);
}

/// The same through tensor descriptors (every dimension checked).
void descriptorCopy(Ptr<float> x, Ptr<float> out, Int di, Int dj, Int ts) {
  auto i = program_id(0), j = program_id(1);
  auto zsrc = make_tensor_descriptor(x, {M, N}, {LD, 1}, {TDM, TDN});
  auto nsrc =
      make_tensor_descriptor(x, {M, N}, {LD, 1}, {TDM, TDN}, Padding::nan);
  auto dst = make_tensor_descriptor(out, {M, N}, {LD, 1}, {TDM, TDN});
  auto zero = zsrc.load({i * TDM + di, j * TDN + dj});
  auto nan = load_tensor_descriptor(nsrc, {i * TDM + di, j * TDN + dj});
  dst.store({i * TDM + di, j * TDN + dj}, zero);
  const int rows = kDescriptor.rows();
  auto z = make_tensor_descriptor(out + M * LD, {rows, ts}, {ts, 1},
                                  {TDM, TDN});
  z.store({i * TDM, j * TDN}, zero);
  auto w = make_tensor_descriptor(out + M * LD + rows * ts, {rows, ts},
                                  {ts, 1}, {TDM, TDN});
  store_tensor_descriptor(w, {i * TDM, j * TDN}, nan);
}

/// Checks a copy's output (see Layout) against x: three rows.
template <typename K>
void copyRows(Context &c, const std::string &id, const std::string &what,
              K &kernel, const Layout &l) {
  std::vector<float> x = floatInputs(21);
  x.resize(size_t(M) * LD);
  std::vector<float> more = floatInputs(22);
  for (size_t e = 4000; e < x.size(); ++e)
    x[e] = more[e - 4000];
  Row zero = c.row(id, what + " load, zero padding", "f32", l.tiles());
  Row nan = c.row(id, what + " load, NaN padding", "f32", l.tiles());
  Row back = c.row(id, what + " store (row gaps stay poisoned)", "f32",
                   size_t(M) * LD);
  for (Row *r : {&zero, &nan, &back})
    r->exact = true;
  c.entry({zero, nan, back}, kernel, [&] {
    auto [got, host] = runBoth<float>(
        c, l.size(), poison(), [&](Device &d, Buffer<float> &out) {
          Buffer<float> bx(d, x);
          kernel.launch({l.gm, l.gn}, bx, out, l.di, l.dj, l.ts());
        });
    int shown = 0;
    auto check = [&](Row &r, size_t at, bool ok, const std::string &want) {
      if (!ok)
        r.maxUlp = INFINITY;
      if (!ok || hostDiffers(got, host, at))
        showElement(c, r, at, "-", got[at], want, host, shown);
    };
    for (int row = 0; row < M; ++row) // the matrix written back
      for (int col = 0; col < LD; ++col) {
        size_t e = size_t(row) * LD + col;
        float want = col < N ? x[e] : poison();
        check(back, e, same(got[e], want), hex(want));
      }
    for (int t = 0; t < 2; ++t) // the tiles
      for (int r = 0; r < l.rows(); ++r)
        for (int col = 0; col < l.ts(); ++col) {
          size_t e = size_t(M) * LD + t * l.tiles() + size_t(r) * l.ts() + col;
          int xi = r + l.di, xj = col + l.dj;
          bool inside = xi >= 0 && xi < M && xj >= 0 && xj < N;
          float want = inside ? x[size_t(xi) * LD + xj] : t ? NAN : 0.0f;
          bool ok = inside || t == 0 ? same(got[e], want)
                                     : std::isnan(got[e]) &&
                                           !same(got[e], poison());
          check(t ? nan : zero, e, ok, hex(want));
        }
    if (c.host) {
      auto diffs = [&](size_t from, size_t count) {
        std::vector<float> g(got.begin() + from, got.begin() + from + count),
            h(host.begin() + from, host.begin() + from + count);
        return bitDiffs(g, h);
      };
      back.hostDiffs = diffs(0, size_t(M) * LD);
      zero.hostDiffs = diffs(size_t(M) * LD, l.tiles());
      nan.hostDiffs = diffs(size_t(M) * LD + l.tiles(), l.tiles());
    }
    c.rows.push_back(zero);
    c.rows.push_back(nan);
    c.rows.push_back(back);
  });
}

// The matmuls: c (MM x NN, f32) = a (MM x KK) @ b (KK x NN).
constexpr int MM = 37, NN = 29, KK = 53, B16 = 16;

template <typename T>
void blockPtrMatmul(Ptr<T> a, Ptr<T> b, Ptr<float> c) {
  auto pm = program_id(0), pn = program_id(1);
  auto ap = make_block_ptr(a, {MM, KK}, {KK, 1}, {pm * B16, 0}, {B16, B16},
                           {1, 0});
  auto bp = make_block_ptr(b, {KK, NN}, {NN, 1}, {0, pn * B16}, {B16, B16},
                           {1, 0});
  Var acc = zeros({B16, B16}, DType::f32);
  for_range(0, KK, B16, [&](Value) {
    acc = dot(load(ap, {0, 1}), load(bp, {0, 1}), acc);
    ap = advance(ap, {0, B16});
    bp = advance(bp, {B16, 0});
  });
  auto cp = make_block_ptr(c, {MM, NN}, {NN, 1}, {pm * B16, pn * B16},
                           {B16, B16}, {1, 0});
  store(cp, acc, {0, 1});
}

/// Random values of both signs, 1 in 16 of them an edge from `edges`.
template <typename T>
std::vector<T> matrix(size_t n, uint32_t seed, const std::vector<T> &edges,
                      const std::function<T(float)> &from) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  std::vector<T> v(n);
  for (T &e : v)
    e = rng() % 16 == 0 ? edges[rng() % edges.size()] : from(u(rng));
  return v;
}

void matmulF32Rows(Context &c) {
  auto k = Kernel("conf_block_ptr_dot_f32", blockPtrMatmul<float>);
  auto id = [](float f) { return f; };
  // Edges in a: subnormals, zeros, large values (products past f32's
  // range); one NaN and one infinity put where they spoil one row and one
  // column.
  std::vector<float> a = matrix<float>(size_t(MM) * KK, 31,
                                       {1e-40f, -3e-39f, 0.0f, -0.0f, 3e38f,
                                        -1.7e38f, 65504.0f},
                                       id);
  std::vector<float> b = matrix<float>(size_t(KK) * NN, 32,
                                       {1e-45f, 8e37f, -4096.0f, 0.5f}, id);
  a[size_t(3) * KK + 7] = NAN;
  b[size_t(11) * NN + 5] = -INFINITY;
  const size_t n = size_t(MM) * NN;
  Row bits = c.row("conf_block_ptr_dot_f32",
                   "block-pointer matmul 37x29x53 (ieee): fma from k = 0, "
                   "bit for bit",
                   "f32", n);
  bits.exact = true;
  c.entry({bits}, k, [&] {
    auto [got, host] =
        runBoth<float>(c, n, poison(), [&](Device &d, Buffer<float> &out) {
          Buffer<float> ba(d, a), bb(d, b);
          k.launch({int(cdiv(MM, B16)), int(cdiv(NN, B16))}, ba, bb, out);
        });
    int shown = 0;
    const int kPadded = int(cdiv(KK, B16)) * B16; // the tail's zeros too
    for (int i = 0; i < MM; ++i)
      for (int j = 0; j < NN; ++j) {
        float acc = 0.0f;
        for (int kk = 0; kk < kPadded; ++kk)
          acc = kk < KK ? std::fma(a[size_t(i) * KK + kk],
                                   b[size_t(kk) * NN + j], acc)
                        : std::fma(0.0f, 0.0f, acc);
        size_t e = size_t(i) * NN + j;
        bool wrong = !(std::isnan(acc) && std::isnan(got[e])) &&
                     !same(acc, got[e]);
        if (wrong)
          bits.maxUlp = INFINITY;
        if (wrong || hostDiffers(got, host, e))
          showElement(c, bits, e, std::to_string(i) + "," + std::to_string(j),
                      got[e], hex(acc), host, shown);
      }
    if (c.host)
      bits.hostDiffs = bitDiffs(got, host);
    c.rows.push_back(bits);
  });
}

void matmulF16Rows(Context &c) {
  auto k = Kernel("conf_block_ptr_dot_f16", blockPtrMatmul<half>);
  auto toHalf = [](float f) { return to_half(f); };
  // f16 edges: subnormals, the largest finite values, -0.
  std::vector<half> a = matrix<half>(
      size_t(MM) * KK, 33,
      {half{0x0001}, half{0x83ff}, half{0x7bff}, half{0xfbff}, half{0x8000}},
      toHalf);
  std::vector<half> b = matrix<half>(
      size_t(KK) * NN, 34, {half{0x0200}, half{0x7bfe}, half{0x3c00}},
      toHalf);
  a[size_t(20) * KK + 40] = half{0x7e00};   // NaN: row 20
  b[size_t(50) * NN + 17] = half{0x7c00};   // +inf: column 17
  b[size_t(2) * NN + 17] = half{0xfc00};    // -inf too: NaN where both
  const size_t n = size_t(MM) * NN;
  Row sums = c.row("conf_block_ptr_dot_f16",
                   "block-pointer matmul 37x29x53, f16 in, f32 out (ulps of "
                   "the sum of magnitudes)",
                   "f16", n);
  sums.bound = KK + 1;
  c.entry({sums}, k, [&] {
    auto [got, host] =
        runBoth<float>(c, n, poison(), [&](Device &d, Buffer<float> &out) {
          Buffer<half> ba(d, a), bb(d, b);
          k.launch({int(cdiv(MM, B16)), int(cdiv(NN, B16))}, ba, bb, out);
        });
    int shown = 0;
    for (int i = 0; i < MM; ++i)
      for (int j = 0; j < NN; ++j) {
        double ref = 0, mag = 0;
        for (int kk = 0; kk < KK; ++kk) {
          double p = value(a[size_t(i) * KK + kk]) *
                     value(b[size_t(kk) * NN + j]);
          ref += p, mag += std::fabs(p);
        }
        size_t e = size_t(i) * NN + j;
        double err = std::isfinite(ref) && std::isfinite(got[e])
                         ? (mag == 0 ? (got[e] == 0 ? 0 : INFINITY)
                                     : std::fabs(got[e] - ref) /
                                           (mag * 0x1p-24))
                         : ulpError(got[e], ref, F32);
        if (same(got[e], poison()))
          err = INFINITY;
        sums.maxUlp = std::max(sums.maxUlp, err);
        if (err > sums.bound)
          showElement(c, sums, e, std::to_string(i) + "," + std::to_string(j),
                      got[e], exactly(ref), host, shown);
      }
    if (c.host)
      sums.hostDiffs = bitDiffs(got, host);
    c.rows.push_back(sums);
  });
}

} // namespace

void blockPtrRows(Context &c) {
  auto bp = Kernel("conf_block_ptr", blockPtrCopy);
  copyRows(c, "conf_block_ptr",
           "block ptr 32x64 tiles of 100x77 (ld 81) from (-5, -3), both "
           "dims checked:",
           bp, kBlockPtr);
  auto td = Kernel("conf_tensor_desc", descriptorCopy);
  copyRows(c, "conf_tensor_desc",
           "tensor descriptor 16x32 tiles of 100x77 (ld 81) from (-7, -11), "
           "some wholly outside:",
           td, kDescriptor);
  matmulF32Rows(c);
  matmulF16Rows(c);
}

} // namespace conformance
