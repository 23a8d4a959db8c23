//===- RelayoutTest.cpp - how layout changes move data ---------------------===//
//
// dialect/Relayout.h over many random pairs of blocked layouts of one
// shape (one wave size, one number of warps): a warp-shuffle plan, applied
// to a block whose every element is its own coordinate, gives each thread
// exactly what the new layout puts in each of its registers, reading only
// lanes of its own warp and registers the source has; a plan exists
// exactly when every thread's warp holds what it needs (checked by brute
// force); the classification agrees.
//
//===----------------------------------------------------------------------===//

#include "dialect/Relayout.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

using namespace mlir::ktc;
using Coord = LinearLayout::Coord;

namespace {

/// A random blocked layout over `shape` with `lanes` x `warps` threads.
LinearLayout randomBlocked(std::mt19937 &rng, llvm::ArrayRef<int64_t> shape,
                           unsigned lanes, unsigned warps) {
  unsigned rank = shape.size();
  llvm::SmallVector<unsigned> size, order;
  for (unsigned d = 0; d < rank; ++d) {
    size.push_back(1u << std::uniform_int_distribution<int>(0, 2)(rng));
    order.push_back(d);
  }
  std::shuffle(order.begin(), order.end(), rng);
  auto split = [&](unsigned total) {
    llvm::SmallVector<unsigned> parts(rank, 1);
    for (unsigned t = total; t > 1; t /= 2)
      parts[std::uniform_int_distribution<unsigned>(0, rank - 1)(rng)] *= 2;
    return parts;
  };
  return LinearLayout::blocked(shape, size, split(lanes), split(warps), order);
}

/// Whether every thread of `to` finds each element it needs in its warp of
/// `from` (brute force).
bool withinWarps(const LinearLayout &from, const LinearLayout &to) {
  for (int64_t w = 0; w < to.numWarps(); ++w) {
    std::set<Coord> held;
    for (int64_t l = 0; l < from.numLanes(); ++l)
      for (int64_t r = 0; r < from.numRegisters(); ++r)
        held.insert(from.apply(r, l, w));
    for (int64_t l = 0; l < to.numLanes(); ++l)
      for (int64_t r = 0; r < to.numRegisters(); ++r)
        if (!held.count(to.apply(r, l, w)))
          return false;
  }
  return true;
}

TEST(Relayout, WarpShufflePlansMoveEachElementWhereItIsNeeded) {
  std::mt19937 rng(11);
  int planned = 0, choices = 0;
  for (int trial = 0; trial < 600; ++trial) {
    unsigned rank = 1 + trial % 3;
    llvm::SmallVector<int64_t> shape;
    for (unsigned d = 0; d < rank; ++d)
      shape.push_back(int64_t(1) << std::uniform_int_distribution<int>(0, 5)(rng));
    unsigned lanes = trial % 2 ? 32 : 64;
    // Mostly one warp (everything is within it), some with several.
    unsigned warps = trial % 4 == 0 ? 4 : 1;
    LinearLayout from = randomBlocked(rng, shape, lanes, warps);
    LinearLayout to = randomBlocked(rng, shape, lanes, warps);
    std::optional<WarpShufflePlan> plan = planWarpShuffles(from, to);
    ASSERT_EQ(plan.has_value(), withinWarps(from, to))
        << from.str() << "\n" << to.str();
    if (!plan) {
      EXPECT_EQ(relayoutKind(from, to), RelayoutKind::SharedMemory);
      continue;
    }
    ++planned;
    choices += plan->registerChoices().size() > 1;
    int64_t laneBits = from.numBits(LinearLayout::Lane);
    for (int64_t w = 0; w < to.numWarps(); ++w)
      for (int64_t l = 0; l < to.numLanes(); ++l)
        for (int64_t r = 0; r < to.numRegisters(); ++r) {
          int64_t thread = l | w << laneBits;
          int64_t lane = plan->srcLane(r, thread);
          int64_t reg = plan->srcRegister(r, thread);
          ASSERT_GE(lane, 0);
          ASSERT_LT(lane, from.numLanes());
          ASSERT_LT(reg, from.numRegisters());
          ASSERT_EQ(from.apply(reg, lane, w), to.apply(r, l, w))
              << from.str() << "\n" << to.str() << "\nwarp " << w << " lane "
              << l << " register " << r;
          // The thread part of the source register takes one of the
          // values the lowering shuffles for.
          auto c = plan->registerChoices();
          ASSERT_NE(std::find(c.begin(), c.end(), plan->threadRegister(thread)),
                    c.end());
        }
    if (plan->inRegisters())
      EXPECT_EQ(relayoutKind(from, to), RelayoutKind::Registers);
  }
  // The random pairs cover plans, and plans whose source register depends
  // on the thread.
  EXPECT_GT(planned, 100);
  EXPECT_GT(choices, 20);
}

TEST(Relayout, KindsOfKnownConversions) {
  // The same layout: registers. Lanes permuted (rows then columns vs
  // columns then rows over 4x8, one warp): one shuffle a register.
  LinearLayout rows = LinearLayout::blocked({4, 8}, {1, 1}, {4, 8}, {1, 1}, {1, 0});
  LinearLayout cols = LinearLayout::blocked({4, 8}, {1, 1}, {4, 8}, {1, 1}, {0, 1});
  EXPECT_EQ(relayoutKind(rows, rows), RelayoutKind::Registers);
  EXPECT_EQ(relayoutKind(rows, cols), RelayoutKind::Shuffles);
  std::optional<WarpShufflePlan> plan = planWarpShuffles(rows, cols);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->shufflesPerRegister(), 1);
  // A 16x32 tile, a register bit becoming a lane bit: two a register.
  LinearLayout c = LinearLayout::blocked({16, 32}, {1, 4}, {4, 8}, {1, 1}, {1, 0});
  LinearLayout d = LinearLayout::blocked({16, 32}, {1, 4}, {8, 4}, {1, 1}, {1, 0});
  plan = planWarpShuffles(c, d);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->shufflesPerRegister(), 2);
  EXPECT_EQ(relayoutKind(c, d), RelayoutKind::Shuffles);
  // A 64x64 transpose over 4 warps (rows in warps vs columns in warps)
  // leaves the warps: shared memory.
  LinearLayout r4 = LinearLayout::blocked({64, 64}, {1, 4}, {2, 16}, {4, 1}, {1, 0});
  LinearLayout c4 = LinearLayout::blocked({64, 64}, {4, 1}, {16, 2}, {1, 4}, {0, 1});
  EXPECT_FALSE(planWarpShuffles(r4, c4));
  EXPECT_EQ(relayoutKind(r4, c4), RelayoutKind::SharedMemory);
}

} // namespace
