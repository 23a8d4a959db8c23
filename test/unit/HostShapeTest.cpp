//===- HostShapeTest.cpp - rank-3 blocks, trans, permute, reshape on the CPU =//
//
// The public API only, end to end on Device("cpu") (or KTC_SHAPES_DEVICE's
// device, see testDevice): random data of odd
// sizes in blocks of power-of-two shape (masked), outputs poisoned before
// the run, exact references (integers, or floats only moved, never added).
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"
#include "ktc/ktc.h"
#include "TestDevice.h"

#include <gtest/gtest.h>

#include <array>
#include <climits>
#include <cmath>
#include <cstring>
#include <random>

using namespace ktc;

namespace {

/// The host CPU; KTC_SHAPES_DEVICE names another device to run the same
/// checks on (hip with the gfx942 emulator's stand-in HIP runtime,
/// scripts/gfx942-conformance.sh's setup; cuda on a GPU machine).
using test::testDevice;

int at = 0; // the line an error must point to (set while tracing)

constexpr int32_t kPoison = 0x7eadbeef;

std::vector<int32_t> randomInts(size_t n, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_int_distribution<int32_t> dist(-100000, 100000);
  std::vector<int32_t> v(n);
  for (int32_t &x : v)
    x = dist(gen);
  return v;
}

std::vector<float> randomFloats(size_t n, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(gen);
  return v;
}

/// Bit-exact equality of floats (NaN, the poison, equals nothing).
bool same(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// i, j, k of a B0 x B1 x B2 block: aranges expanded to B0x1x1, 1xB1x1 and
/// 1x1xB2.
std::array<Value, 3> cubeIndices(int B0, int B1, int B2) {
  return {expand_dims(expand_dims(arange(0, B0), 1), 2),
          expand_dims(expand_dims(arange(0, B1), 0), 2),
          expand_dims(expand_dims(arange(0, B2), 0), 0)};
}

//===----------------------------------------------------------------------===//
// A 3-D block reduced along each axis
//===----------------------------------------------------------------------===//

enum Kind { Sum, Max, Min };

/// in: a d0 x d1 x d2 array (row-major) in one 4x8x16 block; out: its
/// reduction along AXIS, a 2-D array of the two other dimensions.
void reduceCube(Ptr<int32_t> in, Ptr<int32_t> out, Int d0, Int d1, Int d2,
                int AXIS, int KIND) {
  constexpr int B0 = 4, B1 = 8, B2 = 16;
  auto [i, j, k] = cubeIndices(B0, B1, B2);
  auto mask = (i < d0) & (j < d1) & (k < d2);
  int32_t identity = KIND == Sum ? 0 : KIND == Max ? INT32_MIN : INT32_MAX;
  // The 1-D arange broadcasts as k does (two unit dimensions in front).
  auto x = load(in + (i * d1 + j) * d2 + arange(0, B2), mask, identity);
  Value r = KIND == Sum ? sum(x, AXIS) : KIND == Max ? max(x, AXIS)
                                                     : min(x, AXIS);
  // The indices of the two dimensions left, as a 2-D block's rows and
  // columns.
  std::vector<Value> ids{arange(0, B0), arange(0, B1), arange(0, B2)};
  std::vector<Value> dims{d0, d1, d2};
  ids.erase(ids.begin() + AXIS);
  dims.erase(dims.begin() + AXIS);
  auto rows = expand_dims(ids[0], 1), cols = expand_dims(ids[1], 0);
  store(out + rows * dims[1] + cols, r, (rows < dims[0]) & (cols < dims[1]));
}

TEST(HostShapes, ACubeReducedAlongEachAxis) {
  auto kernel = Kernel("reduce_cube", reduceCube);
  for (auto [d0, d1, d2] : {std::array{3, 5, 7}, {4, 8, 16}, {1, 1, 1},
                            {2, 7, 13}}) {
    auto hin = randomInts(size_t(d0) * d1 * d2, d0 * 100 + d1 * 10 + d2);
    Buffer<int32_t> in(testDevice(), hin);
    std::array<int, 3> d{d0, d1, d2};
    for (int axis = 0; axis < 3; ++axis)
      for (int kind : {Sum, Max, Min}) {
        SCOPED_TRACE(std::to_string(d0) + "x" + std::to_string(d1) + "x" +
                     std::to_string(d2) + " axis " + std::to_string(axis) +
                     " kind " + std::to_string(kind));
        int p = axis == 0 ? 1 : 0, q = axis == 2 ? 1 : 2; // dims left
        size_t outSize = size_t(d[p]) * d[q];
        Buffer<int32_t> out(testDevice(),
                            std::vector<int32_t>(outSize + 16, kPoison));
        kernel.launch({1}, in, out, d0, d1, d2, axis, kind);
        std::vector<int32_t> got = out.to_host();
        for (int a = 0; a < d[p]; ++a)
          for (int b = 0; b < d[q]; ++b) {
            int64_t want = kind == Sum ? 0 : kind == Max ? INT32_MIN
                                                         : INT32_MAX;
            for (int r = 0; r < d[axis]; ++r) {
              std::array<int, 3> at{};
              at[axis] = r;
              at[p] = a;
              at[q] = b;
              int32_t v = hin[(size_t(at[0]) * d1 + at[1]) * d2 + at[2]];
              want = kind == Sum   ? want + v
                     : kind == Max ? std::max<int64_t>(want, v)
                                   : std::min<int64_t>(want, v);
            }
            ASSERT_EQ(got[size_t(a) * d[q] + b], int32_t(want))
                << "at " << a << ", " << b;
          }
        for (size_t e = outSize; e < got.size(); ++e)
          ASSERT_EQ(got[e], kPoison) << "written past the end at " << e;
      }
  }
}

//===----------------------------------------------------------------------===//
// trans of a 2-D tile
//===----------------------------------------------------------------------===//

/// out (cols x rows) = the transpose of in (rows x cols), one BR x BC tile
/// per program.
void transTile(Ptr<float> in, Ptr<float> out, Int rows, Int cols, int BR,
               int BC) {
  auto r = program_id(0) * BR + expand_dims(arange(0, BR), 1); // BR x 1
  auto c = program_id(1) * BC + expand_dims(arange(0, BC), 0); // 1 x BC
  auto tile = load(in + r * cols + c, (r < rows) & (c < cols));
  auto t = trans(tile);              // BC x BR
  auto tr = trans(r), tc = trans(c); // 1 x BR, BC x 1
  store(out + tc * rows + tr, t, (tc < cols) & (tr < rows));
}

TEST(HostShapes, TransposeTiles) {
  auto kernel = Kernel("trans_tile", transTile);
  for (auto [rows, cols] : {std::pair{13, 21}, {1, 1}, {8, 16}, {37, 5}}) {
    SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols));
    auto hin = randomFloats(size_t(rows) * cols, rows * 31 + cols);
    Buffer<float> in(testDevice(), hin);
    size_t size = size_t(rows) * cols;
    Buffer<float> out(testDevice(), std::vector<float>(size + 16, NAN));
    kernel.launch({int(cdiv(rows, 8)), int(cdiv(cols, 16))}, in, out, rows,
                  cols, 8, 16);
    std::vector<float> got = out.to_host();
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j)
        ASSERT_TRUE(same(got[size_t(j) * rows + i], hin[size_t(i) * cols + j]))
            << "at " << i << ", " << j;
    for (size_t e = size; e < got.size(); ++e)
      ASSERT_TRUE(std::isnan(got[e])) << "written past the end at " << e;
  }
}

//===----------------------------------------------------------------------===//
// permute of a 3-D tile
//===----------------------------------------------------------------------===//

/// out = in (d0 x d1 x d2) with its dimensions in the order P0, P1, P2.
void permuteCube(Ptr<float> in, Ptr<float> out, Int d0, Int d1, Int d2,
                 int P0, int P1, int P2) {
  constexpr int B[] = {2, 8, 4};
  auto [i, j, k] = cubeIndices(B[0], B[1], B[2]);
  auto x = load(in + (i * d1 + j) * d2 + k, (i < d0) & (j < d1) & (k < d2));
  auto y = permute(x, {P0, P1, P2});
  // The output's indices and sizes, built in its own (permuted) shape.
  std::vector<Value> dims{d0, d1, d2};
  auto [a, b, c] = cubeIndices(B[P0], B[P1], B[P2]);
  Value n0 = dims[P0], n1 = dims[P1], n2 = dims[P2];
  store(out + (a * n1 + b) * n2 + c, y, (a < n0) & (b < n1) & (c < n2));
}

TEST(HostShapes, PermuteACube) {
  auto kernel = Kernel("permute_cube", permuteCube);
  std::array<std::array<int, 3>, 6> perms{{{0, 1, 2},
                                           {0, 2, 1},
                                           {1, 0, 2},
                                           {1, 2, 0},
                                           {2, 0, 1},
                                           {2, 1, 0}}};
  for (auto d : {std::array{1, 7, 3}, {2, 5, 4}, {2, 8, 4}}) {
    auto hin = randomFloats(size_t(d[0]) * d[1] * d[2], d[0] + d[1] + d[2]);
    Buffer<float> in(testDevice(), hin);
    size_t size = hin.size();
    for (auto p : perms) {
      SCOPED_TRACE(std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" +
                   std::to_string(d[2]) + " perm " + std::to_string(p[0]) +
                   std::to_string(p[1]) + std::to_string(p[2]));
      Buffer<float> out(testDevice(), std::vector<float>(size + 16, NAN));
      kernel.launch({1}, in, out, d[0], d[1], d[2], p[0], p[1], p[2]);
      std::vector<float> got = out.to_host();
      for (int a = 0; a < d[p[0]]; ++a)
        for (int b = 0; b < d[p[1]]; ++b)
          for (int c = 0; c < d[p[2]]; ++c) {
            std::array<int, 3> at{};
            at[p[0]] = a;
            at[p[1]] = b;
            at[p[2]] = c;
            float want = hin[(size_t(at[0]) * d[1] + at[1]) * d[2] + at[2]];
            ASSERT_TRUE(same(
                got[(size_t(a) * d[p[1]] + b) * d[p[2]] + c], want))
                << "at " << a << ", " << b << ", " << c;
          }
      for (size_t e = size; e < got.size(); ++e)
        ASSERT_TRUE(std::isnan(got[e])) << "written past the end at " << e;
    }
  }
}

//===----------------------------------------------------------------------===//
// reshape between 2-D and 1-D
//===----------------------------------------------------------------------===//

/// flat (BR * BC) = the rows x cols array `in` in a BR x BC tile, -1 where
/// the tile is outside it, row after row; tile (rows x ld) = the first
/// rows * BC elements of `flat_in` read back as rows of BC.
void reshapes(Ptr<float> in, Ptr<float> flat, Ptr<float> flat_in,
              Ptr<float> tile, Int rows, Int cols, Int ld, int BR, int BC) {
  auto r = expand_dims(arange(0, BR), 1), c = expand_dims(arange(0, BC), 0);
  auto x = load(in + r * cols + c, (r < rows) & (c < cols), -1.0f);
  store(flat + arange(0, BR * BC), reshape(x, {BR * BC}));
  auto n = arange(0, BR * BC);
  auto y = reshape(load(flat_in + n, n < rows * BC), {BR, BC});
  store(tile + r * ld + c, y, r < rows);
}

TEST(HostShapes, ReshapeBetweenTwoAndOneDimensions) {
  auto kernel = Kernel("reshapes", reshapes);
  constexpr int BR = 8, BC = 16;
  for (auto [rows, cols] : {std::pair{5, 11}, {8, 16}, {1, 1}, {7, 3}}) {
    SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols));
    int ld = BC + 3; // the tile's rows apart in memory
    auto hin = randomFloats(size_t(rows) * cols, rows * 7 + cols);
    auto hflat = randomFloats(size_t(BR) * BC, rows + cols * 3);
    Buffer<float> in(testDevice(), hin), flatIn(testDevice(), hflat);
    Buffer<float> flat(testDevice(), std::vector<float>(BR * BC + 16, NAN));
    Buffer<float> tile(testDevice(), std::vector<float>(size_t(BR) * ld + 16, NAN));
    kernel.launch({1}, in, flat, flatIn, tile, rows, cols, ld, BR, BC);
    std::vector<float> gotFlat = flat.to_host(), gotTile = tile.to_host();
    for (int i = 0; i < BR; ++i)
      for (int j = 0; j < BC; ++j) {
        float want = i < rows && j < cols ? hin[size_t(i) * cols + j] : -1.0f;
        ASSERT_TRUE(same(gotFlat[i * BC + j], want)) << i << ", " << j;
      }
    for (size_t e = BR * BC; e < gotFlat.size(); ++e)
      ASSERT_TRUE(std::isnan(gotFlat[e])) << "written past the end at " << e;
    for (int i = 0; i < BR; ++i)
      for (int j = 0; j < ld; ++j) {
        float got = gotTile[size_t(i) * ld + j];
        if (i < rows && j < BC)
          ASSERT_TRUE(same(got, hflat[i * BC + j])) << i << ", " << j;
        else
          ASSERT_TRUE(std::isnan(got)) << "written at " << i << ", " << j;
      }
  }
}

/// reshape and permute of pointers: a 3-D block of addresses flattened and
/// stored through (each element to its own address).
TEST(HostShapes, ReshapedAndPermutedPointers) {
  auto kernel = Kernel("pointers", [](Ptr<int32_t> out, Int n) {
    auto [i, j, k] = cubeIndices(2, 4, 8);
    auto offs = (i * 4 + j) * 8 + k; // 2x4x8, row-major
    // 8x2x4, then 64 in that order.
    auto ptrs = reshape(permute(out + offs, {2, 0, 1}), {64});
    auto vals = reshape(permute(offs, {2, 0, 1}), {64});
    auto m = reshape(permute(offs < n, {2, 0, 1}), {64});
    store(ptrs, vals * 3, m);
  });
  for (int n : {64, 37, 1}) {
    SCOPED_TRACE(n);
    Buffer<int32_t> out(testDevice(), std::vector<int32_t>(64 + 16, kPoison));
    kernel.launch({1}, out, n);
    std::vector<int32_t> got = out.to_host();
    for (int e = 0; e < int(got.size()); ++e)
      ASSERT_EQ(got[e], e < n ? e * 3 : kPoison) << e;
  }
}

/// A loop over chunks of a d0 x d1 x d2 array (chunks of 4 along d2),
/// loads issued ahead (num_stages), a 3-D block and its permutation carried
/// in Vars: out[j, i] = sum over k of in[i, j, k], as a 2-D block.
void chunkedSum(Ptr<int32_t> in, Ptr<int32_t> out, Int d0, Int d1, Int d2) {
  auto [i, j, k] = cubeIndices(4, 8, 4);
  Var acc = zeros({4, 8, 4}, DType::i32);
  for_range(0, d2, 4, [&](Value start) {
    auto kk = start + k;
    acc = acc + load(in + (i * d1 + j) * d2 + kk,
                     (i < d0) & (j < d1) & (kk < d2), 0);
  });
  Var t = permute(acc, {1, 0, 2}); // 8x4x4
  auto s = sum(t, 2);              // 8x4: [j, i]
  auto r = expand_dims(arange(0, 8), 1), c = expand_dims(arange(0, 4), 0);
  store(out + r * d0 + c, s, (r < d1) & (c < d0));
}

TEST(HostShapes, PipelinedLoopsOverCubes) {
  auto kernel = Kernel("chunked_sum", chunkedSum);
  for (int stages : {1, 2, 3})
    for (auto d : {std::array{3, 5, 13}, {4, 8, 4}, {1, 1, 1}, {2, 7, 30}}) {
      SCOPED_TRACE(std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" +
                   std::to_string(d[2]) + ", " + std::to_string(stages) +
                   " stages");
      auto hin = randomInts(size_t(d[0]) * d[1] * d[2], d[2] * 3 + stages);
      Buffer<int32_t> in(testDevice(), hin);
      size_t size = size_t(d[0]) * d[1];
      Buffer<int32_t> out(testDevice(), std::vector<int32_t>(size + 16, kPoison));
      kernel.launch({1}, in, out, d[0], d[1], d[2],
                    Options{.num_stages = stages});
      std::vector<int32_t> got = out.to_host();
      for (int a = 0; a < d[0]; ++a)
        for (int b = 0; b < d[1]; ++b) {
          int32_t want = 0;
          for (int e = 0; e < d[2]; ++e)
            want += hin[(size_t(a) * d[1] + b) * d[2] + e];
          ASSERT_EQ(got[size_t(b) * d[0] + a], want) << a << ", " << b;
        }
      for (size_t e = size; e < got.size(); ++e)
        ASSERT_EQ(got[e], kPoison) << "written past the end at " << e;
    }
}

/// 16-bit floats and 64-bit integers keep their bits through trans and
/// reshape (the host moves f16/bf16 as i16).
TEST(HostShapes, HalfFloatsAndLongsMoveExactly) {
  auto kernel = Kernel("moves", [](Ptr<half> h, Ptr<bfloat16> b, Ptr<int64_t> l,
                                   Ptr<half> ho, Ptr<bfloat16> bo,
                                   Ptr<int64_t> lo) {
    auto r = expand_dims(arange(0, 4), 1), c = expand_dims(arange(0, 8), 0);
    auto in = r * 8 + c;                // 4x8, row-major
    auto out = trans(c) * 4 + trans(r); // 8x4, row-major
    store(ho + out, trans(load(h + in)));
    store(bo + reshape(in, {32}), reshape(load(b + in), {32}));
    store(lo + reshape(out, {2, 4, 4}),
          reshape(trans(load(l + in)), {2, 4, 4}));
  });
  std::mt19937_64 gen(7);
  std::vector<half> hh(32);
  std::vector<bfloat16> hb(32);
  std::vector<int64_t> hl(32);
  for (int e = 0; e < 32; ++e) {
    hh[e].bits = uint16_t(gen());
    hb[e].bits = uint16_t(gen());
    hl[e] = int64_t(gen());
  }
  Buffer<half> h(testDevice(), hh), ho(testDevice(), std::vector<half>(32, half{0xffff}));
  Buffer<bfloat16> b(testDevice(), hb),
      bo(testDevice(), std::vector<bfloat16>(32, bfloat16{0xffff}));
  Buffer<int64_t> l(testDevice(), hl), lo(testDevice(), std::vector<int64_t>(32, -1));
  kernel.launch({1}, h, b, l, ho, bo, lo);
  std::vector<half> gh = ho.to_host();
  std::vector<bfloat16> gb = bo.to_host();
  std::vector<int64_t> gl = lo.to_host();
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j) {
      EXPECT_EQ(gh[j * 4 + i].bits, hh[i * 8 + j].bits) << i << ", " << j;
      EXPECT_EQ(gb[i * 8 + j].bits, hb[i * 8 + j].bits) << i << ", " << j;
      EXPECT_EQ(gl[j * 4 + i], hl[i * 8 + j]) << i << ", " << j;
    }
}

/// A checked launch follows pointers through permute and reshape to the
/// buffer they point into.
void permutedStore(Ptr<float> out) {
  auto [i, j, k] = cubeIndices(2, 4, 8);
  // Stored in the order of the 8x2x4 block: offsets 0, 8, 16, 24, 32, 40...
  auto ptrs = reshape(permute(out + (i * 4 + j) * 8 + k, {2, 0, 1}), {64});
  at = __LINE__; store(ptrs, 1.0f);
}

TEST(HostShapes, CheckedLaunchThroughPermutedPointers) {
  if (testDevice().kind() != DeviceKind::CPU)
    GTEST_SKIP() << "checked launches are the host's";
  Kernel k("oob", {"out"}, permutedStore);
  Buffer<float> small(testDevice(), 40), enough(testDevice(), 64);
  test::expectErrorAt(
      [&] { k.launch({1}, small, Options{.check_bounds = true}); },
      "kernel 'oob': store of 4 bytes out of bounds: element offset 40 of "
      "argument 1 (out), a Buffer<f32> of 40 elements (a checked launch: "
      "the access was not made)",
      __FILE__, at);
  k.launch({1}, enough, Options{.check_bounds = true});
  EXPECT_EQ(enough.to_host(), std::vector<float>(64, 1.0f));
}

//===----------------------------------------------------------------------===//
// GPU targets, for now
//===----------------------------------------------------------------------===//

/// The GPU lowering of rank-3 blocks, trans and reshape is not written yet:
/// compiling such a kernel for a GPU is a ktc::Error at the kernel's lines,
/// never an abort. (Flip these into code checks when the GPU lowering
/// lands.)
TEST(HostShapes, GpuTargetsCompileThem) {
  // Rank-3 blocks, trans and reshape compile for the GPU targets: trans and
  // reshape rename the source's elements (its layout's map, permuted or
  // reshaped) and convert to the result's layout, free where they agree.
  auto cube = Kernel("cube_gpu", [](Ptr<float> in, Ptr<float> out) {
    auto [i, j, k] = cubeIndices(2, 4, 8);
    store(out + (i * 4 + j) * 8 + k, load(in + (i * 4 + j) * 8 + k) + 1.0f);
  });
  auto tiles = Kernel("tiles_gpu", [](Ptr<float> p) {
    auto r = expand_dims(arange(0, 8), 1);
    store(p + trans(r), trans(load(p + r)));
    store(p + reshape(r, {2, 4}), reshape(load(p + r), {2, 4}));
  });
  for (const char *target : {"sm_90", "gfx942", "gfx1100"}) {
    SCOPED_TRACE(target);
    EXPECT_NE(cube.emit("asm", target).find("cube_gpu"), std::string::npos);
    EXPECT_NE(tiles.emit("asm", target).find("tiles_gpu"), std::string::npos);
  }
}

} // namespace
