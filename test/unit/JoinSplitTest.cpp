//===- JoinSplitTest.cpp - join, split, interleave and cat ----------------===//
//
// The public API only, end to end on Device("cpu") (or KTC_SHAPES_DEVICE's
// device: hip with the gfx942 emulator's stand-in HIP runtime, cuda on a
// GPU machine): random data of odd sizes in blocks of power-of-two shape
// (masked), outputs poisoned before the run, exact references (elements
// only moved). Then the errors, at the user's line, and the GPU targets'
// code.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"
#include "ktc/ktc.h"
#include "TestDevice.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

using namespace ktc;

namespace {

using test::testDevice;

int at = 0; // the line an error must point to (set while tracing)

std::vector<float> randomFloats(size_t n, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(gen);
  return v;
}

std::vector<int64_t> randomLongs(size_t n, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::vector<int64_t> v(n);
  for (int64_t &x : v)
    x = int64_t(gen());
  return v;
}

/// Bit-exact equality of floats (NaN, the poison, equals nothing).
bool same(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// out[2i] = a[i], out[2i + 1] = b[i] (i < n), blocks of B per program.
void interleaveKernel(Ptr<float> a, Ptr<float> b, Ptr<float> out, Int n,
                      int B) {
  auto i = program_id(0) * B + arange(0, B);
  auto x = load(a + i, i < n), y = load(b + i, i < n);
  auto k = program_id(0) * (2 * B) + arange(0, 2 * B);
  store(out + k, interleave(x, y), k < 2 * n);
}

TEST(JoinSplit, InterleaveOddLengths) {
  auto kernel = Kernel("interleave", interleaveKernel);
  for (int n : {1, 3, 97, 1000}) {
    for (int B : {2, 64, 256}) {
      SCOPED_TRACE("n " + std::to_string(n) + " B " + std::to_string(B));
      auto ha = randomFloats(n, n), hb = randomFloats(n, n + 1);
      Buffer<float> a(testDevice(), ha), b(testDevice(), hb);
      Buffer<float> out(testDevice(), std::vector<float>(2 * n + 16, NAN));
      kernel.launch({int(cdiv(n, B))}, a, b, out, n, B);
      std::vector<float> got = out.to_host();
      for (int e = 0; e < n; ++e) {
        ASSERT_TRUE(same(got[2 * e], ha[e])) << "a at " << e;
        ASSERT_TRUE(same(got[2 * e + 1], hb[e])) << "b at " << e;
      }
      for (size_t e = 2 * n; e < got.size(); ++e)
        ASSERT_TRUE(std::isnan(got[e])) << "written past the end at " << e;
    }
  }
}

/// The inverse: a[i] = in[2i], b[i] = in[2i + 1], a 2-D tile of pairs
/// (i64, split from reshape(load, {B, 2})).
void splitKernel(Ptr<int64_t> in, Ptr<int64_t> a, Ptr<int64_t> b, Int n,
                 int B) {
  auto k = program_id(0) * (2 * B) + arange(0, 2 * B);
  auto pairs = reshape(load(in + k, k < 2 * n), {B, 2});
  auto [x, y] = split(pairs);
  auto i = program_id(0) * B + arange(0, B);
  store(a + i, x, i < n);
  store(b + i, y, i < n);
}

TEST(JoinSplit, SplitPairsOfLongs) {
  auto kernel = Kernel("split_pairs", splitKernel);
  constexpr int64_t kPoison = 0x7eadbeef7eadbeef;
  for (int n : {1, 5, 333}) {
    for (int B : {1, 16, 128}) {
      SCOPED_TRACE("n " + std::to_string(n) + " B " + std::to_string(B));
      auto hin = randomLongs(2 * n, n * 7 + B);
      Buffer<int64_t> in(testDevice(), hin);
      Buffer<int64_t> a(testDevice(), std::vector<int64_t>(n + 8, kPoison));
      Buffer<int64_t> b(testDevice(), std::vector<int64_t>(n + 8, kPoison));
      kernel.launch({int(cdiv(n, B))}, in, a, b, n, B);
      std::vector<int64_t> ga = a.to_host(), gb = b.to_host();
      for (int e = 0; e < n; ++e) {
        ASSERT_EQ(ga[e], hin[2 * e]) << "at " << e;
        ASSERT_EQ(gb[e], hin[2 * e + 1]) << "at " << e;
      }
      for (int e = n; e < n + 8; ++e)
        ASSERT_TRUE(ga[e] == kPoison && gb[e] == kPoison) << "past " << e;
    }
  }
}

/// out (rows x cols x 2) = join(x, y) of two rows x cols matrices; back =
/// the halves of split(join(x, y)), y's first.
void joinTile(Ptr<float> x, Ptr<float> y, Ptr<float> out, Ptr<float> back,
              Int rows, Int cols) {
  constexpr int BR = 8, BC = 16;
  auto r = expand_dims(arange(0, BR), 1), c = expand_dims(arange(0, BC), 0);
  auto mask = (r < rows) & (c < cols);
  auto a = load(x + r * cols + c, mask), b = load(y + r * cols + c, mask);
  auto j = join(a, b); // BR x BC x 2
  auto e = expand_dims(expand_dims(arange(0, 2), 0), 0);
  auto r3 = expand_dims(r, 2), c3 = expand_dims(c, 2);
  store(out + (r3 * cols + c3) * 2 + e, j,
        (r3 < rows) & (c3 < cols) & (e < 2));
  auto [p, q] = split(j);
  store(back + r * cols + c, q, mask);
  store(back + rows * cols + r * cols + c, p, mask);
}

TEST(JoinSplit, JoinTwoTiles) {
  auto kernel = Kernel("join_tile", joinTile);
  for (auto [rows, cols] : {std::pair{3, 5}, {8, 16}, {1, 1}, {7, 13}}) {
    SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols));
    size_t size = size_t(rows) * cols;
    auto hx = randomFloats(size, rows * 17 + cols);
    auto hy = randomFloats(size, rows * 19 + cols);
    Buffer<float> x(testDevice(), hx), y(testDevice(), hy);
    Buffer<float> out(testDevice(), std::vector<float>(2 * size + 16, NAN));
    Buffer<float> back(testDevice(), std::vector<float>(2 * size + 16, NAN));
    kernel.launch({1}, x, y, out, back, rows, cols);
    std::vector<float> got = out.to_host(), gback = back.to_host();
    for (size_t e = 0; e < size; ++e) {
      ASSERT_TRUE(same(got[2 * e], hx[e])) << "at " << e;
      ASSERT_TRUE(same(got[2 * e + 1], hy[e])) << "at " << e;
      ASSERT_TRUE(same(gback[e], hy[e])) << "back at " << e;
      ASSERT_TRUE(same(gback[size + e], hx[e])) << "back at " << size + e;
    }
    for (size_t e = 2 * size; e < got.size(); ++e)
      ASSERT_TRUE(std::isnan(got[e])) << "written past the end at " << e;
    for (size_t e = 2 * size; e < gback.size(); ++e)
      ASSERT_TRUE(std::isnan(gback[e])) << "back past the end at " << e;
  }
}

/// out (rows x 2 cols) = interleave(x, y) of two rows x cols matrices, a
/// 2-D tile of BR x BC per program (rows and columns masked): the join's
/// pairs reshaped along the rows (free on the GPUs: each thread holds its
/// pairs, lib/Transforms/PairLayouts.h).
void interleaveRows(Ptr<float> x, Ptr<float> y, Ptr<float> out, Int rows,
                    Int cols) {
  constexpr int BR = 8, BC = 32;
  auto r = expand_dims(program_id(0) * BR + arange(0, BR), 1);
  auto c = expand_dims(program_id(1) * BC + arange(0, BC), 0);
  auto mask = (r < rows) & (c < cols);
  auto a = load(x + r * cols + c, mask), b = load(y + r * cols + c, mask);
  auto k = expand_dims(program_id(1) * (2 * BC) + arange(0, 2 * BC), 0);
  store(out + r * (2 * cols) + k, interleave(a, b),
        (r < rows) & (k < 2 * cols));
}

TEST(JoinSplit, InterleaveRowsOfTiles) {
  auto kernel = Kernel("interleave_rows", interleaveRows);
  for (auto [rows, cols] : {std::pair{1, 1}, {9, 33}, {8, 32}, {17, 70}}) {
    SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols));
    size_t size = size_t(rows) * cols;
    auto hx = randomFloats(size, rows * 23 + cols);
    auto hy = randomFloats(size, rows * 29 + cols);
    Buffer<float> x(testDevice(), hx), y(testDevice(), hy);
    Buffer<float> out(testDevice(), std::vector<float>(2 * size + 16, NAN));
    kernel.launch({int(cdiv(rows, 8)), int(cdiv(cols, 32))}, x, y, out, rows,
                  cols);
    std::vector<float> got = out.to_host();
    for (size_t e = 0; e < size; ++e) {
      ASSERT_TRUE(same(got[2 * e], hx[e])) << "x at " << e;
      ASSERT_TRUE(same(got[2 * e + 1], hy[e])) << "y at " << e;
    }
    for (size_t e = 2 * size; e < got.size(); ++e)
      ASSERT_TRUE(std::isnan(got[e])) << "written past the end at " << e;
  }
}

/// out = cat(a, b) of two B-blocks (n elements each, n <= B): a's n
/// elements, then b's, stored at out[0, n) and out[n, 2n).
void catKernel(Ptr<int32_t> a, Ptr<int32_t> b, Ptr<int32_t> out, Int n,
               int B) {
  auto i = arange(0, B);
  auto x = load(a + i, i < n, 0), y = load(b + i, i < n, 0);
  auto k = arange(0, 2 * B);
  auto first = k < B;
  auto offset = where(first, k, n + k - B);
  store(out + offset, cat(x, y), where(first, k < n, k - B < n));
}

TEST(JoinSplit, CatKeepsTheOrder) {
  auto kernel = Kernel("cat", catKernel);
  constexpr int32_t kPoison = 0x7eadbeef;
  for (int n : {1, 3, 64, 100}) {
    int B = n <= 64 ? 64 : 128;
    SCOPED_TRACE(n);
    std::vector<int32_t> ha(n), hb(n);
    for (int e = 0; e < n; ++e)
      ha[e] = e * 7 + 1, hb[e] = -e * 13 - 5;
    Buffer<int32_t> a(testDevice(), ha), b(testDevice(), hb);
    Buffer<int32_t> out(testDevice(), std::vector<int32_t>(2 * n + 8, kPoison));
    kernel.launch({1}, a, b, out, n, B);
    std::vector<int32_t> got = out.to_host();
    for (int e = 0; e < n; ++e) {
      ASSERT_EQ(got[e], ha[e]) << "at " << e;
      ASSERT_EQ(got[n + e], hb[e]) << "at " << n + e;
    }
    for (int e = 2 * n; e < 2 * n + 8; ++e)
      ASSERT_EQ(got[e], kPoison) << "written past the end at " << e;
  }
}

/// Rank 3: interleave and cat of 2 x 4 x 8 cubes (through rank 2), and
/// join of two scalars split back.
void cubeKernel(Ptr<float> x, Ptr<float> y, Ptr<float> inter, Ptr<float> cats,
                Ptr<float> pair) {
  auto i = expand_dims(expand_dims(arange(0, 2), 1), 2);
  auto j = expand_dims(expand_dims(arange(0, 4), 0), 2);
  auto k = expand_dims(expand_dims(arange(0, 8), 0), 0);
  auto a = load(x + (i * 4 + j) * 8 + k), b = load(y + (i * 4 + j) * 8 + k);
  auto k2 = expand_dims(expand_dims(arange(0, 16), 0), 0);
  store(inter + (i * 4 + j) * 16 + k2, interleave(a, b));
  auto i2 = expand_dims(expand_dims(arange(0, 4), 1), 2);
  store(cats + (i2 * 4 + j) * 8 + k, cat(a, b));
  auto [p, q] = split(join(load(x), load(y)));
  store(pair, q);
  store(pair + 1, p);
}

TEST(JoinSplit, CubesAndScalars) {
  auto kernel = Kernel("cubes", cubeKernel);
  auto hx = randomFloats(64, 1), hy = randomFloats(64, 2);
  Buffer<float> x(testDevice(), hx), y(testDevice(), hy);
  Buffer<float> inter(testDevice(), std::vector<float>(128 + 8, NAN));
  Buffer<float> cats(testDevice(), std::vector<float>(128 + 8, NAN));
  Buffer<float> pair(testDevice(), std::vector<float>(2 + 8, NAN));
  kernel.launch({1}, x, y, inter, cats, pair);
  std::vector<float> gi = inter.to_host(), gc = cats.to_host(),
                     gp = pair.to_host();
  for (int e = 0; e < 64; ++e) {
    ASSERT_TRUE(same(gi[2 * e], hx[e]) && same(gi[2 * e + 1], hy[e])) << e;
    ASSERT_TRUE(same(gc[e], hx[e]) && same(gc[64 + e], hy[e])) << e;
  }
  EXPECT_TRUE(same(gp[0], hy[0]) && same(gp[1], hx[0]));
  for (int e = 128; e < 136; ++e)
    ASSERT_TRUE(std::isnan(gi[e]) && std::isnan(gc[e])) << e;
  for (int e = 2; e < 10; ++e)
    ASSERT_TRUE(std::isnan(gp[e])) << e;
}

TEST(JoinSplit, ErrorsAtTheUsersLine) {
  auto expect = [](auto body, const std::string &message) {
    test::expectErrorAt(
        [&] { Kernel("bad", {"p"}, body).emit("mlir", "host"); }, message,
        __FILE__, at);
  };
  expect(
      [](Ptr<float> p) {
        auto x = load(p + arange(0, 4));
        at = __LINE__ + 1;
        join(x, x.to(DType::f16));
      },
      "join() takes two values of one element type, got tensor<4xf32> and "
      "tensor<4xf16>; convert one with .to()");
  expect(
      [](Ptr<float> p) {
        auto x = reshape(load(p + arange(0, 8)), {2, 2, 2});
        at = __LINE__ + 1;
        join(x, x);
      },
      "join() of two tensor<2x2x2xf32> blocks would make a rank-4 block; "
      "blocks have rank 1, 2 or 3 (interleave() and cat() take rank-3 "
      "blocks)");
  expect(
      [](Ptr<float> p) {
        auto x = load(p + arange(0, 8));
        at = __LINE__ + 1;
        split(reshape(x, {2, 4}));
      },
      "split() takes a block whose last dimension has size 2, got a "
      "tensor<2x4xf32>");
  expect(
      [](Ptr<float> p) {
        at = __LINE__ + 1;
        split(load(p));
      },
      "split() takes a block whose last dimension has size 2, got the "
      "scalar f32");
  expect(
      [](Ptr<float> p) {
        auto x = load(p + arange(0, 8));
        at = __LINE__ + 1;
        cat(x, load(p + arange(0, 4)));
      },
      "cat() takes two blocks of one shape, got tensor<8xf32> and "
      "tensor<4xf32>");
  expect(
      [](Ptr<float> p) {
        auto q = p + arange(0, 4);
        at = __LINE__ + 1;
        interleave(q, q);
      },
      "interleave() of pointers (tensor<4x!ktc.ptr<f32>>) is not supported; "
      "join the offsets and add them to the pointer");
}

/// On the GPU targets: interleave and split compile for each (as a launch
/// compiles them: buffers 16-byte aligned), and move nothing between
/// threads: the default layouts keep each pair in a thread and the 1-D
/// rows in even runs (lib/Transforms/PairLayouts.h), so no shared memory
/// (LDS), no shuffle, no barrier.
TEST(JoinSplit, GpuTargetsCompileThem) {
  auto kernel = Kernel("interleave_gpu",
                       [](Ptr<float> a, Ptr<float> b, Ptr<float> out) {
                         auto i = arange(0, 256);
                         auto k = arange(0, 512);
                         store(out + k, interleave(load(a + i), load(b + i)));
                         auto [x, y] = split(reshape(load(out + k), {256, 2}));
                         store(a + i, y);
                         store(b + i, x);
                       });
  for (const char *target : {"sm_90", "gfx942", "gfx1100"}) {
    SCOPED_TRACE(target);
    std::string asm_ = kernel.emit_as_launched(
        "asm", target, AnyBuffer<float>(), AnyBuffer<float>(),
        AnyBuffer<float>());
    EXPECT_NE(asm_.find("interleave_gpu"), std::string::npos);
    for (const char *moves : {".shared", "shfl", "bar.sync", "ds_bpermute",
                              "_dpp", "s_barrier"})
      EXPECT_EQ(asm_.find(moves), std::string::npos) << moves;
    if (target[0] == 'g')
      EXPECT_NE(asm_.find(".group_segment_fixed_size: 0"), std::string::npos);
  }
}

} // namespace
