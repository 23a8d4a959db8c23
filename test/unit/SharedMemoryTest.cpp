//===- SharedMemoryTest.cpp - a kernel's shared memory and its target's limit ===//
//
// The 2-D reduction keeps its block in shared memory, 4 bytes an element for
// f32 (8 until issue 22 item 5). Each target's limit is its own: 64 KiB of
// LDS a workgroup on gfx942, 160 KiB on gfx950, 227 KiB a block on sm_90
// (opting in; past 48 KiB the PTX declares it dynamic and says how much for
// the launch). A kernel over its target's limit is a ktc::Error naming the
// need, the limit and the line of the op that needs it.
//
//===----------------------------------------------------------------------===//

#include "ktc/Occupancy.h"
#include "ktc/ktc.h"
#include "lib/Conversion/SharedMemory.h"

#include <gtest/gtest.h>

#include <string>

using namespace ktc;

namespace {

int reduceAt = 0; // the line of the reduction

/// The row maxima of a ROWS x COLS f32 tile.
auto rowsMax() {
  return Kernel("rows_max", [](Ptr<float> x, Ptr<float> out, int ROWS,
                               int COLS) {
    auto r = arange(0, ROWS), c = arange(0, COLS);
    auto tile = load(x + expand_dims(r, 1) * COLS + expand_dims(c, 0));
    reduceAt = __LINE__; auto m = max(tile, 1);
    store(out + r, m);
  });
}

std::string errorOf(const std::function<void()> &f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SharedMemory, TwoDReductionsKeepFourBytesAnElement) {
  auto k = rowsMax();
  // 64x128 f32: 32 KiB, static everywhere (it was 64 KiB, refused).
  EXPECT_EQ(k.info("gfx942", 64, 128).shared_bytes, 32768);
  std::string ptx = k.emit("asm", "sm_90", 64, 128);
  EXPECT_NE(ptx.find(".shared .align 16 .b8 ktc_smem[32768];"),
            std::string::npos);
  EXPECT_EQ(dynamicSharedBytes(ptx), 0);
}

TEST(SharedMemory, EachTargetsOwnLimit) {
  auto k = rowsMax();
  // 128x256 f32: 128 KiB. gfx950's LDS holds it, statically.
  EXPECT_EQ(k.info("gfx950", 128, 256).shared_bytes, 131072);
  // sm_90: dynamic, the size in the PTX for the launch.
  std::string ptx = k.emit("asm", "sm_90", 128, 256);
  EXPECT_NE(ptx.find(".extern .shared .align 16 .b8 ktc_smem[];"),
            std::string::npos);
  EXPECT_EQ(dynamicSharedBytes(ptx), 131072);
  // The limits the lowering checks against are the table's.
  EXPECT_EQ(limits_for("sm_90")->max_shared_bytes_per_workgroup, 232448);
  EXPECT_EQ(limits_for("sm_80")->max_shared_bytes_per_workgroup, 166912);
  EXPECT_EQ(limits_for("gfx942")->max_shared_bytes_per_workgroup, 65536);
  EXPECT_EQ(limits_for("gfx950")->max_shared_bytes_per_workgroup, 163840);
}

TEST(SharedMemory, OverTheLimitNamesTheNeedTheLimitAndTheLine) {
  auto k = rowsMax();
  struct Case {
    const char *target;
    int rows, cols;
    const char *need, *limit;
    int warps = 4; // 8 for 256x256: 256 elements a thread, as 128x256 on 4
  };
  for (Case c : {Case{"gfx942", 128, 256, "131072", "65536"},
                 Case{"gfx90a", 128, 256, "131072", "65536"},
                 Case{"gfx950", 256, 256, "262144", "163840", 8},
                 Case{"sm_90", 256, 256, "262144", "232448", 8},
                 Case{"sm_86", 128, 256, "131072", "101376"}}) {
    SCOPED_TRACE(c.target);
    std::string message =
        errorOf([&] { k.emit("asm", c.target, c.rows, c.cols,
                             Options{.num_warps = c.warps}); });
    std::string want = std::string("kernel 'rows_max' needs ") + c.need +
                       " bytes of shared memory to move blocks between "
                       "threads; " + c.target + " allows " + c.limit +
                       " per workgroup: use smaller blocks";
    EXPECT_NE(message.find(want), std::string::npos) << message;
    // The user's line: the reduction's.
    std::string line =
        "SharedMemoryTest.cpp:" + std::to_string(reduceAt) + ":";
    EXPECT_NE(message.find(line), std::string::npos) << message;
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
