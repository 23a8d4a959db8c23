//===- AtomicsUnsignedTest.cpp - atomics through u32 and u64 pointers -----===//
//
// atomic_max/atomic_min through a Ptr<uint32_t>/Ptr<uint64_t> compare as
// unsigned (ktc.atomic_rmw umax/umin: atom.max.u32 on NVIDIA, the unsigned
// global atomics on AMD, llvm.atomicrmw umax on the host); add, and, or,
// xor, xchg and cas take them as the signed ones do, and every result is
// unsigned (its comparisons too). On Device("cpu") (or KTC_SHAPES_DEVICE's
// device), programs colliding on a few bins whose values straddle 2^31
// (2^63), where signed and unsigned orders differ; checked exactly against
// references computed here, outputs poisoned first.
//
//===----------------------------------------------------------------------===//

#include "ktc/ktc.h"
#include "TestDevice.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

using namespace ktc;

namespace {

using test::testDevice;

template <typename T> T poisonOf() { return T(0xA5A5A5A5A5A5A5A5ull); }

/// Values all over the unsigned range: half of them with the top bit set.
template <typename T> std::vector<T> randomValues(size_t n, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::vector<T> v(n);
  for (T &x : v)
    x = T(gen());
  return v;
}

/// max and min of vals into bins[idx], the olds kept, and the olds
/// compared with the values (as unsigned: the results are u32/u64).
template <typename T>
void maxMin(Ptr<int32_t> idx, Ptr<T> vals, Ptr<T> maxBins, Ptr<T> minBins,
            Ptr<T> oldMax, Ptr<T> oldMin, Ptr<int32_t> above, Int n,
            int BLOCK) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  auto b = load(idx + offs, mask);
  auto v = load(vals + offs, mask);
  auto om = atomic_max(maxBins + b, v, mask);
  auto on = atomic_min(minBins + b, v, mask);
  store(oldMax + offs, om, mask);
  store(oldMin + offs, on, mask);
  store(above + offs, where(om > v, 1, 0) + where(on < v, 2, 0), mask);
}

template <typename T> void checkMaxMin(int n, int block, int nbins) {
  SCOPED_TRACE("n " + std::to_string(n) + " block " + std::to_string(block));
  std::mt19937 gen(n + block);
  std::vector<int32_t> idx(n);
  for (int32_t &i : idx)
    i = int32_t(gen() % nbins);
  std::vector<T> vals = randomValues<T>(n, n * 7 + block);
  std::vector<T> init = randomValues<T>(nbins + 4, n * 13 + block);
  Device &d = testDevice();
  Buffer<int32_t> bi(d, idx), above(d, std::vector<int32_t>(n, -7));
  Buffer<T> bv(d, vals), maxBins(d, init), minBins(d, init);
  Buffer<T> oldMax(d, std::vector<T>(n, poisonOf<T>()));
  Buffer<T> oldMin(d, std::vector<T>(n, poisonOf<T>()));
  static auto kernel = Kernel("atomic_umax_umin", maxMin<T>);
  kernel.launch({unsigned(cdiv(n, block))}, bi, bv, maxBins, minBins, oldMax,
                oldMin, above, n, block);
  std::vector<T> wantMax = init, wantMin = init;
  for (int i = 0; i < n; ++i) {
    wantMax[idx[i]] = std::max(wantMax[idx[i]], vals[i]);
    wantMin[idx[i]] = std::min(wantMin[idx[i]], vals[i]);
  }
  EXPECT_EQ(maxBins.to_host(), wantMax); // the 4 past the bins untouched
  EXPECT_EQ(minBins.to_host(), wantMin);
  auto om = oldMax.to_host(), on = oldMin.to_host();
  auto ab = above.to_host();
  // Each old lies between the bin's start and its end, and is the start
  // or one of the values that went to the bin.
  std::map<int, std::vector<T>> seen;
  for (int i = 0; i < n; ++i)
    seen[idx[i]].push_back(vals[i]);
  for (int i = 0; i < n; ++i) {
    int b = idx[i];
    auto from = [&](T v) {
      return v == init[b] ||
             std::find(seen[b].begin(), seen[b].end(), v) != seen[b].end();
    };
    EXPECT_TRUE(om[i] >= init[b] && om[i] <= wantMax[b] && from(om[i]))
        << "element " << i;
    EXPECT_TRUE(on[i] <= init[b] && on[i] >= wantMin[b] && from(on[i]))
        << "element " << i;
    EXPECT_EQ(ab[i], (om[i] > vals[i] ? 1 : 0) + (on[i] < vals[i] ? 2 : 0))
        << "element " << i;
  }
}

TEST(AtomicsUnsigned, MaxMinU32) {
  for (int n : {1, 37, 1000, 4099})
    checkMaxMin<uint32_t>(n, 256, 5);
  checkMaxMin<uint32_t>(1001, 32, 1);
}

TEST(AtomicsUnsigned, MaxMinU64) {
  for (int n : {1, 37, 4099})
    checkMaxMin<uint64_t>(n, 128, 3);
}

/// add (wrapping), and, or, xor into bins[idx]; cas on a bin of
/// their own per program.
template <typename T>
void others(Ptr<int32_t> idx, Ptr<T> vals, Ptr<T> sums, Ptr<T> ands,
            Ptr<T> ors, Ptr<T> xors, Ptr<T> swaps, Ptr<T> starts, Ptr<T> olds,
            Int n, int BLOCK) {
  auto pid = program_id(0);
  auto offs = pid * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  auto b = load(idx + offs, mask);
  auto v = load(vals + offs, mask);
  atomic_add(sums + b, v, mask);
  atomic_and(ands + b, v | (v >> 1), mask); // keep some bits set
  atomic_or(ors + b, v & (v << 3), mask);
  atomic_xor(xors + b, v, mask);
  // cas: the element whose compare sees the start wins. The start comes
  // from a copy: read from the bin itself, a warp could read it after
  // another warp's cas had replaced it, and win a second time.
  auto start = load(starts + pid);
  auto old = atomic_cas(swaps + pid + zeros({BLOCK}, DType::i32), start, v,
                        mask);
  store(olds + offs, where(old == start, 1, 0).to(dtype_of<T>::value), mask);
}

template <typename T> void checkOthers(int n, int block, int nbins) {
  SCOPED_TRACE("n " + std::to_string(n) + " block " + std::to_string(block));
  std::mt19937 gen(n * 3 + block);
  std::vector<int32_t> idx(n);
  for (int32_t &i : idx)
    i = int32_t(gen() % nbins);
  std::vector<T> vals = randomValues<T>(n, n * 5 + block);
  std::vector<T> init = randomValues<T>(nbins + 4, n * 11 + block);
  int programs = int(cdiv(n, block));
  std::vector<T> swapInit = randomValues<T>(programs + 2, n);
  Device &d = testDevice();
  Buffer<int32_t> bi(d, idx);
  Buffer<T> bv(d, vals), sums(d, init), ands(d, init), ors(d, init),
      xors(d, init), swaps(d, swapInit), starts(d, swapInit);
  Buffer<T> olds(d, std::vector<T>(n, poisonOf<T>()));
  static auto kernel = Kernel("atomic_unsigned_others", others<T>);
  kernel.launch({unsigned(programs)}, bi, bv, sums, ands, ors, xors, swaps,
                starts, olds, n, block);
  std::vector<T> wantSum = init, wantAnd = init, wantOr = init,
                 wantXor = init;
  for (int i = 0; i < n; ++i) {
    T v = vals[i];
    wantSum[idx[i]] += v;
    wantAnd[idx[i]] &= T(v | (v >> 1));
    wantOr[idx[i]] |= T(v & T(v << 3));
    wantXor[idx[i]] ^= v;
  }
  EXPECT_EQ(sums.to_host(), wantSum);
  EXPECT_EQ(ands.to_host(), wantAnd);
  EXPECT_EQ(ors.to_host(), wantOr);
  EXPECT_EQ(xors.to_host(), wantXor);
  // Per program exactly one cas sees the start (the values are distinct
  // from it), and its value is what the bin holds.
  auto s = swaps.to_host();
  auto o = olds.to_host();
  for (int p = 0; p < programs; ++p) {
    int winners = 0;
    for (int i = p * block; i < std::min(n, (p + 1) * block); ++i)
      if (o[i] == 1) {
        ++winners;
        EXPECT_EQ(s[p], vals[i]) << "program " << p;
      } else {
        EXPECT_EQ(o[i], T(0)) << "element " << i;
      }
    EXPECT_EQ(winners, 1) << "program " << p;
  }
  for (int p = programs; p < programs + 2; ++p)
    EXPECT_EQ(s[p], swapInit[p]);
}

TEST(AtomicsUnsigned, AddAndOrXorCasU32) {
  for (int n : {1, 37, 1000, 4099})
    checkOthers<uint32_t>(n, 256, 7);
}

TEST(AtomicsUnsigned, AddAndOrXorCasU64) {
  for (int n : {37, 4099})
    checkOthers<uint64_t>(n, 128, 3);
}

} // namespace
