//===- GatherTest.cpp - gather, softmax; Standard.h's errors and targets -===//
//
// ktc::gather against an exact reference (bits moved, NaN payloads and -0
// kept; an index out of range gives 0) and ktc::softmax against a float64
// one, on odd sizes with poisoned outputs (CPU, or KTC_SHAPES_DEVICE's
// device). Then every error of include/ktc/Standard.h at the user's line,
// and the four functions compiled for sm_90, gfx942 and gfx1100 without
// scratch.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"

#include "ktc/ktc.h"
#include "TestDevice.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace ktc;

namespace {

int at = 0; // the line an error must point to
void expectError(const std::function<void()> &f, const std::string &message) {
  test::expectErrorAt(f, message, __FILE__, at);
}

using test::testDevice;

/// out[i][j] = src[index[i][j]][j] (axis 0) or src[i][index[i][j]] (axis
/// 1) for an R x K src tile and an R x M (axis 1) or M x K (axis 0) index
/// tile; rows x cols of src and of index read (the rest 0).
void gatherTile(Ptr<float> src, Ptr<int32_t> index, Ptr<float> out, Int rows,
                Int cols, Int irows, Int icols, int R, int K, int IR, int IC,
                int axis) {
  auto r = expand_dims(arange(0, R), 1), c = expand_dims(arange(0, K), 0);
  auto s = load(src + r * cols + c, (r < rows) & (c < cols), 0.0f);
  auto ir = expand_dims(arange(0, IR), 1), ic = expand_dims(arange(0, IC), 0);
  auto imask = (ir < irows) & (ic < icols);
  auto ix = load(index + ir * icols + ic, imask, 0);
  store(out + ir * icols + ic, gather(s, ix, axis), imask);
}

TEST(Gather, ExactBitsBothAxes) {
  auto kernel = Kernel("gather_tile", gatherTile);
  std::mt19937 gen(21);
  // {rows, cols, R, K, gathered count, its block}
  for (auto [rows, cols, R, K, m, M] : {std::array<int, 6>{1, 1, 1, 1, 1, 1},
                                        {3, 5, 4, 8, 7, 8},
                                        {13, 30, 16, 32, 9, 16},
                                        {5, 100, 8, 128, 3, 4}}) {
    for (int axis : {0, 1, -1}) {
      SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols) +
                   " m " + std::to_string(m) + " axis " +
                   std::to_string(axis));
      bool a0 = axis == 0;
      int len = a0 ? R : K; // the gathered axis' block size
      std::vector<float> hs(rows * cols);
      for (float &x : hs) {
        uint32_t b = uint32_t(gen());
        if (gen() % 6 == 0) // NaNs with payloads, -0, subnormals
          b = (b & 0x807fffffu) | (gen() % 2 ? 0x7f800000u : 0u);
        std::memcpy(&x, &b, 4);
      }
      int irows = a0 ? m : rows, icols = a0 ? cols : m;
      int IR = a0 ? M : R, IC = a0 ? K : M;
      std::vector<int32_t> hi(irows * icols);
      for (int32_t &v : hi) // mostly in range, some out (below and above)
        v = int32_t(gen() % (len + 4)) - 2;
      Buffer<float> src(testDevice(), hs);
      Buffer<int32_t> index(testDevice(), hi);
      const uint32_t poison = 0x7fbadbadu;
      float fpoison;
      std::memcpy(&fpoison, &poison, 4);
      Buffer<float> out(testDevice(),
                        std::vector<float>(irows * icols + 8, fpoison));
      kernel.launch({1}, src, index, out, rows, cols, irows, icols, R, K, IR,
                    IC, axis);
      std::vector<float> got = out.to_host();
      auto tile = [&](int i, int j) { // the padded src tile
        return i < rows && j < cols ? hs[i * cols + j] : 0.0f;
      };
      for (int i = 0; i < irows; ++i)
        for (int j = 0; j < icols; ++j) {
          int k = hi[i * icols + j];
          float want = k < 0 || k >= len ? 0.0f
                       : a0              ? tile(k, j)
                                         : tile(i, k);
          float g = got[i * icols + j];
          ASSERT_EQ(std::memcmp(&g, &want, 4), 0)
              << "at " << i << "," << j << " index " << k << ": " << g
              << " want " << want;
        }
      for (size_t e = irows * icols; e < got.size(); ++e)
        ASSERT_EQ(std::memcmp(&got[e], &poison, 4), 0) << "past end " << e;
    }
  }
}

/// A 1-D gather of i64 by an i64 index (a table lookup).
TEST(Gather, LongsByLongIndex) {
  auto kernel = Kernel("gather_1d", [](Ptr<int64_t> table, Ptr<int64_t> idx,
                                       Ptr<int64_t> out, Int n) {
    auto i = arange(0, 64);
    store(out + i,
          gather(load(table + arange(0, 16)), load(idx + i, i < n, 0), 0),
          i < n);
  });
  std::mt19937_64 gen(5);
  std::vector<int64_t> table(16), idx(61);
  for (int64_t &v : table)
    v = int64_t(gen());
  for (int64_t &v : idx)
    v = int64_t(gen() % 16) + ((gen() % 9 == 0) ? (int64_t(1) << 32) : 0);
  Buffer<int64_t> t(testDevice(), table), ix(testDevice(), idx);
  Buffer<int64_t> out(testDevice(), std::vector<int64_t>(64, -5));
  kernel.launch({1}, t, ix, out, 61);
  std::vector<int64_t> got = out.to_host();
  for (int e = 0; e < 61; ++e)
    ASSERT_EQ(got[e], idx[e] < 16 ? table[idx[e]] : 0) << e;
  for (int e = 61; e < 64; ++e)
    ASSERT_EQ(got[e], -5) << e;
}

/// softmax of rows x cols (padding -inf) along `dim`.
void softmaxTile(Ptr<float> in, Ptr<float> out, Int rows, Int cols, int R,
                 int C, int dim, bool ieee) {
  auto r = expand_dims(arange(0, R), 1), c = expand_dims(arange(0, C), 0);
  auto mask = (r < rows) & (c < cols);
  auto x = load(in + r * cols + c, mask, -INFINITY);
  store(out + r * cols + c, softmax(x, dim, ieee), mask);
}

TEST(Softmax, AgainstFloat64) {
  auto kernel = Kernel("softmax_tile", softmaxTile);
  std::mt19937 gen(8);
  std::uniform_real_distribution<float> d(-30.0f, 30.0f);
  for (auto [rows, cols, R, C] : {std::array<int, 4>{1, 1, 1, 1},
                                  {3, 7, 4, 8},
                                  {9, 300, 16, 512}}) {
    for (int dim : {1, 0}) {
      for (bool ieee : {false, true}) {
        SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols) +
                     " dim " + std::to_string(dim) + (ieee ? " ieee" : ""));
        std::vector<float> host(rows * cols);
        for (float &x : host)
          x = d(gen);
        Buffer<float> in(testDevice(), host);
        Buffer<float> out(testDevice(),
                          std::vector<float>(rows * cols + 4, NAN));
        kernel.launch({1}, in, out, rows, cols, R, C, dim, ieee);
        std::vector<float> got = out.to_host();
        for (int i = 0; i < rows; ++i)
          for (int j = 0; j < cols; ++j) {
            float mx = -INFINITY;
            double s = 0;
            int n = dim == 1 ? cols : rows;
            auto at = [&](int k) {
              return dim == 1 ? host[i * cols + k] : host[k * cols + j];
            };
            for (int k = 0; k < n; ++k)
              mx = std::max(mx, at(k));
            // z = x - max is rounded to f32, as Triton's (and ktc's) is.
            for (int k = 0; k < n; ++k)
              s += std::exp(double(at(k) - mx));
            double want = std::exp(double(host[i * cols + j] - mx)) / s;
            // exp's and the sum's rounding, and fdiv's (2 ulp on NVPTX).
            EXPECT_NEAR(got[i * cols + j], want, 1.5e-6 * want + 1e-37)
                << i << "," << j;
          }
        for (size_t e = rows * cols; e < got.size(); ++e)
          ASSERT_TRUE(std::isnan(got[e])) << "past the end at " << e;
      }
    }
  }
}

TEST(Standard, ErrorsAtTheUsersLine) {
  auto expect = [](auto body, const std::string &message) {
    expectError([&] { Kernel("bad", {"p", "q"}, body).emit("mlir", "host"); },
                message);
  };
  using P = Ptr<int32_t>;
  using F = Ptr<float>;
  expect([](P p, F) { at = __LINE__; histogram(load(p + arange(0, 8)), 12); },
         "histogram() num_bins must be a positive power of two, got 12");
  expect([](P p, F) { at = __LINE__; histogram(load(p + arange(0, 8)), 0); },
         "histogram() num_bins must be a positive power of two, got 0");
  expect([](P, F q) { at = __LINE__; histogram(load(q + arange(0, 8)), 4); },
         "histogram() needs a 1-D block of integers, got tensor<8xf32>; "
         "cast() it to an integer first");
  expect(
      [](P p, F) {
        auto x = reshape(load(p + arange(0, 8)), {2, 4});
        at = __LINE__ + 1;
        histogram(x, 4);
      },
      "histogram() needs a 1-D block of integers, got tensor<2x4xi32>; "
      "reshape() it to 1-D first");
  expect(
      [](P p, F) {
        auto x = load(p + arange(0, 8));
        at = __LINE__ + 1;
        histogram(x, 4, arange(0, 4) < 2);
      },
      "histogram() mask must be booleans (i1) of x's shape [8], got "
      "tensor<4xi1>");
  expect(
      [](P p, F) {
        auto x = load(p + arange(0, 4096));
        at = __LINE__ + 1;
        histogram(x, 512);
      },
      "histogram() of 4096 elements into 512 bins compares 2097152 pairs, "
      "more than a block's limit of 1048576 (2^20); count smaller blocks and "
      "add the counts");
  expect(
      [](P p, F q) {
        auto s = reshape(load(q + arange(0, 4096)), {2, 2048});
        auto i = reshape(load(p + arange(0, 1024)), {2, 512});
        at = __LINE__ + 1;
        gather(s, i, 1);
      },
      "gather() of 1024 elements from 2048 along the axis compares 2097152 "
      "pairs, more than a block's limit of 1048576 (2^20); gather in smaller "
      "blocks");
  expect([](P p, F) { at = __LINE__; histogram(load(p), 4); },
         "histogram() needs a block x, got i32");
  expect([](P p, F) { at = __LINE__; sort(load(p)); },
         "sort() needs a block, got i32");
  expect([](P p, F) { at = __LINE__; sort(load(p + arange(0, 8)), 1); },
         "sort() dimension 1 is out of range for a block of rank 1");
  expect([](P p, F) { at = __LINE__; sort(p + arange(0, 8)); },
         "sort() of a block of pointers; sort the offsets instead");
  expect(
      [](P p, F q) {
        auto s = reshape(load(q + arange(0, 8)), {2, 4});
        auto i = reshape(load(p + arange(0, 8)), {4, 2});
        at = __LINE__ + 1;
        gather(s, i, 0);
      },
      "gather() index of shape [4, 2] does not fit src of shape [2, 4] along "
      "axis 0: the same rank, and the same size on every other axis");
  expect(
      [](P p, F q) {
        auto s = reshape(load(q + arange(0, 8)), {2, 4});
        at = __LINE__ + 1;
        gather(s, load(p + arange(0, 4)), 1);
      },
      "gather() index of shape [4] does not fit src of shape [2, 4] along "
      "axis 1: the same rank, and the same size on every other axis");
  expect(
      [](P, F q) {
        auto s = load(q + arange(0, 8));
        at = __LINE__ + 1;
        gather(s, s, 0);
      },
      "gather() index must be integers, got tensor<8xf32>");
  expect(
      [](P p, F q) {
        auto s = load(q + arange(0, 8));
        at = __LINE__ + 1;
        gather(s, load(p + arange(0, 8)), 2);
      },
      "gather() axis 2 is out of range for a block of rank 1");
  expect([](P p, F) { at = __LINE__; softmax(load(p + arange(0, 8))); },
         "softmax() needs floats, got tensor<8xi32>; cast() integers first");
  expect([](P, F q) { at = __LINE__; softmax(load(q + arange(0, 8)), 1); },
         "softmax() dimension 1 is out of range for a block of rank 1");
}

/// The four compiled for the GPU targets: no error, and (AMD, where the
/// code object says) no scratch and no spills.
TEST(Standard, GpuTargetsCompileThemWithoutScratch) {
  auto kernel = Kernel("standard_gpu", [](Ptr<float> x, Ptr<int32_t> ix) {
    auto i = arange(0, 256);
    auto t = reshape(i, {16, 16});
    auto v = reshape(load(x + i), {16, 16});
    store(x + t, sort(v, 1, true) + softmax(v, 1));
    store(x + t, gather(v, load(ix + t) & 15, 0), load(ix + t) > 3);
    store(ix + arange(0, 64), histogram(load(ix + i), 64, load(x + i) > 0));
  });
  for (const char *target : {"sm_90", "gfx942", "gfx1100"}) {
    SCOPED_TRACE(target);
    std::string asm_ = kernel.emit_as_launched(
        "asm", target, AnyBuffer<float>(), AnyBuffer<int32_t>());
    EXPECT_NE(asm_.find("standard_gpu"), std::string::npos);
    if (target[0] == 'g') {
      KernelInfo info = kernel.info_as_launched(target, AnyBuffer<float>(),
                                                AnyBuffer<int32_t>());
      EXPECT_EQ(info.scratch_bytes, 0) << to_string(info);
      EXPECT_EQ(info.spills, 0) << to_string(info);
    } else {
      EXPECT_EQ(asm_.find(".local"), std::string::npos);
    }
  }
}

} // namespace
