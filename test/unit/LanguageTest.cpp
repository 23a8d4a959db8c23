//===- LanguageTest.cpp - sigmoid, flip, swizzle2d, assume, ... ------------===//
//
// The rest of Triton's language (issue 19): sigmoid against a float64
// reference, flip and swizzle2d against exact C++ references, on odd sizes
// with poisoned outputs (on the CPU, or on KTC_SHAPES_DEVICE=cuda|hip);
// assume, max_constancy and debug_barrier keep results and appear in the
// IR and the GPU code; and the errors of each.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"

#include "ktc/ktc.h"
#include "TestDevice.h"

#include <gtest/gtest.h>

#include <cmath>
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

std::vector<float> randomFloats(size_t n, float lo, float hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float &x : v)
    x = d(gen);
  return v;
}

TEST(Sigmoid, F32AgainstFloat64) {
  auto kernel = Kernel("sigmoid", [](Ptr<float> x, Ptr<float> y, Int n,
                                     int BLOCK) {
    Value offs = program_id(0) * BLOCK + arange(0, BLOCK);
    Value mask = offs < n;
    store(y + offs, sigmoid(load(x + offs, mask, 0.0f)), mask);
  });
  const int n = 1001, block = 256;
  std::vector<float> x = randomFloats(n, -20, 20, 7);
  x[0] = -100, x[1] = 100, x[2] = 0, x[3] = -87.5f, x[4] = 1e-8f;
  Buffer<float> in(testDevice(), x);
  Buffer<float> out(testDevice(), std::vector<float>(n + 5, -77.0f));
  kernel.launch({(n + block - 1) / block}, in, out, n, block);
  std::vector<float> got = out.to_host();
  for (int i = 0; i < n; ++i) {
    double want = 1.0 / (1.0 + std::exp(-double(x[i])));
    // exp's few ulp and two correctly rounded steps.
    double tol = 4 * std::ldexp(1.0, std::ilogb(want) - 23) + 1e-37;
    EXPECT_NEAR(got[i], want, tol) << "x = " << x[i];
  }
  for (int i = n; i < n + 5; ++i)
    EXPECT_EQ(got[i], -77.0f);
}

/// flip of an 8x16 f32 tile (from an odd-sized 7x13 matrix, masked) along
/// each dimension, and of a 2x4x8 i32 block along its middle one.
TEST(Flip, AlongEachDimensionAgainstExact) {
  auto kernel = Kernel("flip2d", [](Ptr<float> x, Ptr<float> y0,
                                    Ptr<float> y1, Int rows, Int cols) {
    Value r = expand_dims(arange(0, 8), 1);
    Value c = expand_dims(arange(0, 16), 0);
    Value mask = (r < rows) & (c < cols);
    Value tile = load(x + r * cols + c, mask, -1.0f);
    Value out = r * 16 + c;
    store(y0 + out, flip(tile, 0));
    store(y1 + out, flip(tile)); // the last dimension
  });
  const int rows = 7, cols = 13;
  std::vector<float> x = randomFloats(rows * cols, -5, 5, 3);
  Buffer<float> in(testDevice(), x);
  Buffer<float> y0(testDevice(), std::vector<float>(128, -77.0f));
  Buffer<float> y1(testDevice(), std::vector<float>(128, -77.0f));
  kernel.launch({1}, in, y0, y1, rows, cols);
  std::vector<float> g0 = y0.to_host(), g1 = y1.to_host();
  auto tile = [&](int r, int c) {
    return r < rows && c < cols ? x[r * cols + c] : -1.0f;
  };
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 16; ++c) {
      EXPECT_EQ(g0[r * 16 + c], tile(7 - r, c)) << r << "," << c;
      EXPECT_EQ(g1[r * 16 + c], tile(r, 15 - c)) << r << "," << c;
    }

  auto k3 = Kernel("flip3d", [](Ptr<int32_t> x, Ptr<int32_t> y) {
    Value a = expand_dims(expand_dims(arange(0, 2), 1), 2);
    Value b = expand_dims(expand_dims(arange(0, 4), 0), 2);
    Value c = expand_dims(expand_dims(arange(0, 8), 0), 0);
    Value idx = a * 32 + b * 8 + c;
    store(y + idx, flip(load(x + idx), -2));
  });
  std::vector<int32_t> xi(64);
  std::mt19937 gen(9);
  for (int32_t &v : xi)
    v = int32_t(gen());
  Buffer<int32_t> inI(testDevice(), xi);
  Buffer<int32_t> outI(testDevice(), std::vector<int32_t>(64, -7));
  k3.launch({1}, inI, outI);
  std::vector<int32_t> gi = outI.to_host();
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 4; ++b)
      for (int c = 0; c < 8; ++c)
        EXPECT_EQ(gi[a * 32 + b * 8 + c], xi[a * 32 + (3 - b) * 8 + c]);
}

/// flip of booleans and of u8: the bits move unchanged.
TEST(Flip, BooleansAndBytes) {
  auto kernel = Kernel("flip_bytes", [](Ptr<uint8_t> x, Ptr<uint8_t> y,
                                        Ptr<uint8_t> z) {
    Value offs = arange(0, 32);
    Value v = load(x + offs);
    store(y + offs, flip(v));
    store(z + offs, cast(flip(v > 100), DType::u8));
  });
  std::vector<uint8_t> x(32);
  std::mt19937 gen(2);
  for (uint8_t &v : x)
    v = uint8_t(gen());
  Buffer<uint8_t> in(testDevice(), x);
  Buffer<uint8_t> y(testDevice(), std::vector<uint8_t>(32, 7));
  Buffer<uint8_t> z(testDevice(), std::vector<uint8_t>(32, 7));
  kernel.launch({1}, in, y, z);
  std::vector<uint8_t> gy = y.to_host(), gz = z.to_host();
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(gy[i], x[31 - i]) << i;
    EXPECT_EQ(gz[i], x[31 - i] > 100 ? 1 : 0) << i;
  }
}

/// Triton's swizzle2d on a 7 x 9 grid in groups of 3 rows (runtime sizes),
/// against its formula in C++; the result is a permutation of the grid.
TEST(Swizzle2d, AgainstTritonsFormula) {
  auto kernel = Kernel("swizzle", [](Ptr<int32_t> oi, Ptr<int32_t> oj,
                                     Int size_i, Int size_j, Int size_g) {
    Value k = arange(0, 64);
    Value mask = k < size_i * size_j;
    auto [ni, nj] = swizzle2d(k / size_j, k % size_j, size_i, size_j,
                              size_g);
    store(oi + k, ni, mask);
    store(oj + k, nj, mask);
  });
  for (int g : {3, 1, 4, 9}) {
    const int si = 7, sj = 9;
    Buffer<int32_t> oi(testDevice(), std::vector<int32_t>(64, -7));
    Buffer<int32_t> oj(testDevice(), std::vector<int32_t>(64, -7));
    kernel.launch({1}, oi, oj, si, sj, g);
    std::vector<int32_t> gi = oi.to_host(), gj = oj.to_host();
    std::vector<int> seen(si * sj, 0);
    for (int k = 0; k < 64; ++k) {
      if (k >= si * sj) {
        EXPECT_EQ(gi[k], -7);
        EXPECT_EQ(gj[k], -7);
        continue;
      }
      int ij = k, sizeGJ = g * sj, group = ij / sizeGJ, offI = group * g;
      int sizeG = std::min(si - offI, g);
      int r = ij % sizeGJ;
      EXPECT_EQ(gi[k], offI + r % sizeG) << "g " << g << " k " << k;
      EXPECT_EQ(gj[k], r / sizeG) << "g " << g << " k " << k;
      if (gi[k] >= 0 && gi[k] < si && gj[k] >= 0 && gj[k] < sj)
        ++seen[gi[k] * sj + gj[k]];
    }
    for (int s : seen)
      EXPECT_EQ(s, 1) << "g " << g;
  }
}

/// assume and max_constancy leave results as they are and reach the IR;
/// debug_barrier is a barrier in the GPU code and nothing on the host.
TEST(LanguageHints, AssumeConstancyAndBarrier) {
  auto kernel = Kernel("assumed", [](Ptr<int32_t> x, Ptr<int32_t> y, Int n,
                                     int BLOCK, bool BARRIER) {
    assume(n > 0);
    Value offs = program_id(0) * BLOCK + arange(0, BLOCK);
    Value group = max_constancy(offs / 4 * 4, 4);
    Value mask = offs < n;
    Value v = load(x + offs, mask, 0);
    if (BARRIER)
      debug_barrier();
    store(y + offs, v * 2 + load(x + group, group < n, 0), mask);
  });
  std::string ir = kernel.mlir(64, true);
  EXPECT_NE(ir.find("llvm.intr.assume"), std::string::npos) << ir;
  EXPECT_NE(ir.find("ktc.max_constancy = array<i64: 4>"), std::string::npos)
      << ir;
  EXPECT_NE(ir.find("gpu.barrier"), std::string::npos) << ir;
  const int n = 201, block = 64;
  std::vector<int32_t> x(n);
  std::mt19937 gen(4);
  for (int32_t &v : x)
    v = int32_t(gen() % 2001) - 1000;
  Buffer<int32_t> in(testDevice(), x);
  Buffer<int32_t> out(testDevice(), std::vector<int32_t>(n + 3, -7));
  kernel.launch({(n + block - 1) / block}, in, out, n, block, true);
  std::vector<int32_t> got = out.to_host();
  for (int i = 0; i < n; ++i)
    EXPECT_EQ(got[i], x[i] * 2 + x[i / 4 * 4]) << i;
  for (int i = n; i < n + 3; ++i)
    EXPECT_EQ(got[i], -7);
  // The kernel needs no barrier of its own: without debug_barrier its GPU
  // code has none.
  EXPECT_NE(kernel.emit("asm", "sm_90", 64, true).find("bar.sync"),
            std::string::npos);
  EXPECT_EQ(kernel.emit("asm", "sm_90", 64, false).find("bar.sync"),
            std::string::npos);
  EXPECT_NE(kernel.emit("asm", "gfx942", 64, true).find("s_barrier"),
            std::string::npos);
  EXPECT_EQ(kernel.emit("asm", "gfx942", 64, false).find("s_barrier"),
            std::string::npos);
}

TEST(Language, BadInputsAreErrorsAtTheCall) {
  expectError([&] {
    Kernel("k", [](Ptr<int32_t> x) {
      at = __LINE__; store(x, sigmoid(load(x)));
    }).mlir();
  }, "sigmoid() needs floats, got i32; cast() integers first");
  expectError([&] {
    Kernel("k", [](Ptr<float> x) {
      at = __LINE__; store(x, flip(load(x)));
    }).mlir();
  }, "flip() needs a block, got f32");
  expectError([&] {
    Kernel("k", [](Ptr<float> x) {
      Value o = arange(0, 8);
      at = __LINE__; store(x + o, flip(load(x + o), 1));
    }).mlir();
  }, "flip() dimension 1 is out of range for a block of rank 1");
  expectError([&] {
    Kernel("k", [](Ptr<int32_t> x) {
      at = __LINE__; auto ij = swizzle2d(load(x), 1, 1.5f, 2, 2);
      store(x, ij.first);
    }).mlir();
  }, "swizzle2d() needs integers; size_i is f32");
  expectError([&] {
    Kernel("k", [](Ptr<int32_t> x) {
      at = __LINE__; assume(arange(0, 4) > 0);
      store(x, 1);
    }).mlir();
  }, "assume() needs a scalar boolean (i1) condition, got tensor<4xi1>; "
     "reduce a block first (e.g. min(x > 0) != 0)");
  expectError([&] {
    Kernel("k", [](Ptr<int32_t> x) {
      at = __LINE__; assume(false);
      store(x, 1);
    }).mlir();
  }, "assume(false): the program could never run");
  expectError([&] {
    Kernel("k", [](Ptr<int32_t> x) {
      at = __LINE__; Value v = max_constancy(arange(0, 8), 3);
      store(x + v, 1);
    }).mlir();
  }, "max_constancy(x, 3): 3 is not a positive power of two");
}

} // namespace
