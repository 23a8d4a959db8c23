//===- BlockPtrTest.cpp - block pointers and tensor descriptors -----------===//
//
// The public API only, end to end on Device("cpu") (or KTC_SHAPES_DEVICE's
// device: cuda on a GPU machine): tiles of odd-sized matrices, row- and
// column-major, read and written through make_block_ptr (with boundary
// checks along some or all dimensions, zero and NaN padding, negative
// offsets) and through tensor descriptors (tiles partly or wholly outside
// the tensor); a matmul walking K with advance() in a for_range, and
// block pointers carried by while_ and if_. Inputs hold NaNs, infinities,
// subnormals, -0 and large values; outputs are poisoned first with a
// poisoned guard after them; references are exact (elements only moved)
// or float64 within the f32 summation bound (the matmuls). Errors and the
// GPU code: BlockPtrErrorsTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "TestDevice.h"
#include "ktc/ktc.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace ktc;

namespace {

using test::testDevice;

constexpr uint32_t kPoisonBits = 0x7fa00bad; // a signalling NaN
float poison() {
  float f;
  std::memcpy(&f, &kPoisonBits, 4);
  return f;
}
bool same(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// Random floats of both signs with the edge values among them.
std::vector<float> edgyFloats(size_t n, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<float> dist(-8.0f, 8.0f);
  const float specials[] = {NAN,    INFINITY, -INFINITY, -0.0f,
                            1e-42f, -3e-39f,  3.0e38f,   -1.5e38f};
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = gen() % 11 == 0 ? specials[gen() % 8] : dist(gen);
  return v;
}

// Which dimensions a copy checks (CHECK bits) and its padding.
constexpr int kDim0 = 1, kDim1 = 2;

std::vector<int> checkedDims(int bits) {
  std::vector<int> dims;
  if (bits & kDim0)
    dims.push_back(0);
  if (bits & kDim1)
    dims.push_back(1);
  return dims;
}

/// Program (i, j) reads the BM x BN tile of x (M x N, strides sxm, sxn) at
/// rows i BM + shift, columns j BN, through a block pointer; writes it
/// whole to `tiles` (row-major, ts columns) at (i BM, j BN), and to `out`
/// (M x N, strides som, son) through another block pointer, checked as
/// the load is.
void copyKernel(Ptr<float> x, Ptr<float> out, Ptr<float> tiles, Int M, Int N,
                Int sxm, Int sxn, Int som, Int son, Int shift, Int ts, int BM,
                int BN, int CHECK, bool NAN_PAD, bool COLUMN_MAJOR) {
  auto i = program_id(0), j = program_id(1);
  std::vector<int> order =
      COLUMN_MAJOR ? std::vector<int>{0, 1} : std::vector<int>{1, 0};
  auto src = make_block_ptr(x, {M, N}, {sxm, sxn}, {i * BM + shift, j * BN},
                            {BM, BN}, order);
  auto tile =
      load(src, checkedDims(CHECK), NAN_PAD ? Padding::nan : Padding::zero);
  auto whole = make_block_ptr(tiles, {M, ts}, {ts, 1}, {i * BM, j * BN},
                              {BM, BN}, {1, 0});
  store(whole, tile);
  auto dst = make_block_ptr(out, {M, N}, {som, son}, {i * BM + shift, j * BN},
                            {BM, BN}, order);
  store(dst, tile, checkedDims(CHECK));
}

struct CopyCase {
  int M, N, BM, BN, check, shift;
  bool nanPad, columnMajor;
};

void runCopy(const CopyCase &c) {
  SCOPED_TRACE("M " + std::to_string(c.M) + " N " + std::to_string(c.N) +
               " BM " + std::to_string(c.BM) + " BN " + std::to_string(c.BN) +
               " check " + std::to_string(c.check) + " shift " +
               std::to_string(c.shift) + (c.nanPad ? " nan" : " zero") +
               (c.columnMajor ? " column-major" : " row-major"));
  auto kernel = Kernel("block_copy", copyKernel);
  const int M = c.M, N = c.N;
  const int64_t sm = c.columnMajor ? 1 : N, sn = c.columnMajor ? M : 1;
  const int gm = int(cdiv(M - c.shift, c.BM)), gn = int(cdiv(N, c.BN));
  const int ts = gn * c.BN, rows = gm * c.BM;
  const size_t guard = 9;
  std::vector<float> hx = edgyFloats(size_t(M) * N, M * 131 + N);
  Buffer<float> x(testDevice(), hx);
  Buffer<float> out(testDevice(),
                    std::vector<float>(size_t(M) * N + guard, poison()));
  Buffer<float> tiles(testDevice(),
                      std::vector<float>(size_t(rows) * ts + guard, poison()));
  kernel.launch({gm, gn}, x, out, tiles, M, N, sm, sn, sm, sn, c.shift, ts,
                c.BM, c.BN, c.check, c.nanPad, c.columnMajor);
  std::vector<float> got = out.to_host(), gotTiles = tiles.to_host();
  for (int r = 0; r < rows; ++r)
    for (int col = 0; col < ts; ++col) {
      int row = r + c.shift; // the row of x the tile element came from
      bool inside = row >= 0 && row < M && col < N;
      float v = gotTiles[size_t(r) * ts + col];
      if (inside)
        ASSERT_TRUE(same(v, hx[row * sm + col * sn])) << r << ", " << col;
      else if (c.nanPad)
        ASSERT_TRUE(std::isnan(v) && !same(v, poison())) << r << ", " << col;
      else
        ASSERT_TRUE(same(v, 0.0f)) << r << ", " << col << ": " << v;
    }
  for (size_t e = 0; e < size_t(M) * N; ++e)
    ASSERT_TRUE(same(got[e], hx[e])) << "out at " << e;
  for (size_t e = size_t(M) * N; e < got.size(); ++e)
    ASSERT_TRUE(same(got[e], poison())) << "written past the end at " << e;
  for (size_t e = size_t(rows) * ts; e < gotTiles.size(); ++e)
    ASSERT_TRUE(same(gotTiles[e], poison())) << "tiles past the end at " << e;
}

TEST(BlockPtr, CopyOddShapesBothChecked) {
  for (bool columnMajor : {false, true})
    for (bool nanPad : {false, true}) {
      runCopy({37, 29, 16, 16, kDim0 | kDim1, 0, nanPad, columnMajor});
      runCopy({5, 70, 8, 32, kDim0 | kDim1, 0, nanPad, columnMajor});
    }
}

TEST(BlockPtr, NegativeOffsetsAreChecked) {
  // Rows start 5 (or 16) before the tensor: the lower bound is checked too.
  for (int shift : {-5, -16})
    for (bool nanPad : {false, true})
      runCopy({37, 29, 16, 16, kDim0 | kDim1, shift, nanPad, false});
  runCopy({19, 33, 8, 16, kDim0 | kDim1, -3, false, true});
}

TEST(BlockPtr, OnlyTheListedDimensionsAreChecked) {
  // Rows a multiple of BM: dimension 0 needs no check; columns do.
  runCopy({32, 29, 16, 16, kDim1, 0, true, false});
  runCopy({32, 29, 16, 16, kDim1, 0, false, true});
  // Columns a multiple of BN: only dimension 0.
  runCopy({37, 64, 16, 32, kDim0, 0, false, false});
  // Neither needs a check: no mask at all.
  runCopy({32, 64, 16, 32, 0, 0, false, false});
}

/// c = a @ b in f32 through block pointers walked along K by advance()
/// (Triton's matmul with block pointers); a may be column-major (its
/// block pointer's order then {0, 1}).
void blockPtrMatmul(Ptr<float> a, Ptr<float> b, Ptr<float> c, Int M, Int N,
                    Int K, Int sam, Int sak, Int sbk, Int sbn, Int scm, Int scn,
                    int BM, int BN, int BK, bool A_COLUMN_MAJOR) {
  auto pm = program_id(0), pn = program_id(1);
  auto ap = make_block_ptr(a, {M, K}, {sam, sak}, {pm * BM, 0}, {BM, BK},
                           A_COLUMN_MAJOR ? std::vector<int>{0, 1}
                                          : std::vector<int>{1, 0});
  auto bp =
      make_block_ptr(b, {K, N}, {sbk, sbn}, {0, pn * BN}, {BK, BN}, {1, 0});
  Var acc = zeros({BM, BN}, DType::f32);
  for_range(0, K, BK, [&](Value) {
    acc = dot(load(ap, {0, 1}), load(bp, {0, 1}), acc);
    ap = advance(ap, {0, BK});
    bp = advance(bp, {BK, 0});
  });
  auto cp = make_block_ptr(c, {M, N}, {scm, scn}, {pm * BM, pn * BN}, {BM, BN},
                           {1, 0});
  store(cp, acc, {0, 1});
}

/// The same with tensor descriptors (row-major; the last strides 1): the
/// loop's k is the descriptors' offset, the edges are padded with zeros.
void descriptorMatmul(Ptr<float> a, Ptr<float> b, Ptr<float> c, Int M, Int N,
                      Int K, Int sam, Int sak, Int sbk, Int sbn, Int scm,
                      Int scn, int BM, int BN, int BK, bool) {
  auto pm = program_id(0), pn = program_id(1);
  auto ad = make_tensor_descriptor(a, {M, K}, {sam, sak}, {BM, BK});
  auto bd = make_tensor_descriptor(b, {K, N}, {sbk, sbn}, {BK, BN});
  auto cd = make_tensor_descriptor(c, {M, N}, {scm, scn}, {BM, BN});
  Var acc = zeros({BM, BN}, DType::f32);
  for_range(0, K, BK, [&](Value k) {
    acc = dot(ad.load({pm * BM, k}), load_tensor_descriptor(bd, {k, pn * BN}),
              acc);
  });
  store_tensor_descriptor(cd, {pm * BM, pn * BN}, acc);
}

template <typename F>
void checkMatmul(const char *name, F fn, int M, int N, int K,
                 bool aColumnMajor) {
  SCOPED_TRACE(std::to_string(M) + " x " + std::to_string(N) + " x " +
               std::to_string(K) + (aColumnMajor ? " A column-major" : ""));
  constexpr int BM = 16, BN = 16, BK = 16;
  auto kernel = Kernel(name, fn);
  std::mt19937_64 gen(M * 7 + N * 3 + K);
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  std::vector<float> ha(size_t(M) * K), hb(size_t(K) * N);
  for (float &v : ha)
    v = gen() % 13 == 0 ? (gen() % 2 ? 1e-40f : 0.0f) : dist(gen);
  for (float &v : hb)
    v = gen() % 17 == 0 ? 4096.0f * dist(gen) : dist(gen);
  const int64_t sam = aColumnMajor ? 1 : K, sak = aColumnMajor ? M : 1;
  Buffer<float> a(testDevice(), ha), b(testDevice(), hb);
  Buffer<float> c(testDevice(),
                  std::vector<float>(size_t(M) * N + 5, poison()));
  kernel.launch({cdiv(M, BM), cdiv(N, BN)}, a, b, c, M, N, K, sam, sak,
                int64_t(N), int64_t(1), int64_t(N), int64_t(1), BM, BN, BK,
                aColumnMajor);
  std::vector<float> got = c.to_host();
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double ref = 0, mag = 0;
      for (int k = 0; k < K; ++k) {
        double p = double(ha[i * sam + k * sak]) * hb[size_t(k) * N + j];
        ref += p;
        mag += std::fabs(p);
      }
      double bound = (K + 1) * std::ldexp(mag, -24) + 1e-45;
      ASSERT_LE(std::fabs(got[size_t(i) * N + j] - ref), bound)
          << i << ", " << j << ": " << got[size_t(i) * N + j] << " vs " << ref;
    }
  for (size_t e = size_t(M) * N; e < got.size(); ++e)
    ASSERT_TRUE(same(got[e], poison())) << "written past the end at " << e;
}

TEST(BlockPtr, MatmulWithAdvance) {
  checkMatmul("bp_matmul", blockPtrMatmul, 37, 29, 53, false);
  checkMatmul("bp_matmul", blockPtrMatmul, 37, 29, 53, true);
  checkMatmul("bp_matmul", blockPtrMatmul, 16, 48, 32, false); // no edges
  checkMatmul("bp_matmul", blockPtrMatmul, 1, 1, 1, true);
}

TEST(TensorDescriptor, Matmul) {
  checkMatmul("desc_matmul", descriptorMatmul, 37, 29, 53, false);
  checkMatmul("desc_matmul", descriptorMatmul, 64, 16, 16, false);
  checkMatmul("desc_matmul", descriptorMatmul, 3, 5, 7, false);
}

/// Program (i, j) loads the tile of x (M x N, row-major) at (i BM + di,
/// j BN + dj) through a descriptor and stores it at the same offsets of
/// out through another, and whole to `tiles` (ts columns) at (i BM, j BN).
template <typename T>
void descriptorCopy(Ptr<T> x, Ptr<T> out, Ptr<T> tiles, Int M, Int N, Int di,
                    Int dj, Int ts, int BM, int BN, bool NAN_PAD) {
  auto i = program_id(0), j = program_id(1);
  auto src = make_tensor_descriptor(x, {M, N}, {N, 1}, {BM, BN},
                                    NAN_PAD ? Padding::nan : Padding::zero);
  auto dst = make_tensor_descriptor(out, {M, N}, {N, 1}, {BM, BN});
  auto tile = src.load({i * BM + di, j * BN + dj});
  dst.store({i * BM + di, j * BN + dj}, tile);
  auto rows = expand_dims(i * BM + arange(0, BM), 1);
  auto cols = expand_dims(j * BN + arange(0, BN), 0);
  store(tiles + rows * ts + cols, tile);
}

template <typename T>
void runDescriptorCopy(int M, int N, int BM, int BN, int di, int dj,
                       bool nanPad, const std::vector<T> &hx, T poisonValue,
                       T padValue) {
  SCOPED_TRACE("M " + std::to_string(M) + " N " + std::to_string(N) +
               " offsets " + std::to_string(di) + ", " + std::to_string(dj));
  auto kernel = Kernel("desc_copy", descriptorCopy<T>);
  // Enough programs to cover the tensor from the shifted tiles, and one
  // more in each direction whose tile lies wholly outside it.
  const int gm = int(cdiv(M - std::min(di, 0), BM)) + 1;
  const int gn = int(cdiv(N - std::min(dj, 0), BN)) + 1;
  const int ts = gn * BN, rows = gm * BM;
  auto bits = [](T v) {
    uint64_t b = 0;
    std::memcpy(&b, &v, sizeof v);
    return b;
  };
  Buffer<T> x(testDevice(), hx);
  Buffer<T> out(testDevice(), std::vector<T>(size_t(M) * N + 7, poisonValue));
  Buffer<T> tiles(testDevice(), std::vector<T>(size_t(rows) * ts, poisonValue));
  kernel.launch({gm, gn}, x, out, tiles, M, N, di, dj, ts, BM, BN, nanPad);
  std::vector<T> got = out.to_host(), gotTiles = tiles.to_host();
  std::vector<bool> covered(size_t(M) * N, false);
  for (int r = 0; r < rows; ++r)
    for (int col = 0; col < ts; ++col) {
      int row = r + di, c = col + dj;
      bool inside = row >= 0 && row < M && c >= 0 && c < N;
      T v = gotTiles[size_t(r) * ts + col];
      if (inside) {
        covered[size_t(row) * N + c] = true;
        ASSERT_EQ(bits(v), bits(hx[size_t(row) * N + c])) << r << ", " << col;
      } else if (nanPad) {
        ASSERT_TRUE(std::isnan(double(v)) && bits(v) != bits(poisonValue))
            << r << ", " << col;
      } else {
        ASSERT_EQ(bits(v), bits(padValue)) << r << ", " << col;
      }
    }
  for (size_t e = 0; e < size_t(M) * N; ++e)
    ASSERT_EQ(bits(got[e]), bits(covered[e] ? hx[e] : poisonValue))
        << "out at " << e;
  for (size_t e = size_t(M) * N; e < got.size(); ++e)
    ASSERT_EQ(bits(got[e]), bits(poisonValue)) << "past the end at " << e;
}

TEST(TensorDescriptor, OutOfBoundsTiles) {
  for (bool nanPad : {false, true})
    for (auto [di, dj] :
         std::vector<std::pair<int, int>>{{0, 0}, {-3, 5}, {7, -9}, {-16, -16}})
      runDescriptorCopy<float>(37, 29, 16, 8, di, dj, nanPad,
                               edgyFloats(37 * 29, di * 100 + dj), poison(),
                               0.0f);
  // Integers pad with zeros; the poison is a value the data never holds.
  std::mt19937_64 gen(3);
  std::vector<int32_t> hi(23 * 50);
  for (int32_t &v : hi)
    v = int32_t(gen() % 2000001) - 1000000;
  for (auto [di, dj] :
       std::vector<std::pair<int, int>>{{0, 0}, {-1, 3}, {11, -2}})
    runDescriptorCopy<int32_t>(23, 50, 8, 16, di, dj, false, hi,
                               int32_t(0x7eadbeef), 0);
}

/// s = the sum of x's tiles of B (n elements), walked by a block pointer
/// carried through a while_ whose condition reads its offset, and
/// advanced by a second step under an if_ every other tile (skipping
/// tiles when SKIP).
void walkKernel(Ptr<int32_t> x, Ptr<int32_t> out, Int n, int B, bool SKIP) {
  auto p = make_block_ptr(x, {n}, {1}, {0}, {B}, {0});
  Var s = zeros({B}, DType::i32);
  Var k = 0;
  while_([&] { return p.offsets()[0] < n; },
         [&] {
           s = s + load(p, {0});
           p = advance(p, {B});
           if_(SKIP ? (k % 2 == 1) : (k < 0), [&] { p = advance(p, {B}); });
           k = k + 1;
         });
  store(out + arange(0, B), s);
}

TEST(BlockPtr, CarriedByWhileAndIf) {
  auto kernel = Kernel("walk", walkKernel);
  for (bool skip : {false, true})
    for (int n : {1, 31, 100, 257}) {
      constexpr int B = 16;
      std::mt19937_64 gen(n);
      std::vector<int32_t> hx(n);
      for (int32_t &v : hx)
        v = int32_t(gen() % 20001) - 10000;
      std::vector<int64_t> ref(B, 0);
      for (int tile = 0, k = 0; tile * B < n; ++k) {
        for (int j = 0; j < B && tile * B + j < n; ++j)
          ref[j] += hx[tile * B + j];
        tile += skip && k % 2 == 1 ? 2 : 1;
      }
      Buffer<int32_t> x(testDevice(), hx);
      Buffer<int32_t> out(testDevice(), std::vector<int32_t>(B + 3, -7));
      kernel.launch({1}, x, out, n, B, skip);
      std::vector<int32_t> got = out.to_host();
      for (int j = 0; j < B; ++j)
        ASSERT_EQ(got[j], ref[j])
            << "n " << n << " skip " << skip << " at " << j;
      for (int j = B; j < B + 3; ++j)
        ASSERT_EQ(got[j], -7);
    }
}

} // namespace
