//===- ControlTest.cpp - while_, return_if, static_assert_, negative steps -===//
//
// Control flow of issue 19 item 6 on the CPU device, each checked against
// a plain C++ reference on random data of odd sizes with poisoned outputs
// (on the CPU, or on KTC_SHAPES_DEVICE=cuda|hip):
// while_ carrying scalar and block Vars, for_range counting down over a
// block, return_if leaving a program early, static_assert_ on values known
// at trace time; and the errors of each.
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

/// The CPU, or KTC_SHAPES_DEVICE's device (cuda, hip) for the GPU runs.
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

//===----------------------------------------------------------------------===//
// while_
//===----------------------------------------------------------------------===//

/// Collatz: program i counts the steps from start[i] to 1, a while_ whose
/// trip count differs from program to program.
TEST(While, ScalarVarsCarriedUntilTheConditionFails) {
  auto kernel = Kernel("collatz", [](Ptr<int32_t> start, Ptr<int32_t> steps) {
    Var x = load(start + program_id(0));
    Var n = 0;
    while_([&] { return x != 1; }, [&] {
      x = where(x % 2 == 0, x / 2, x * 3 + 1);
      n = n + 1;
    });
    store(steps + program_id(0), n);
  });
  std::vector<int32_t> starts = randomInts(37, 1, 1000, 1);
  Buffer<int32_t> in(testDevice(), starts);
  Buffer<int32_t> out(testDevice(), std::vector<int32_t>(starts.size(), -7));
  kernel.launch({int64_t(starts.size())}, in, out);
  std::vector<int32_t> got = out.to_host();
  for (size_t i = 0; i < starts.size(); ++i) {
    int64_t x = starts[i], n = 0;
    while (x != 1) {
      x = x % 2 == 0 ? x / 2 : 3 * x + 1;
      ++n;
    }
    EXPECT_EQ(got[i], n) << "start " << starts[i];
  }
}

/// A block Var carried by a while_ whose condition reads a scalar Var the
/// body assigns: out[j] = sum over rows r < rows of x[r][j], j < n (odd).
TEST(While, BlockVarSumsRowsOfAnOddWidth) {
  auto kernel = Kernel("row_sum", [](Ptr<int32_t> x, Ptr<int32_t> out, Int n,
                                     Int rows, int BLOCK) {
    Value cols = arange(0, BLOCK);
    Value mask = cols < n;
    Var acc = zeros({BLOCK}, DType::i32);
    Var r = 0;
    while_([&] { return r < rows; }, [&] {
      acc = acc + load(x + r * n + cols, mask, 0);
      r = r + 1;
    });
    store(out + cols, acc, mask);
  });
  const int n = 29, rows = 13;
  std::vector<int32_t> x = randomInts(n * rows, -1000, 1000, 2);
  Buffer<int32_t> in(testDevice(), x);
  Buffer<int32_t> out(testDevice(), std::vector<int32_t>(32, -7));
  kernel.launch({1}, in, out, n, rows, 32);
  std::vector<int32_t> got = out.to_host();
  for (int j = 0; j < 32; ++j) {
    int64_t want = -7;
    if (j < n) {
      want = 0;
      for (int r = 0; r < rows; ++r)
        want += x[r * n + j];
    }
    EXPECT_EQ(got[j], want) << "column " << j;
  }
}

/// A condition that is false at once runs no iteration; the Vars keep
/// their values. The loop steps away from its exit (it would run until v
/// wraps), which ptxas unrolled with a wrong trip count: 0 came out on the
/// H200 for 41 (lib/Target/NVPTX/PtxasLoops.cpp).
TEST(While, FalseAtOnceRunsNothing) {
  auto kernel = Kernel("never", [](Ptr<int32_t> out, Int k) {
    Var v = k;
    while_([&] { return v < 0; }, [&] { v = v - 1; });
    store(out, v);
  });
  for (int32_t k : {41, 0, 1, 3, 4, 5, 1000003, INT32_MAX}) {
    Buffer<int32_t> out(testDevice(), std::vector<int32_t>{-7});
    kernel.launch({1}, out, k);
    EXPECT_EQ(out.to_host()[0], k);
  }
}

/// An unsigned Var counting down through 0 to 0xffffffff (the loop means
/// the wrap-around: from u = 5 it runs 6 times), beside signed Vars that
/// must stay signed through the loop.
TEST(While, UnsignedVarWrapsAroundBesideSignedOnes) {
  auto kernel = Kernel("wraps", [](Ptr<uint32_t> outU, Ptr<int32_t> outN,
                                   Scalar<uint32_t> u0) {
    Var u = u0;
    Var n = 0;
    Var m = -3;
    while_([&] { return u < 10; }, [&] {
      u = u - 1;
      n = n + 1;
      m = m - 2;
    });
    store(outU, u);
    store(outN, n);
    store(outN + 1, m / 2);                 // signed: -(3 + 2n) / 2
    store(outN + 2, where(m < n, 1, 0));    // signed compare: 1
    store(outN + 3, (m >> 1));              // arithmetic shift
  });
  for (uint32_t u0 : {5u, 0u, 9u, 10u, 41u, 0xfffffff0u}) {
    Buffer<uint32_t> outU(testDevice(), std::vector<uint32_t>{7});
    Buffer<int32_t> outN(testDevice(), std::vector<int32_t>(4, -7));
    kernel.launch({1}, outU, outN, u0);
    uint32_t u = u0;
    int32_t n = 0, m = -3;
    while (u < 10) {
      u -= 1;
      n += 1;
      m -= 2;
    }
    std::vector<int32_t> got = outN.to_host();
    EXPECT_EQ(outU.to_host()[0], u) << "u0 " << u0;
    EXPECT_EQ(got[0], n) << "u0 " << u0;
    EXPECT_EQ(got[1], m / 2) << "u0 " << u0;
    EXPECT_EQ(got[2], m < n ? 1 : 0) << "u0 " << u0;
    EXPECT_EQ(got[3], m >> 1) << "u0 " << u0;
  }
}

TEST(While, ABlockConditionIsAnError) {
  auto kernel = Kernel("block_cond", [](Ptr<int32_t> out) {
    Var v = arange(0, 4);
    at = __LINE__; while_([&] { return v < 3; }, [&] { v = v + 1; });
    store(out + arange(0, 4), v);
  });
  expectError([&] { kernel.mlir(); },
              "while_ needs a scalar boolean (i1) condition, got "
              "tensor<4xi1>; a block's elements may differ, so reduce it "
              "first (e.g. max(x) > 0)");
}

//===----------------------------------------------------------------------===//
// for_range counting down over a block (odd bounds, negative steps)
//===----------------------------------------------------------------------===//

/// Horner's rule from the last row down: acc = acc * 3 + x[r], r from
/// rows - 1 down to 0 by `step` (negative), over an odd width.
TEST(ForRangeDown, NegativeStepsCarryABlock) {
  auto kernel = Kernel("horner", [](Ptr<int32_t> x, Ptr<int32_t> out, Int n,
                                    Int last, Int step, int BLOCK) {
    Value cols = arange(0, BLOCK);
    Value mask = cols < n;
    Var acc = zeros({BLOCK}, DType::i32);
    for_range(last, -1, step, [&](Value r) {
      acc = acc * 3 + load(x + r * n + cols, mask, 0);
    });
    store(out + cols, acc, mask);
  });
  const int n = 13, rows = 11;
  std::vector<int32_t> x = randomInts(n * rows, -50, 50, 3);
  Buffer<int32_t> in(testDevice(), x);
  for (int step : {-1, -2, -3, -7, -11, -12}) {
    Buffer<int32_t> out(testDevice(), std::vector<int32_t>(16, -7));
    kernel.launch({1}, in, out, n, rows - 1, step, 16);
    std::vector<int32_t> got = out.to_host();
    for (int j = 0; j < 16; ++j) {
      uint32_t want = uint32_t(-7);
      if (j < n) {
        want = 0;
        for (int r = rows - 1; r > -1; r += step)
          want = want * 3u + uint32_t(x[r * n + j]);
      }
      EXPECT_EQ(uint32_t(got[j]), want) << "step " << step << " column " << j;
    }
  }
}

//===----------------------------------------------------------------------===//
// return_if
//===----------------------------------------------------------------------===//

/// Programs whose flag is set leave before storing: their outputs keep the
/// poison; the others write their odd-sized block.
TEST(ReturnIf, ProgramsLeaveEarly) {
  auto kernel = Kernel("leave", [](Ptr<int32_t> flags, Ptr<int32_t> x,
                                   Ptr<int32_t> out, Int n, int BLOCK) {
    Value pid = program_id(0);
    Value offs = pid * BLOCK + arange(0, BLOCK);
    Value mask = offs < n;
    Var v = load(x + offs, mask, 0);
    return_if(load(flags + pid) != 0);
    v = v * 2 + 1;
    return_if(pid == 5); // a second exit, nested in the first's else
    store(out + offs, v, mask);
  });
  const int n = 101, block = 16, programs = 7;
  std::vector<int32_t> flags = randomInts(programs, 0, 1, 4);
  flags[0] = 0;
  std::vector<int32_t> x = randomInts(n, -1000, 1000, 5);
  Buffer<int32_t> f(testDevice(), flags), in(testDevice(), x);
  Buffer<int32_t> out(testDevice(), std::vector<int32_t>(n, -7));
  kernel.launch({programs}, f, in, out, n, block);
  std::vector<int32_t> got = out.to_host();
  for (int i = 0; i < n; ++i) {
    int p = i / block;
    int32_t want = flags[p] || p == 5 ? -7 : x[i] * 2 + 1;
    EXPECT_EQ(got[i], want) << "element " << i;
  }
}

TEST(ReturnIf, ABlockConditionIsAnError) {
  auto kernel = Kernel("block_exit", [](Ptr<int32_t> out) {
    at = __LINE__; return_if(arange(0, 4) > 2);
    store(out, 1);
  });
  expectError([&] { kernel.mlir(); },
              "return_if needs a scalar boolean (i1) condition, got "
              "tensor<4xi1>; a block's elements may differ, so reduce it "
              "first (e.g. max(x) > 0)");
}

//===----------------------------------------------------------------------===//
// static_assert_
//===----------------------------------------------------------------------===//

TEST(StaticAssert, FalseConstexprIsAnErrorAtItsLine) {
  auto kernel = Kernel("sa", [](Ptr<float> out, int BLOCK) {
    at = __LINE__; static_assert_(BLOCK >= 16, "BLOCK must be at least 16");
    store(out + arange(0, BLOCK), 1.0f);
  });
  expectError([&] { kernel.mlir(8); },
              "static assertion failed: BLOCK must be at least 16");
  EXPECT_NO_THROW(kernel.mlir(16));
}

TEST(StaticAssert, ARuntimeValueIsAnError) {
  auto kernel = Kernel("sa_runtime", [](Ptr<int32_t> out, Int n) {
    at = __LINE__; static_assert_(n > 0, "n positive");
    store(out, n);
  });
  expectError([&] { kernel.mlir(); },
              "static_assert_ needs a condition known when the kernel is "
              "traced (a constexpr, a C++ value or a constant), got a value "
              "computed at run time of type i1");
}

} // namespace
