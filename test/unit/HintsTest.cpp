//===- HintsTest.cpp - multiple_of, max_contiguous, cache hints -----------===//
//
// The public API: kernels with hints and cache hints give the same results
// on Device("cpu") (or KTC_SHAPES_DEVICE's) as without, at odd sizes with
// poisoned outputs; the hints make sm_90's and gfx942's accesses 16 bytes
// wide where nothing else proves them aligned; the cache hints reach the
// PTX and the gfx942 code; bad hints are errors at the user's line.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"
#include "MathTestUtil.h"

using namespace ktc;
using namespace ktc::mathtest;

namespace {

constexpr int kB = 1024; // 8 f32 a thread on sm_90, 4 on gfx942

/// y[start + i] = 2 x[start + i] for i < n, the offsets hinted (HINT) as
/// Triton's matmul does: max_contiguous(multiple_of(offs, 4), kB).
void copyKernel(Ptr<float> x, Ptr<float> y, Int start, Int n, bool HINT,
                bool CACHE) {
  // emit() specialises nothing: the buffers' alignment is promised here
  // (pointers: bytes, as Triton).
  multiple_of(x, 16);
  multiple_of(y, 16);
  Value i = program_id(0) * kB + arange(0, kB);
  Value offs = start + i;
  if (HINT) {
    offs = max_contiguous(multiple_of(offs, 4), kB);
    multiple_of(n, 4); // the mask i < n is constant over runs of 4
  }
  Value m = i < n;
  CacheHints in, out;
  if (CACHE) {
    in.cache_modifier = ".cg";
    out.eviction_policy = "evict_first";
  }
  Value v = load(x + offs, m, 0.0f, in);
  store(y + offs, v * 2.0f, m, out);
}

TEST(Hints, SameResultsOnTheHost) {
  for (bool hint : {false, true})
    for (bool cache : {false, true}) {
      // start and n multiples of 4 where hinted: the hints hold.
      int start = 12, n = hint ? 2004 : 1001;
      std::vector<float> x(start + n + 7);
      for (size_t k = 0; k < x.size(); ++k)
        x[k] = float(k % 97) - 40.5f;
      Device &d = testDevice();
      Buffer<float> bx(d, x), by(d, std::vector<float>(x.size(), NAN));
      Kernel("hints_copy", copyKernel)
          .launch({unsigned(cdiv(n, kB))}, bx, by, start, n, hint, cache);
      std::vector<float> y = by.to_host();
      for (size_t k = 0; k < y.size(); ++k) {
        bool inside = k >= size_t(start) && k < size_t(start + n);
        if (inside)
          ASSERT_EQ(y[k], 2.0f * x[k]) << k << " hint " << hint;
        else
          ASSERT_TRUE(std::isnan(y[k])) << k << " written";
      }
    }
}

TEST(Hints, VectorizeOnGpus) {
  auto kernel = Kernel("hints_copy", copyKernel);
  // start: nothing known without the hint.
  std::string plain = kernel.emit("asm", "sm_90", false, false);
  std::string hinted = kernel.emit("asm", "sm_90", true, false);
  EXPECT_EQ(plain.find("ld.global.v4"), std::string::npos);
  EXPECT_NE(hinted.find("ld.global.v4.b32"), std::string::npos);
  EXPECT_NE(hinted.find("st.global.v4.b32"), std::string::npos);
  std::string gPlain = kernel.emit("asm", "gfx942", false, false);
  std::string gHinted = kernel.emit("asm", "gfx942", true, false);
  EXPECT_EQ(gPlain.find("global_load_dwordx4"), std::string::npos);
  EXPECT_NE(gHinted.find("global_load_dwordx4"), std::string::npos);
  EXPECT_NE(gHinted.find("global_store_dwordx4"), std::string::npos);
}

TEST(Hints, CacheHintsReachTheCode) {
  auto kernel = Kernel("hints_copy", copyKernel);
  std::string ptx = kernel.emit("asm", "sm_90", true, true);
  EXPECT_NE(ptx.find("ld.global.cg.v4.b32"), std::string::npos);
  EXPECT_NE(ptx.find("st.global.L1::evict_first.v4.b32"), std::string::npos);
  std::string gcn = kernel.emit("asm", "gfx942", true, true);
  EXPECT_NE(gcn.find("global_load_dwordx4"), std::string::npos);
  EXPECT_NE(gcn.find(" nt"), std::string::npos);
  std::string mlir = kernel.mlir(true, true);
  EXPECT_NE(mlir.find("cache_modifier = \".cg\""), std::string::npos);
  EXPECT_NE(mlir.find("eviction_policy = \"evict_first\""), std::string::npos);
  EXPECT_NE(mlir.find("ktc.multiple_of = array<i64: 4>"), std::string::npos);
  EXPECT_NE(mlir.find("ktc.max_contiguous = array<i64: 1024>"),
            std::string::npos);
}

/// multiple_of of a scalar argument is its divisibility.
TEST(Hints, ScalarArgument) {
  auto kernel = Kernel("hints_scalar", [](Ptr<float> x, Int start) {
    multiple_of(x, 16);
    Value offs = multiple_of(start, 16) + arange(0, 1024);
    store(x + offs, load(x + offs) + 1.0f);
  });
  EXPECT_NE(kernel.mlir().find("ktc.divisibility = 16"), std::string::npos);
  EXPECT_NE(kernel.emit("asm", "sm_90").find("ld.global.v4"),
            std::string::npos);
}

int at = 0;

template <typename F> void expectKernelError(F fn, const std::string &msg) {
  test::expectErrorAt([&] { Kernel("k", fn).mlir(); }, msg, __FILE__, at);
}

TEST(Hints, Errors) {
  expectKernelError([](Int s) {
    at = __LINE__; multiple_of(s + arange(0, 16), 0);
  }, "multiple_of(x, 0): 0 is not a positive power of two");
  expectKernelError([](Int s) {
    at = __LINE__; max_contiguous(s + arange(0, 16), 12);
  }, "max_contiguous(x, 12): 12 is not a positive power of two");
  expectKernelError([](Int s) {
    at = __LINE__; multiple_of(expand_dims(s + arange(0, 16), 0), 4);
  }, "multiple_of(x, 4): 1 value(s) for tensor<1x16xi32>; give one per "
     "dimension (2)");
  expectKernelError([](Ptr<float> x) {
    at = __LINE__; multiple_of(load(x + arange(0, 16)), 4);
  }, "multiple_of(x, 4) needs i32, i64 or pointer values, got tensor<16xf32>");
  expectKernelError([](Int) {
    at = __LINE__; multiple_of(16, 4);
  }, "multiple_of(x, 4) needs a kernel value, not a literal");
  expectKernelError([](Ptr<float> x) {
    at = __LINE__; load(x, {}, {}, {.cache_modifier = ".cs"});
  }, "load: unknown cache_modifier '.cs' (expected .ca, .cg, .cv)");
  expectKernelError([](Ptr<float> x) {
    at = __LINE__; store(x, 1.0f, {}, {.cache_modifier = ".ca"});
  }, "store: unknown cache_modifier '.ca' (expected .wb, .cg, .cs, .wt)");
  expectKernelError([](Ptr<float> x) {
    at = __LINE__; load(x, {}, {}, {.eviction_policy = "evict_normal"});
  }, "load: unknown eviction_policy 'evict_normal' (expected evict_first or "
     "evict_last)");
  expectKernelError([](Ptr<float> x) {
    at = __LINE__ + 1;
    store(x, 1.0f, {}, {.cache_modifier = ".cs", .eviction_policy = "evict_first"});
  }, "store: give a cache_modifier or an eviction_policy, not both (PTX's ld "
     "and st take one or the other)");
}

} // namespace
