//===- WarpShuffleTest.cpp - layout changes within a warp, end to end ------===//
//
// The public API only, on Device("cpu") (or KTC_SHAPES_DEVICE's device:
// cuda on a GPU machine): small tiles transposed and reshaped with one
// warp, where the GPU lowering moves them with warp shuffles instead of
// shared memory (lib/Conversion/WarpShuffles.cpp); random data of odd
// sizes, outputs poisoned first, exact references (values only moved).
// The same kernels compile for sm_90 and gfx942 to shuffles, no barrier.
//
//===----------------------------------------------------------------------===//

#include "ktc/ktc.h"
#include "TestDevice.h"

#include <gtest/gtest.h>

#include <random>

using namespace ktc;

namespace {

using test::testDevice;

constexpr int32_t kPoison = 0x7eadbeef;

/// out (cols x rows) = in (rows x cols) transposed, in one 8x4 tile (trans),
/// and flat (rows * cols) = in through a reshape to 32.
void smallTiles(Ptr<int32_t> in, Ptr<int32_t> out, Ptr<int32_t> flat, Int rows,
                Int cols) {
  auto r = expand_dims(arange(0, 8), 1), c = expand_dims(arange(0, 4), 0);
  auto x = load(in + r * cols + c, (r < rows) & (c < cols), 0);
  auto r2 = expand_dims(arange(0, 4), 1), c2 = expand_dims(arange(0, 8), 0);
  store(out + r2 * rows + c2, trans(x), (r2 < cols) & (c2 < rows));
  // The element at (i, j) of the tile, flattened as i * 4 + j.
  auto i = arange(0, 32);
  auto whole = reshape(x, {32});
  store(flat + (i / 4) * cols + i % 4, whole,
        (i / 4 < rows) & (i % 4 < cols));
}

TEST(WarpShuffles, SmallTilesMoveExactly) {
  auto kernel = Kernel("small_tiles", smallTiles);
  for (auto [rows, cols] :
       {std::pair{5, 3}, {8, 4}, {1, 1}, {7, 4}, {8, 1}, {3, 2}}) {
    SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols));
    std::mt19937 gen(rows * 7 + cols);
    std::vector<int32_t> hin(size_t(rows) * cols);
    for (int32_t &v : hin)
      v = int32_t(gen());
    size_t size = hin.size();
    Buffer<int32_t> in(testDevice(), hin);
    Buffer<int32_t> out(testDevice(), std::vector<int32_t>(size + 8, kPoison));
    Buffer<int32_t> flat(testDevice(), std::vector<int32_t>(size + 8, kPoison));
    kernel.launch({1}, in, out, flat, rows, cols, Options{.num_warps = 1});
    std::vector<int32_t> got = out.to_host(), gotFlat = flat.to_host();
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) {
        ASSERT_EQ(got[size_t(j) * rows + i], hin[size_t(i) * cols + j])
            << "at " << i << ", " << j;
        ASSERT_EQ(gotFlat[size_t(i) * cols + j], hin[size_t(i) * cols + j])
            << "at " << i << ", " << j;
      }
    for (size_t e = size; e < got.size(); ++e) {
      ASSERT_EQ(got[e], kPoison) << "written past the end at " << e;
      ASSERT_EQ(gotFlat[e], kPoison) << "written past the end at " << e;
    }
  }
}

TEST(WarpShuffles, OneWarpMovesWithoutSharedMemory) {
  auto kernel = Kernel("small_tiles", smallTiles);
  AnyBuffer<int32_t> any;
  std::string sm90 = kernel.emit_as_launched("asm", "sm_90", any, any, any, 5,
                                             3, Options{.num_warps = 1});
  EXPECT_NE(sm90.find("shfl.sync.idx"), std::string::npos) << sm90;
  EXPECT_EQ(sm90.find("bar.sync"), std::string::npos) << sm90;
  EXPECT_EQ(sm90.find(".shared"), std::string::npos) << sm90;
  std::string gfx1100 = kernel.emit_as_launched(
      "asm", "gfx1100", any, any, any, 5, 3, Options{.num_warps = 1});
  EXPECT_NE(gfx1100.find("ds_bpermute_b32"), std::string::npos) << gfx1100;
  EXPECT_EQ(gfx1100.find("s_barrier"), std::string::npos) << gfx1100;
}

} // namespace
