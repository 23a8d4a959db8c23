//===- SharedMemoryTest.cpp - a kernel's shared memory and its target's limit ===//
//
// A tile stored transposed moves between layouts through shared memory: the
// whole tile, 4 bytes an f32 element, its rows' chunks swizzled (XOR) so
// that the column reads spread over the banks with no padding. (2-D reductions no longer need
// the block there: they combine in registers, lanes, and a few partials
// per wave.) Each target's limit is its own: 64 KiB of LDS a workgroup on
// gfx942, 160 KiB on gfx950, 227 KiB a block on sm_90 (opting in; past
// 48 KiB the PTX declares it dynamic and says how much for the launch). A
// tile past its target's limit goes through in pieces along its first
// dimension; one that cannot be cut (that dimension of size 1) is a
// ktc::Error naming the need, the limit and the line of the op that needs
// it.
//
//===----------------------------------------------------------------------===//

#include "ktc/Occupancy.h"
#include "ktc/ktc.h"
#include "lib/Conversion/SharedMemory.h"

#include <gtest/gtest.h>

#include <string>

using namespace ktc;

namespace {

int storeAt = 0; // the line of the transposed store

/// A ROWS x COLS f32 tile, stored transposed: read along rows, written
/// along columns, so the tile changes layout between the two.
auto transposeTile() {
  return Kernel("transpose_tile", [](Ptr<float> x, Ptr<float> out, int ROWS,
                                     int COLS) {
    auto r = arange(0, ROWS), c = arange(0, COLS);
    auto tile = load(x + expand_dims(r, 1) * COLS + expand_dims(c, 0));
    storeAt = __LINE__; store(out + expand_dims(c, 0) * ROWS + expand_dims(r, 1), tile);
  });
}

/// A 1 x ROWS x COLS f32 block stored with its last two dimensions swapped:
/// dimension 0 has size 1, so past the limit its change of layout goes
/// through shared memory in pieces along dimension 1 or the last.
auto transposeSlab() {
  return Kernel("transpose_slab", [](Ptr<float> x, Ptr<float> out, int ROWS,
                                     int COLS) {
    auto j = expand_dims(expand_dims(arange(0, ROWS), 0), 2);
    auto k = expand_dims(expand_dims(arange(0, COLS), 0), 0);
    auto tile = load(x + j * COLS + k);
    store(out + k * ROWS + j, tile);
  });
}

/// The reductions of a 128 x 256 f32 tile along each axis: no shared
/// memory for the whole block any more.
auto bothSums() {
  return Kernel("both_sums", [](Ptr<float> x, Ptr<float> rows,
                                Ptr<float> cols) {
    auto r = arange(0, 128), c = arange(0, 256);
    auto tile = load(x + expand_dims(r, 1) * 256 + expand_dims(c, 0));
    store(rows + r, sum(tile, 1));
    store(cols + c, sum(tile, 0));
  });
}

TEST(SharedMemory, TwoDReductionsNeedOnlyPartials) {
  // 128x256 f32 summed along each axis: 128 KiB of block, but only the
  // partials of the waves along axis 0 go through shared memory.
  for (const char *target : {"gfx942", "gfx1100", "sm_90"}) {
    SCOPED_TRACE(target);
    KernelInfo info = bothSums().info(target);
    EXPECT_GT(info.shared_bytes, 0);
    EXPECT_LE(info.shared_bytes, 16384);
  }
}

TEST(SharedMemory, AConversionKeepsFourBytesAnElementAndPadsRows) {
  auto k = transposeTile();
  // 64x128 f32, not specialised (scalar accesses): 64 rows of 128 floats,
  // swizzled, static everywhere.
  EXPECT_EQ(k.info("gfx942", 64, 128).shared_bytes, 64 * 128 * 4);
  EXPECT_EQ(k.info("sm_90", 64, 128).shared_bytes, 64 * 128 * 4);
  std::string ptx = k.emit("asm", "sm_90", 64, 128);
  EXPECT_NE(ptx.find(".shared .align 16 .b8 ktc_smem[32768];"),
            std::string::npos);
  EXPECT_EQ(dynamicSharedBytes(ptx), 0);
}

TEST(SharedMemory, EachTargetsOwnLimit) {
  auto k = transposeTile();
  // 128x256 f32: 128 KiB. gfx950's LDS holds it,
  // statically.
  EXPECT_EQ(k.info("gfx950", 128, 256).shared_bytes, 128 * 256 * 4);
  // sm_90: dynamic, the size in the PTX for the launch.
  std::string ptx = k.emit("asm", "sm_90", 128, 256);
  EXPECT_NE(ptx.find(".extern .shared .align 16 .b8 ktc_smem[];"),
            std::string::npos);
  EXPECT_EQ(dynamicSharedBytes(ptx), 128 * 256 * 4);
  EXPECT_EQ(k.info("sm_90", 128, 256).shared_bytes, 128 * 256 * 4);
  // The limits the lowering checks against are the table's.
  EXPECT_EQ(limits_for("sm_90")->max_shared_bytes_per_workgroup, 232448);
  EXPECT_EQ(limits_for("sm_80")->max_shared_bytes_per_workgroup, 166912);
  EXPECT_EQ(limits_for("gfx942")->max_shared_bytes_per_workgroup, 65536);
  EXPECT_EQ(limits_for("gfx950")->max_shared_bytes_per_workgroup, 163840);
}

TEST(SharedMemory, PastTheLimitATileGoesInPieces) {
  // 128x256 f32 transposed: 128 KiB at once; gfx942 and gfx90a (64 KiB
  // of LDS) take it in 4 pieces of 32 rows, sm_86 (99 KiB) in 2.
  auto k = transposeTile();
  EXPECT_EQ(k.info("gfx942", 128, 256).shared_bytes, 32 * 256 * 4);
  EXPECT_EQ(k.info("gfx90a", 128, 256).shared_bytes, 32 * 256 * 4);
  EXPECT_EQ(k.info("sm_86", 128, 256).shared_bytes, 64 * 256 * 4);
  EXPECT_EQ(k.info("gfx950", 128, 256).shared_bytes, 128 * 256 * 4);
}

TEST(SharedMemory, PastTheLimitASlabGoesInPiecesAlongItsLastDimension) {
  auto k = transposeSlab();
  // 2 rows of 32768 floats (16 waves): a row alone is 128 KiB, so the
  // pieces cut the last dimension, 2 rows of 4096 floats (+ 16 of padding)
  // a piece on gfx942/gfx90a (64 KiB of LDS), of 8192 on sm_86/sm_120 (99
  // KiB). Formerly refused ("needs 131136 bytes of shared memory").
  for (auto [target, bytes] : {std::pair{"gfx942", 2 * (4096 + 16) * 4},
                               {"gfx90a", 2 * (4096 + 16) * 4},
                               {"sm_86", 2 * (8192 + 16) * 4},
                               {"sm_120", 2 * (8192 + 16) * 4}}) {
    SCOPED_TRACE(target);
    EXPECT_EQ(k.info(target, 2, 32768, Options{.num_warps = 16}).shared_bytes,
              bytes);
  }
}

TEST(SharedMemory, MarkerParsing) {
  EXPECT_EQ(dynamicSharedBytes(""), 0);
  EXPECT_EQ(dynamicSharedBytes(".shared .align 16 .b8 ktc_smem[64];"), 0);
  EXPECT_EQ(dynamicSharedBytes("x\n// ktc.dynamic_shared_bytes 102400\ny"),
            102400);
  EXPECT_EQ(dynamicSharedBytes("// ktc.dynamic_shared_bytes 99999999999999"),
            0);
}

} // namespace
