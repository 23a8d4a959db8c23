//===- DotI8Test.cpp - dot(a, b, acc) of i8 blocks into i32 ----------------===//
//
// Issue 18's integer dot, the public API only, on Device("cpu") (or
// KTC_SHAPES_DEVICE's device, as DotTest): i8 x i8 products summed in i32
// are exact, so every target's result must equal the reference bit for
// bit, whatever order its matrix cores sum in. Random i8 over the whole
// range (-128 included), odd sizes, a K loop, the output poisoned first;
// block shapes that take the matrix instructions on gfx90a/gfx942/gfx950
// (32x32 and 16x16 tiles), gfx11/gfx12 (16x16x16) and sm_80 (m16n8k32),
// and shapes too small for any (the FMA path).
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"
#include "ktc/ktc.h"
#include "TestDevice.h"

#include <gtest/gtest.h>

#include <random>

using namespace ktc;

namespace {

using test::testDevice;

int at = 0;

/// c (M x N) = acc0 + a (M x K) @ b (K x N), row-major, BM x BN tiles per
/// program, BK a step.
void matmulI8(Ptr<int8_t> a, Ptr<int8_t> b, Ptr<int32_t> c, Int M, Int N,
              Int K, Int acc0, int BM, int BN, int BK) {
  auto rm = expand_dims(program_id(0) * BM + arange(0, BM), 1);
  auto rn = expand_dims(program_id(1) * BN + arange(0, BN), 0);
  Var acc = full({BM, BN}, acc0, DType::i32);
  for_range(0, K, BK, [&](Value k) {
    auto ka = expand_dims(k + arange(0, BK), 0);
    auto kb = expand_dims(k + arange(0, BK), 1);
    auto x = load(a + rm * K + ka, (rm < M) & (ka < K), 0);
    auto y = load(b + kb * N + rn, (kb < K) & (rn < N), 0);
    acc = dot(x, y, acc);
  });
  store(c + rm * N + rn, acc, (rm < M) & (rn < N));
}

struct Shape {
  int M, N, K, BM, BN, BK, warps;
};

void checkI8(const Shape &s, uint64_t seed) {
  SCOPED_TRACE(std::to_string(s.M) + "x" + std::to_string(s.N) + "x" +
               std::to_string(s.K) + " in " + std::to_string(s.BM) + "x" +
               std::to_string(s.BN) + "x" + std::to_string(s.BK) + ", " +
               std::to_string(s.warps) + " warps");
  std::mt19937_64 gen(seed);
  std::vector<int8_t> ha(size_t(s.M) * s.K), hb(size_t(s.K) * s.N);
  for (int8_t &x : ha)
    x = int8_t(gen() % 256 - 128);
  for (int8_t &x : hb)
    x = int8_t(gen() % 256 - 128);
  ha[0] = -128, hb[hb.size() - 1] = -128; // the extremes, where they hit
  ha[ha.size() / 2] = 127;
  const int32_t acc0 = -12345, poison = 0x7badbad5;
  size_t size = size_t(s.M) * s.N;
  Buffer<int8_t> a(testDevice(), ha), b(testDevice(), hb);
  Buffer<int32_t> c(testDevice(), std::vector<int32_t>(size + 16, poison));
  static auto kernel = Kernel("dot_i8", matmulI8);
  kernel.launch({unsigned(cdiv(s.M, s.BM)), unsigned(cdiv(s.N, s.BN))}, a,
                b, c, s.M, s.N, s.K, acc0, s.BM, s.BN, s.BK,
                Options{.num_warps = s.warps});
  std::vector<int32_t> got = c.to_host();
  for (int i = 0; i < s.M; ++i)
    for (int j = 0; j < s.N; ++j) {
      int64_t ref = acc0;
      for (int k = 0; k < s.K; ++k)
        ref += int64_t(ha[size_t(i) * s.K + k]) * hb[size_t(k) * s.N + j];
      ASSERT_EQ(got[size_t(i) * s.N + j], int32_t(ref))
          << "at " << i << ", " << j;
    }
  for (size_t e = size; e < got.size(); ++e)
    ASSERT_EQ(got[e], poison) << "written past the end at " << e;
}

TEST(DotI8, ExactOnOddShapes) {
  const Shape shapes[] = {
      {1, 1, 1, 16, 16, 16, 4},     {17, 19, 23, 16, 16, 16, 4},
      {33, 65, 47, 32, 32, 16, 4},  {70, 45, 77, 64, 64, 32, 4},
      {65, 97, 100, 64, 32, 64, 4}, {37, 41, 130, 32, 32, 64, 4},
      {19, 130, 9, 16, 128, 8, 4},  {5, 3, 70, 1, 2, 64, 1},
      {11, 13, 21, 2, 8, 4, 2},     {129, 67, 95, 128, 64, 32, 8},
  };
  for (const Shape &s : shapes)
    checkI8(s, uint64_t(s.M) * 31 + s.K);
}

/// dot(trans(at), trans(bt)) of i8, no accumulator (i32 zeros).
void transposedI8(Ptr<int8_t> at, Ptr<int8_t> bt, Ptr<int32_t> c, int BM,
                  int BN, int BK) {
  auto kc = expand_dims(arange(0, BK), 1), kr = expand_dims(arange(0, BK), 0);
  auto a = trans(load(at + kc * BM + expand_dims(arange(0, BM), 0)));
  auto b = trans(load(bt + expand_dims(arange(0, BN), 1) * BK + kr));
  auto m = expand_dims(arange(0, BM), 1), n = expand_dims(arange(0, BN), 0);
  store(c + m * BN + n, dot(a, b) + 7);
}

TEST(DotI8, TransposedOperandsNoAccumulator) {
  for (auto [BM, BN, BK] : {std::tuple{32, 64, 32}, {64, 16, 16}, {16, 16, 64}}) {
    SCOPED_TRACE(std::to_string(BM) + "x" + std::to_string(BN) + "x" +
                 std::to_string(BK));
    std::mt19937_64 gen(BM * 3 + BN + BK);
    std::vector<int8_t> ha(size_t(BK) * BM), hb(size_t(BN) * BK);
    for (int8_t &x : ha)
      x = int8_t(gen() % 256 - 128);
    for (int8_t &x : hb)
      x = int8_t(gen() % 256 - 128);
    Buffer<int8_t> a(testDevice(), ha), b(testDevice(), hb);
    Buffer<int32_t> c(testDevice(),
                      std::vector<int32_t>(size_t(BM) * BN, 0x7badbad5));
    static auto kernel = Kernel("dot_i8_trans", transposedI8);
    kernel.launch({1}, a, b, c, BM, BN, BK);
    std::vector<int32_t> got = c.to_host();
    for (int i = 0; i < BM; ++i)
      for (int j = 0; j < BN; ++j) {
        int32_t ref = 7;
        for (int k = 0; k < BK; ++k)
          ref += int32_t(ha[size_t(k) * BM + i]) * hb[size_t(j) * BK + k];
        ASSERT_EQ(got[size_t(i) * BN + j], ref) << "at " << i << ", " << j;
      }
  }
}

void expectError(const std::function<void()> &f, const std::string &message) {
  test::expectErrorAt(f, message, __FILE__, at);
}

TEST(DotI8, WrongAccumulatorsAreErrorsAtTheCall) {
  auto tile = [](auto p, int r, int c) {
    return load(p + expand_dims(arange(0, r), 1) * c +
                expand_dims(arange(0, c), 0));
  };
  expectError(
      [&] {
        Kernel("bad_dot_i8", [&](Ptr<int8_t> p) {
          auto a = tile(p, 16, 16);
          at = __LINE__ + 1;
          dot(a, a, zeros({16, 16}, DType::f32));
        }).mlir();
      },
      "dot() of i8 blocks accumulates in i32, got a tensor<16x16xf32> "
      "accumulator (cast() it to i32)");
  expectError(
      [&] {
        Kernel("bad_dot_i8_scalar", [&](Ptr<int8_t> p) {
          auto a = tile(p, 16, 16);
          at = __LINE__ + 1;
          dot(a, a, 1.5f);
        }).mlir();
      },
      "dot() of i8 blocks accumulates in i32, got a f32 accumulator");
  expectError(
      [&] {
        Kernel("bad_dot_f16_i32", [&](Ptr<half> p) {
          auto a = tile(p, 16, 16);
          at = __LINE__ + 1;
          dot(a, a, zeros({16, 16}, DType::i32));
        }).mlir();
      },
      "dot() accumulates in f32, got a tensor<16x16xi32> accumulator "
      "(cast() it to f32)");
  expectError(
      [&] {
        Kernel("bad_dot_i8_f16", [&](Ptr<int8_t> p, Ptr<half> q) {
          auto a = tile(p, 16, 16), b = tile(q, 16, 16);
          at = __LINE__ + 1;
          dot(a, b);
        }).mlir();
      },
      "dot() operands must have one element type, got i8 and f16 (cast() "
      "one of them)");
}

} // namespace
