//===- BoundsCheckTest.cpp - the host target's checked launches -----------===//
//
// Out-of-bounds accesses on the CPU once ended the process with SIGSEGV (an
// unmasked load far past a buffer, an i32 offset that overflows, an empty
// buffer with a large n). A checked launch (Options::check_bounds, or
// KTC_CHECK_BOUNDS=1) turns each into a ktc::Error at the load's or store's
// line, naming the element offset and the buffer; kernels that stay in
// bounds give the same results checked and unchecked.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"
#include "examples/common/example.h"
#include "examples/kernels/seeds.h"
#include "ktc/ktc.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

using namespace ktc;

namespace {

int at = 0; // the line an error must point to (set while tracing)

void expectError(const std::function<void()> &f, const std::string &message) {
  test::expectErrorAt(f, message, __FILE__, at);
}

Device &cpu() { return Device::get("cpu"); }

const Options kChecked{.check_bounds = true};

/// Each program loads 16 elements at `shift` past its block, unmasked.
void farLoad(Ptr<float> x, Ptr<float> out, Int shift) {
  auto offs = program_id(0) * 16 + arange(0, 16);
  at = __LINE__; auto v = load(x + offs + shift);
  store(out + offs, v);
}

TEST(BoundsCheck, UnmaskedLoadFarPastABuffer) {
  Kernel k("far", {"x", "out", "shift"}, farLoad);
  Buffer<float> x(cpu(), 16), out(cpu(), 16);
  expectError([&] { k.launch({1}, x, out, 1000000, kChecked); },
              "kernel 'far': load of 4 bytes out of bounds: element offset "
              "1000000 of argument 1 (x), a Buffer<f32> of 16 elements (a "
              "checked launch: the access was not made)");
  // One past the end is caught too, and in bounds is fine.
  expectError([&] { k.launch({1}, x, out, 1, kChecked); },
              "kernel 'far': load of 4 bytes out of bounds: element offset 16 "
              "of argument 1 (x), a Buffer<f32> of 16 elements (a checked "
              "launch: the access was not made)");
  x.copy_from(std::vector<float>(16, 2.5f));
  k.launch({1}, x, out, 0, kChecked);
  EXPECT_EQ(out.to_host(), std::vector<float>(16, 2.5f));
}

/// (pid + 2) * stride in i32: stride 2^30 wraps to -2^31.
void overflowingOffsets(Ptr<float> x, Ptr<float> out, Int stride) {
  auto offs = (program_id(0) + 2) * stride + arange(0, 4);
  auto v = zeros({4}, DType::f32);
  at = __LINE__; v = load(x + offs);
  store(out + arange(0, 4), v);
}

TEST(BoundsCheck, I32OffsetThatOverflows) {
  Kernel k("wrap", {"x", "out", "stride"}, overflowingOffsets);
  Buffer<float> x(cpu(), 64), out(cpu(), 4);
  expectError([&] { k.launch({1}, x, out, 1 << 30, kChecked); },
              "kernel 'wrap': load of 4 bytes out of bounds: element offset "
              "-2147483648 of argument 1 (x), a Buffer<f32> of 64 elements (a "
              "checked launch: the access was not made)");
}

/// vector_add with the load and store lines known.
void add(Ptr<float> x, Ptr<float> y, Ptr<float> out, Int n, int BLOCK) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  at = __LINE__; auto a = load(x + offs, mask);
  auto b = load(y + offs, mask);
  store(out + offs, a + b, mask);
}

TEST(BoundsCheck, EmptyBufferWithALargeN) {
  Kernel k("add", {"x", "y", "out", "n", "BLOCK"}, add);
  Buffer<float> x(cpu(), 0), y(cpu(), 0), out(cpu(), 0);
  expectError([&] { k.launch({1024}, x, y, out, 1 << 20, 1024, kChecked); },
              "kernel 'add': load of 4 bytes out of bounds: element offset 0 "
              "of argument 1 (x), a Buffer<f32> of 0 elements (a checked "
              "launch: the access was not made)");
}

/// A store whose mask lets one element past the end.
void storePastTheEnd(Ptr<int32_t> out, Int n) {
  auto offs = arange(0, 32);
  at = __LINE__; store(out + offs, offs, offs <= n);
}

TEST(BoundsCheck, MaskedStoreOneTooFar) {
  Kernel k("tail", {"out", "n"}, storePastTheEnd);
  Buffer<int32_t> out(cpu(), std::vector<int32_t>(20, -1));
  expectError([&] { k.launch({1}, out, 20, kChecked); },
              "kernel 'tail': store of 4 bytes out of bounds: element offset "
              "20 of argument 1 (out), a Buffer<i32> of 20 elements (a checked "
              "launch: the access was not made)");
  // The accesses in bounds were made.
  std::vector<int32_t> got = out.to_host();
  for (int i = 0; i < 20; ++i)
    EXPECT_EQ(got[i], i);
  k.launch({1}, out, 19, kChecked); // exactly in bounds: no error
}

/// A scalar load through a pointer chosen at run time (the compiler cannot
/// tell which argument it comes from: any buffer of the launch will do).
void pick(Ptr<float> a, Ptr<float> b, Ptr<float> out, Int which, Int i) {
  Var p = a + i;
  if_(which != 0, [&] { p = b + i; });
  at = __LINE__; auto v = load(p);
  store(out, v);
}

TEST(BoundsCheck, PointerOfUnknownOriginChecksEveryBuffer) {
  Kernel k("pick", {"a", "b", "out", "which", "i"}, pick);
  Buffer<float> a(cpu(), std::vector<float>{1, 2}),
      b(cpu(), std::vector<float>{3, 4, 5}), out(cpu(), 1);
  k.launch({1}, a, b, out, 1, 2, kChecked);
  EXPECT_EQ(out.to_host()[0], 5.0f);
  try {
    k.launch({1}, a, b, out, 0, 1 << 24, kChecked);
    ADD_FAILURE() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(e.line(), unsigned(at)) << e.what();
    EXPECT_NE(e.message().find("kernel 'pick': load of 4 bytes out of "
                               "bounds: element offset "),
              std::string::npos)
        << e.message();
    EXPECT_NE(e.message().find("(the nearest buffer)"), std::string::npos)
        << e.message();
  }
}

/// A pointer walked through a loop, one row per iteration, a row too far.
void rows(Ptr<float> x, Ptr<float> out, Int n_rows) {
  Var acc = zeros({8}, DType::f32);
  for_range(0, n_rows + 1, 1, [&](Value r) {
    at = __LINE__; acc = acc + load(x + r * 8 + arange(0, 8));
  });
  store(out + arange(0, 8), acc);
}

TEST(BoundsCheck, LoopWalksPastTheEnd) {
  Kernel k("rows", {"x", "out", "n_rows"}, rows);
  Buffer<float> x(cpu(), std::vector<float>(32, 1.0f)), out(cpu(), 8);
  expectError([&] { k.launch({1}, x, out, 4, kChecked); },
              "kernel 'rows': load of 4 bytes out of bounds: element offset "
              "32 of argument 1 (x), a Buffer<f32> of 32 elements (a checked "
              "launch: the access was not made)");
}

/// A 2-D tile of bf16 rows, one row too many; then a scalar store through
/// an i64 offset 2^33 elements away.
int tileLoad = 0, tileStore = 0; // the lines of tile's accesses

void tile(Ptr<bfloat16> x, Ptr<bfloat16> out, Int rows_n, Long far) {
  auto r = expand_dims(arange(0, 4), 1), c = expand_dims(arange(0, 8), 0);
  tileLoad = __LINE__; auto v = load(x + r * 8 + c, r < rows_n);
  store(out + r * 8 + c, v, r < 3);
  if_(far != 0, [&] { tileStore = __LINE__; store(out + far, 1.0f); });
}

TEST(BoundsCheck, TwoDimensionalTileAndWideOffsets) {
  Kernel k("tile", {"x", "out", "rows_n", "far"}, tile);
  Buffer<bfloat16> x(cpu(), 24), out(cpu(), 24); // 3 rows of 8
  k.launch({1}, x, out, 3, int64_t(0), kChecked); // in bounds
  expectError([&] { at = tileLoad; k.launch({1}, x, out, 4, int64_t(0), kChecked); },
              "kernel 'tile': load of 2 bytes out of bounds: element offset "
              "24 of argument 1 (x), a Buffer<bf16> of 24 elements (a checked "
              "launch: the access was not made)");
  expectError([&] { at = tileStore; k.launch({1}, x, out, 3, int64_t(1) << 33, kChecked); },
              "kernel 'tile': store of 2 bytes out of bounds: element offset "
              "8589934592 of argument 2 (out), a Buffer<bf16> of 24 elements "
              "(a checked launch: the access was not made)");
}

/// In bounds, checked and unchecked agree bit for bit, and are two
/// specialisations of the kernel.
TEST(BoundsCheck, InBoundsKernelsGiveIdenticalResults) {
  auto vadd = Kernel("vadd", {"x", "y", "out", "n", "BLOCK"}, seeds::vector_add);
  for (int64_t n : {1, 1000, 4097}) {
    auto hx = example::randomVector(n, n), hy = example::randomVector(n, n + 7);
    Buffer<float> x(cpu(), hx), y(cpu(), hy), a(cpu(), n), b(cpu(), n);
    vadd.launch({cdiv(n, 256)}, x, y, a, n, 256);
    vadd.launch({cdiv(n, 256)}, x, y, b, n, 256, kChecked);
    std::vector<float> unchecked = a.to_host(), checked = b.to_host();
    ASSERT_EQ(std::memcmp(unchecked.data(), checked.data(), n * 4), 0) << n;
  }
  // n = 1 and n > 1 are two specialisations, each checked and unchecked.
  EXPECT_EQ(vadd.num_compiled(), 4u);

  auto softmax = Kernel("softmax", {"in", "out", "stride", "n", "BLOCK"},
                        seeds::softmax_online);
  int64_t rowsN = 7, cols = 300;
  auto hin = example::randomVector(rowsN * cols, 3);
  Buffer<float> in(cpu(), hin), a(cpu(), rowsN * cols), b(cpu(), rowsN * cols);
  softmax.launch({rowsN}, in, a, cols, cols, 128);
  softmax.launch({rowsN}, in, b, cols, cols, 128, kChecked);
  std::vector<float> unchecked = a.to_host(), checked = b.to_host();
  ASSERT_EQ(std::memcmp(unchecked.data(), checked.data(), unchecked.size() * 4),
            0);
}

/// Launches `farLoad` out of bounds without asking for a check; exits 0 if
/// that is the checked error (the child process of the test below).
[[noreturn]] void launchWithTheEnvironmentVariable() {
  setenv("KTC_CHECK_BOUNDS", "1", 1);
  Kernel k("far", {"x", "out", "shift"}, farLoad);
  Buffer<float> x(cpu(), 16), out(cpu(), 16);
  try {
    k.launch({1}, x, out, 1000000);
  } catch (const Error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    bool checked = e.message().find("element offset 1000000 of argument 1 "
                                    "(x)") != std::string::npos;
    std::exit(checked ? 0 : 3);
  }
  std::exit(2);
}

/// KTC_CHECK_BOUNDS=1 checks launches that do not ask (read once per
/// process: the check runs in a fresh one).
TEST(BoundsCheckDeathTest, EnvironmentVariableChecksEveryLaunch) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(launchWithTheEnvironmentVariable(), testing::ExitedWithCode(0),
              "element offset 1000000");
}

} // namespace
