//===- LinearLayoutTest.cpp - layouts as linear maps, and their algebra ----===//
//
// Properties of dialect/LinearLayout.h over many random blocked layouts and
// shapes: every element of a block is held by some thread (and, without
// replication, exactly once); a slice of a slice is the slice of the two
// dimensions; a slice's parent expands back to it with no data moved
// (the expand_dims the lowering makes free); the registers a vector
// access groups hold consecutive elements; the blocked map matches the
// attribute's documented formula; the table shows replicated lanes.
//
//===----------------------------------------------------------------------===//

#include "dialect/LinearLayout.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

using namespace mlir::ktc;
using Coord = LinearLayout::Coord;

namespace {

struct Blocked {
  llvm::SmallVector<int64_t> shape;
  llvm::SmallVector<unsigned> size, threads, warps, order;
  LinearLayout layout() const {
    return LinearLayout::blocked(shape, size, threads, warps, order);
  }
};

/// A random blocked layout of `rank` over a random power-of-two shape:
/// wave 32 or 64, 1 to 8 warps.
Blocked randomBlocked(std::mt19937 &rng, unsigned rank) {
  auto pow2 = [&](int lo, int hi) {
    return int64_t(1) << std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  Blocked b;
  for (unsigned d = 0; d < rank; ++d) {
    b.shape.push_back(pow2(0, 7));
    b.size.push_back(unsigned(pow2(0, 2)));
    b.order.push_back(d);
  }
  std::shuffle(b.order.begin(), b.order.end(), rng);
  auto split = [&](unsigned total) {
    llvm::SmallVector<unsigned> parts(rank, 1);
    for (unsigned t = total; t > 1; t /= 2)
      parts[std::uniform_int_distribution<unsigned>(0, rank - 1)(rng)] *= 2;
    return parts;
  };
  b.threads = split(unsigned(pow2(5, 6)));
  b.warps = split(unsigned(pow2(0, 3)));
  return b;
}

TEST(LinearLayout, EveryElementIsHeldAndOnceWithoutReplication) {
  std::mt19937 rng(1);
  for (int trial = 0; trial < 300; ++trial) {
    Blocked b = randomBlocked(rng, 1 + trial % 3);
    LinearLayout l = b.layout();
    std::map<Coord, int> held;
    for (int64_t w = 0; w < l.numWarps(); ++w)
      for (int64_t t = 0; t < l.numLanes(); ++t)
        for (int64_t r = 0; r < l.numRegisters(); ++r) {
          Coord c = l.apply(r, t, w);
          for (unsigned d = 0; d < c.size(); ++d)
            ASSERT_LT(c[d], b.shape[d]) << l.str();
          ++held[c];
        }
    ASSERT_EQ(int64_t(held.size()), l.numElements()) << l.str();
    bool replicated = l.zeroBits(LinearLayout::Lane) ||
                      l.zeroBits(LinearLayout::Warp);
    if (!replicated) {
      for (auto &[c, n] : held)
        ASSERT_EQ(n, 1) << l.str();
    }
    // Registers are never repeated within a thread.
    std::set<Coord> own;
    for (int64_t r = 0; r < l.numRegisters(); ++r)
      ASSERT_TRUE(own.insert(l.applyIn(LinearLayout::Register, r)).second)
          << l.str();
  }
}

TEST(LinearLayout, SliceOfASliceIsTheSliceOfBoth) {
  std::mt19937 rng(2);
  for (int trial = 0; trial < 200; ++trial) {
    Blocked b = randomBlocked(rng, 3);
    LinearLayout l = b.layout();
    // Dropping dims 2 then 0 equals dropping 0 then 1 (the same two).
    LinearLayout a = l.dropDim(2).canonical().dropDim(0).canonical();
    LinearLayout c = l.dropDim(0).canonical().dropDim(1).canonical();
    EXPECT_EQ(a, c) << l.str();
  }
}

TEST(LinearLayout, ExpandingASliceMovesNothing) {
  // The slice of a blocked layout over a shape with a unit dimension, with
  // that dimension put back, is the parent over that shape: each thread
  // holds the same elements in the same registers.
  std::mt19937 rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    Blocked b = randomBlocked(rng, 2);
    unsigned dim = trial % 2;
    b.shape[dim] = 1;
    LinearLayout parent = b.layout();
    LinearLayout slice = parent.dropDim(dim).canonical();
    EXPECT_EQ(slice.insertDim(dim), parent) << parent.str();
  }
}

TEST(LinearLayout, BlockedMatchesTheReferenceFormula) {
  // A 2-D blocked layout's element of (register, lane, warp), from the
  // formula the attribute documents, for a few fixed layouts.
  LinearLayout l =
      LinearLayout::blocked({16, 64}, {1, 4}, {2, 16}, {4, 1}, {1, 0});
  for (int64_t w = 0; w < 4; ++w)
    for (int64_t t = 0; t < 32; ++t)
      for (int64_t r = 0; r < l.numRegisters(); ++r) {
        // Registers: 4 along dim 1, then 2 repeats along dim 0.
        int64_t j = r % 4, rep = r / 4;
        int64_t row = rep * 8 + w * 2 + t / 16, col = (t % 16) * 4 + j;
        EXPECT_EQ(l.apply(r, t, w), (Coord{int32_t(row), int32_t(col)}));
      }
  EXPECT_EQ(l.contiguousRegisters(1), 4);
  EXPECT_EQ(l.fastestDim(), 1u);
  EXPECT_TRUE(l.isDisjoint());
  // A block smaller than the tile wraps: lanes past it replicate.
  LinearLayout small = LinearLayout::blocked({8}, {4}, {32}, {1}, {0});
  EXPECT_EQ(small.numRegisters(), 4);
  EXPECT_EQ(small.zeroBits(LinearLayout::Lane), 0b11110u);
}

TEST(LinearLayout, VectorNeverExceedsTheRun) {
  std::mt19937 rng(4);
  for (int trial = 0; trial < 300; ++trial) {
    Blocked b = randomBlocked(rng, 1 + trial % 3);
    LinearLayout l = b.layout();
    unsigned dim = l.fastestDim();
    int64_t run = l.contiguousRegisters(dim);
    // Registers 0..run-1 of thread 0 hold consecutive elements along dim.
    Coord first = l.apply(0, 0, 0);
    for (int64_t r = 0; r < run; ++r) {
      Coord c = l.apply(r, 0, 0), want = first;
      want[dim] += int32_t(r);
      EXPECT_EQ(c, want) << l.str();
    }
    EXPECT_LE(run, b.shape[dim]) << l.str();
  }
}

TEST(LinearLayout, TableShowsEachThreadsElements) {
  LinearLayout l = LinearLayout::blocked({4, 4}, {1, 2}, {2, 2}, {1, 1},
                                         {1, 0});
  // Lane bits: 2 columns apart, then a row; registers: a pair of columns,
  // then the rows two apart.
  std::string t = l.table();
  EXPECT_NE(t.find("w0 l0: 0,0 0,1 2,0 2,1\n"), std::string::npos) << t;
  EXPECT_NE(t.find("w0 l3: 1,2 1,3 3,2 3,3\n"), std::string::npos) << t;
  // Wave 32 over 16 elements of a 1-D block: lanes past 16 repeat.
  LinearLayout r = LinearLayout::blocked({16}, {1}, {32}, {1}, {0});
  EXPECT_NE(r.table().find("w0 l16: 0  (= w0 l0)"), std::string::npos)
      << r.table();
}

} // namespace
