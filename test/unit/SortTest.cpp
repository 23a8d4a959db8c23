//===- SortTest.cpp - sort and histogram ----------------------------------===//
//
// ktc::sort and ktc::histogram (include/ktc/Standard.h) end to end on the
// CPU (or KTC_SHAPES_DEVICE's device): random data of odd sizes with the
// edges (NaNs of both signs and any payload, +-0, +-inf, subnormals,
// duplicates, the integer extremes), masked loads into power-of-two
// blocks, outputs poisoned first, exact C++ references (std::sort with
// IEEE 754's total order, NaN last; counting). The errors are in
// GatherTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "TestDevice.h"
#include "ktc/ktc.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

using namespace ktc;

namespace {

using test::testDevice;

/// Random values of T with the edges mixed in.
template <typename T> std::vector<T> randomValues(size_t n, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::vector<T> v(n);
  for (T &x : v) {
    uint64_t r = gen();
    if constexpr (std::is_floating_point_v<T>) {
      using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
      switch (r % 10) {
      case 0: { // NaN: any sign, any payload
        T nan = std::numeric_limits<T>::quiet_NaN();
        Bits b;
        std::memcpy(&b, &nan, sizeof b);
        b |= Bits(gen()) & (std::numeric_limits<Bits>::max() >> 12);
        if (gen() & 1)
          b |= Bits(1) << (8 * sizeof(T) - 1);
        std::memcpy(&x, &b, sizeof b);
        break;
      }
      case 1:
        x = (gen() & 1) ? T(-0.0) : T(0.0);
        break;
      case 2:
        x = (gen() & 1) ? -std::numeric_limits<T>::infinity()
                        : std::numeric_limits<T>::infinity();
        break;
      case 3:
        x = std::numeric_limits<T>::denorm_min() * T(int(gen() % 7) - 3);
        break;
      case 4:
        x = T(int(gen() % 5) - 2); // duplicates
        break;
      default:
        x = T(
            std::ldexp(double(int64_t(gen())) / 9.2e18, int(gen() % 40) - 20));
      }
    } else {
      if (r % 8 == 0)
        x = (gen() & 1) ? std::numeric_limits<T>::min()
                        : std::numeric_limits<T>::max();
      else if (r % 8 == 1)
        x = T(int(gen() % 5)); // duplicates
      else
        x = T(gen());
    }
  }
  return v;
}

/// IEEE 754's total order with every NaN last (the sort's order).
template <typename T> bool before(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) || std::isnan(b))
      return !std::isnan(a) && std::isnan(b);
    if (a == b)
      return std::signbit(a) && !std::signbit(b);
  }
  return a < b;
}

/// The bits sort gives: x's, or the quiet NaN of T.
template <typename T> bool sameAsSorted(T got, T want) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(want)) {
      T nan = std::numeric_limits<T>::quiet_NaN();
      return std::memcmp(&got, &nan, sizeof got) == 0;
    }
  }
  return std::memcmp(&got, &want, sizeof got) == 0;
}

/// out = sort(in) of an R x C tile (rows x cols of it read, the rest 0)
/// along `dim`.
template <typename T>
void sortTile(Ptr<T> in, Ptr<T> out, Int rows, Int cols, int R, int C, int dim,
              bool descending) {
  auto r = expand_dims(arange(0, R), 1), c = expand_dims(arange(0, C), 0);
  auto mask = (r < rows) & (c < cols);
  auto x = load(in + r * cols + c, mask, 0);
  store(out + r * cols + c, sort(x, dim, descending), mask);
}

/// Shapes {rows, cols, R, C}; each is sorted along `dims`, both ways.
using Shapes = std::vector<std::array<int, 4>>;
const Shapes kSmall = {{3, 5, 4, 8}, {7, 29, 8, 32}};

template <typename T>
void checkSort(unsigned seed, const Shapes &shapes = kSmall,
               std::vector<int> dims = {1}) {
  auto kernel = Kernel("sort_tile", sortTile<T>);
  const T poison = T(77);
  for (auto [rows, cols, R, C] : shapes) {
    for (int dim : dims) {
      for (bool descending : {false, true}) {
        SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols) +
                     " dim " + std::to_string(dim) +
                     (descending ? " descending" : ""));
        size_t n = size_t(rows) * cols;
        auto host = randomValues<T>(n, seed + rows * 131 + cols + dim);
        Buffer<T> in(testDevice(), host);
        Buffer<T> out(testDevice(), std::vector<T>(n + 8, poison));
        kernel.launch({1}, in, out, rows, cols, R, C, dim, descending);
        std::vector<T> got = out.to_host();
        // The reference: the padded tile's lines sorted.
        std::vector<T> tile(size_t(R) * C, T(0));
        for (int i = 0; i < rows; ++i)
          for (int j = 0; j < cols; ++j)
            tile[i * C + j] = host[i * cols + j];
        bool alongRows = dim != 0;
        int lines = alongRows ? R : C, len = alongRows ? C : R;
        for (int l = 0; l < lines; ++l) {
          std::vector<T> line(len);
          for (int k = 0; k < len; ++k)
            line[k] = alongRows ? tile[l * C + k] : tile[k * C + l];
          std::sort(line.begin(), line.end(), [&](T a, T b) {
            return descending ? before(b, a) : before(a, b);
          });
          for (int k = 0; k < len; ++k)
            (alongRows ? tile[l * C + k] : tile[k * C + l]) = line[k];
        }
        for (int i = 0; i < rows; ++i)
          for (int j = 0; j < cols; ++j)
            ASSERT_TRUE(sameAsSorted(got[i * cols + j], tile[i * C + j]))
                << "at " << i << "," << j << ": " << double(got[i * cols + j])
                << " want " << double(tile[i * C + j]);
        for (size_t e = n; e < n + 8; ++e)
          ASSERT_TRUE(sameAsSorted(got[e], poison)) << "past the end at " << e;
      }
    }
  }
}

// Each kernel takes about a second to compile for the host: the shapes
// and dimensions are spread over the types.
TEST(Sort, FloatsInTotalOrder) {
  checkSort<float>(1, {{1, 1, 1, 2}, {3, 5, 4, 8}, {7, 29, 8, 32}}, {1, 0});
  checkSort<float>(3, {{3, 250, 4, 256}}, {1});
  checkSort<float>(7, {{5, 7, 8, 8}}, {-1});
}
TEST(Sort, Doubles) { checkSort<double>(2); }
TEST(Sort, Ints) { checkSort<int32_t>(3); }
TEST(Sort, UnsignedOrder) { checkSort<uint32_t>(4); }
TEST(Sort, Bytes) { checkSort<int8_t>(5); }
TEST(Sort, Longs) { checkSort<int64_t>(6); }

/// A 3-D block sorted along its middle dimension, and booleans.
TEST(Sort, MiddleDimensionAndBooleans) {
  auto kernel = Kernel(
      "sort_3d", [](Ptr<int16_t> in, Ptr<int16_t> out, Ptr<int8_t> flags) {
        auto i = reshape(arange(0, 64), {2, 8, 4});
        store(out + i, sort(load(in + i), 1, true));
        auto f = arange(0, 16);
        store(flags + f, cast(sort(load(flags + f) != 0), DType::i8));
      });
  auto host = randomValues<int16_t>(64, 9);
  std::vector<int8_t> hflags(16);
  for (int e = 0; e < 16; ++e)
    hflags[e] = int8_t((e * 7 + 3) % 5 == 0);
  Buffer<int16_t> in(testDevice(), host);
  Buffer<int16_t> out(testDevice(), std::vector<int16_t>(64, 77));
  Buffer<int8_t> flags(testDevice(), hflags);
  kernel.launch({1}, in, out, flags);
  std::vector<int16_t> got = out.to_host();
  for (int a = 0; a < 2; ++a)
    for (int c = 0; c < 4; ++c) {
      std::vector<int16_t> line;
      for (int b = 0; b < 8; ++b)
        line.push_back(host[a * 32 + b * 4 + c]);
      std::sort(line.rbegin(), line.rend());
      for (int b = 0; b < 8; ++b)
        ASSERT_EQ(got[a * 32 + b * 4 + c], line[b])
            << a << "," << b << "," << c;
    }
  std::vector<int8_t> gf = flags.to_host();
  int ones = int(std::count(hflags.begin(), hflags.end(), 1));
  for (int e = 0; e < 16; ++e)
    ASSERT_EQ(gf[e], e >= 16 - ones ? 1 : 0) << e;
}

/// counts[pid][b] = histogram of in[pid * B ..][< n, and keep[] != 0].
template <typename T>
void histogramKernel(Ptr<T> in, Ptr<int8_t> keep, Ptr<int32_t> counts, Int n,
                     int B, int bins, bool masked) {
  auto i = program_id(0) * B + arange(0, B);
  auto x = load(in + i, i < n, 0);
  Value mask = i < n;
  if (masked)
    mask = mask & (load(keep + i, i < n, 0) != 0);
  store(counts + program_id(0) * bins + arange(0, bins),
        histogram(x, bins, mask));
}

template <typename T> void checkHistogram(unsigned seed) {
  auto kernel = Kernel("histogram", histogramKernel<T>);
  std::mt19937 gen(seed);
  for (auto [n, B, bins] : {std::array<int, 3>{1, 1, 1},
                            {37, 64, 4},
                            {1000, 256, 64},
                            {333, 128, 256}}) {
    for (bool masked : {false, true}) {
      SCOPED_TRACE("n " + std::to_string(n) + " bins " + std::to_string(bins) +
                   (masked ? " masked" : ""));
      std::vector<T> host(n);
      std::vector<int8_t> keep(n);
      for (int e = 0; e < n; ++e) {
        // Mostly in range; some below 0, at or past num_bins, and (i64)
        // a bin plus 2^32.
        int64_t v = int64_t(gen() % (bins + 6)) - 3;
        if constexpr (sizeof(T) == 8)
          if (gen() % 7 == 0)
            v += int64_t(1) << 32;
        host[e] = T(v);
        keep[e] = int8_t(gen() % 3 != 0);
      }
      int programs = int(cdiv(n, B));
      Buffer<T> in(testDevice(), host);
      Buffer<int8_t> k(testDevice(), keep);
      Buffer<int32_t> counts(testDevice(),
                             std::vector<int32_t>(programs * bins + 4, -7));
      kernel.launch({programs}, in, k, counts, n, B, bins, masked);
      std::vector<int32_t> got = counts.to_host();
      std::vector<int32_t> want(programs * bins, 0);
      for (int e = 0; e < n; ++e) {
        int64_t v = int64_t(host[e]);
        if (v >= 0 && v < bins && (!masked || keep[e]))
          ++want[(e / B) * bins + v];
      }
      for (int e = 0; e < programs * bins; ++e)
        ASSERT_EQ(got[e], want[e])
            << "program " << e / bins << " bin " << e % bins;
      for (size_t e = programs * bins; e < got.size(); ++e)
        ASSERT_EQ(got[e], -7) << "past the end at " << e;
    }
  }
}

TEST(Histogram, Ints) { checkHistogram<int32_t>(11); }
TEST(Histogram, Longs) { checkHistogram<int64_t>(12); }
TEST(Histogram, UnsignedBytes) { checkHistogram<uint8_t>(13); }
TEST(Histogram, Shorts) { checkHistogram<int16_t>(14); }

} // namespace
