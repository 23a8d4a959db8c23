//===- EarlyExitTest.cpp - return_if inside loops and branches ------------===//
//
// Triton's `return` anywhere in a kernel: return_if inside for_range,
// while_ and (nested) if_ bodies stops the program there, so no store
// after it happens, in the loop, after the loop or after the branch. Each
// kernel is checked against a C++ reference on random data of odd sizes
// with poisoned outputs, on the CPU or on KTC_SHAPES_DEVICE=cuda|hip; a
// block reduction (a GPU barrier) follows the exits, so a program that
// left must not stall the others. And the errors.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"

#include "ktc/ktc.h"
#include "TestDevice.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <vector>

using namespace ktc;

namespace {

int at = 0; // the line an error must point to
void expectError(const std::function<void()> &f, const std::string &message) {
  test::expectErrorAt(f, message, __FILE__, at);
}

using test::testDevice;

std::vector<int32_t> randomInts(size_t n, int32_t lo, int32_t hi,
                                unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int32_t> d(lo, hi);
  std::vector<int32_t> v(n);
  for (int32_t &x : v)
    x = d(gen);
  return v;
}

constexpr int32_t kPoison = -7777;

/// Row r of x (rows x n) is walked column by column; the program leaves at
/// the first column whose value is below `stop`. Before leaving it has
/// stored 3*x for the columns before, and a block sum (a reduction: a
/// barrier on GPUs) of the row's first BLOCK values; only a row walked to
/// the end stores its running total.
TEST(EarlyExit, InAForRange) {
  auto kernel = Kernel("leave_for", [](Ptr<int32_t> x, Ptr<int32_t> out,
                                       Ptr<int32_t> sums, Ptr<int32_t> totals,
                                       Int n, Int stop, int BLOCK) {
    Value row = program_id(0);
    Value offs = arange(0, BLOCK);
    Var total = 0;
    for_range(0, n, 1, [&](Value j) {
      Value v = load(x + row * n + j);
      return_if(v < stop);
      store(out + row * n + j, v * 3);
      total = total + v;
    });
    // Only rows walked to the end get here: a block reduction after the
    // loop's exit.
    Value block = load(x + row * n + offs, offs < n, 0);
    store(sums + row, sum(block, 0));
    store(totals + row, total);
  });
  for (int n : {37, 5}) {
    const int rows = 13;
    // About 4 rows in 10 leave.
    const int stop = -40 + 1040 / (2 * n);
    std::vector<int32_t> x = randomInts(rows * n, -40, 1000, 11 + n);
    Buffer<int32_t> in(testDevice(), x);
    Buffer<int32_t> out(testDevice(), std::vector<int32_t>(rows * n, kPoison));
    Buffer<int32_t> sums(testDevice(), std::vector<int32_t>(rows, kPoison));
    Buffer<int32_t> totals(testDevice(), std::vector<int32_t>(rows, kPoison));
    kernel.launch({rows}, in, out, sums, totals, n, stop, 64);
    std::vector<int32_t> o = out.to_host(), s = sums.to_host(),
                         tt = totals.to_host();
    int leftEarly = 0;
    for (int r = 0; r < rows; ++r) {
      int j = 0, total = 0;
      for (; j < n && x[r * n + j] >= stop; ++j) {
        EXPECT_EQ(o[r * n + j], 3 * x[r * n + j]) << r << "," << j;
        total += x[r * n + j];
      }
      for (int k = j; k < n; ++k)
        EXPECT_EQ(o[r * n + k], kPoison) << "stored after the exit " << r
                                         << "," << k;
      if (j < n) {
        ++leftEarly;
        EXPECT_EQ(s[r], kPoison) << "row " << r;
        EXPECT_EQ(tt[r], kPoison) << "row " << r;
      } else {
        int want = 0;
        for (int k = 0; k < n && k < 64; ++k)
          want += x[r * n + k];
        EXPECT_EQ(s[r], want) << "row " << r;
        EXPECT_EQ(tt[r], total) << "row " << r;
      }
    }
    EXPECT_GT(leftEarly, 0);
    EXPECT_LT(leftEarly, rows);
  }
}

/// A while_ whose body leaves from inside two nested if_s (in the then
/// branch of one and the else branch of the other); carried Vars assigned
/// before and after the exits; stores after the loop and after the ifs.
TEST(EarlyExit, InAWhileAndNestedIfs) {
  auto kernel = Kernel("leave_while", [](Ptr<int32_t> x, Ptr<int32_t> out,
                                         Ptr<int32_t> last, Int n,
                                         int BLOCK) {
    Value row = program_id(0);
    Var j = 0;
    Var acc = 1;
    while_([&] { return j < n; }, [&] {
      Value v = load(x + row * n + j);
      acc = acc * 3 + v;
      if_(v > 900, [&] {
        if_(v % 2 == 0, [&] { store(out + row * n + j, -1); }, [&] {
          return_if(v % 3 == 0); // odd multiples of 3 above 900 leave
          store(out + row * n + j, -2);
        });
      });
      store(out + row * n + j, acc);
      j = j + 1;
    });
    // A block reduction after the loop's exit.
    Value offs = arange(0, BLOCK);
    Value block = load(x + row * n + offs, offs < n, 0);
    store(last + row, max(block, 0) + acc);
  });
  const int rows = 9, n = 29;
  std::vector<int32_t> x = randomInts(rows * n, 0, 1000, 21);
  Buffer<int32_t> in(testDevice(), x);
  Buffer<int32_t> out(testDevice(), std::vector<int32_t>(rows * n, kPoison));
  Buffer<int32_t> last(testDevice(), std::vector<int32_t>(rows, kPoison));
  kernel.launch({rows}, in, out, last, n, 32);
  std::vector<int32_t> o = out.to_host(), l = last.to_host();
  int leftEarly = 0;
  for (int r = 0; r < rows; ++r) {
    std::vector<int32_t> want(n, kPoison);
    uint32_t acc = 1;
    bool left = false;
    for (int j = 0; j < n && !left; ++j) {
      int32_t v = x[r * n + j];
      acc = acc * 3u + uint32_t(v);
      if (v > 900 && v % 2 != 0 && v % 3 == 0) {
        left = true;
        break;
      }
      want[j] = int32_t(acc);
    }
    for (int j = 0; j < n; ++j)
      EXPECT_EQ(o[r * n + j], want[j]) << r << "," << j;
    int32_t m = 0;
    for (int j = 0; j < n; ++j)
      m = std::max(m, x[r * n + j]);
    EXPECT_EQ(l[r], left ? kPoison : int32_t(uint32_t(m) + acc)) << r;
    leftEarly += left;
  }
  EXPECT_GT(leftEarly, 0);
  EXPECT_LT(leftEarly, rows);
}

/// return_if in an if_ at the kernel's top level and in nested for_ranges:
/// the outer loop stops too, and a block store after the inner loop in the
/// outer one does not happen for the iteration that left.
TEST(EarlyExit, InNestedLoopsWithBlocks) {
  auto kernel = Kernel("leave_nested", [](Ptr<float> x, Ptr<float> out,
                                          Ptr<int32_t> flags, Int m, Int n,
                                          int BLOCK) {
    Value pid = program_id(0);
    if_(load(flags + pid) == 2, [&] { return_if(true); });
    Value offs = arange(0, BLOCK);
    Value mask = offs < n;
    for_range(0, m, 1, [&](Value i) {
      Value base = (pid * m + i) * n;
      Var row = load(x + base + offs, mask, 0.0f);
      for_range(0, 3, 1, [&](Value k) {
        return_if((load(flags + pid) == 1) & (i == 2) & (k == 1));
        row = row * 2.0f;
      });
      store(out + base + offs, row - max(row, 0), mask);
    });
  });
  const int programs = 7, m = 5, n = 19;
  std::vector<int32_t> flags = randomInts(programs, 0, 2, 3);
  flags[0] = 0, flags[1] = 1, flags[2] = 2;
  std::vector<float> x(programs * m * n);
  std::mt19937 gen(5);
  std::uniform_real_distribution<float> d(-1, 1);
  for (float &v : x)
    v = d(gen);
  Buffer<float> in(testDevice(), x);
  Buffer<float> out(testDevice(), std::vector<float>(x.size(), -777.0f));
  Buffer<int32_t> f(testDevice(), flags);
  kernel.launch({programs}, in, out, f, m, n, 32);
  std::vector<float> o = out.to_host();
  for (int p = 0; p < programs; ++p)
    for (int i = 0; i < m; ++i) {
      bool stored = flags[p] == 0 || (flags[p] == 1 && i < 2);
      double mx = -1e30;
      for (int j = 0; j < n; ++j)
        mx = std::max(mx, 8.0 * x[(p * m + i) * n + j]);
      for (int j = 0; j < n; ++j) {
        size_t e = (p * m + i) * n + j;
        float want = stored ? float(8.0 * x[e] - mx) : -777.0f;
        EXPECT_EQ(o[e], want) << p << "," << i << "," << j;
      }
    }
}

TEST(EarlyExit, InAWhileConditionIsAnError) {
  auto kernel = Kernel("cond_exit", [](Ptr<int32_t> out, Int n) {
    Var i = 0;
    while_([&] {
      at = __LINE__; return_if(i == 3);
      return i < n;
    }, [&] { i = i + 1; });
    store(out, i);
  });
  expectError([&] { kernel.mlir(); },
              "return_if cannot be called in a while_ condition; call it at "
              "the start of the body instead");
}

TEST(EarlyExit, InACombineFunctionIsAnError) {
  auto kernel = Kernel("combine_exit", [](Ptr<int32_t> out) {
    Value r = reduce(arange(0, 8), 0, [](Value a, Value b) {
      at = __LINE__; return_if(a > b);
      return a + b;
    });
    store(out, r);
  });
  expectError([&] { kernel.mlir(); },
              "return_if cannot be called inside a combine function "
              "(reduce, associative_scan): it leaves the whole program");
}

} // namespace
