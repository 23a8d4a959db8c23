//===- DebugTest.cpp - device_print and device_assert on the host ----------===//
//
// Issue 19 item 7 on the CPU device: the exact lines device_print writes
// (Triton's "pid (X, Y, Z) idx (I) PREFIX: VALUE") for blocks of data of
// odd length, scalars and several operands; both compiled out without
// Options::debug, which is part of the kernel cache's key; a failing
// device_assert as a ktc::Error at its line naming the program and the
// element; and the errors of bad operands.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"

#include "ktc/ktc.h"
#include "TestDevice.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

using namespace ktc;

namespace {

int at = 0; // the line an error must point to
void expectError(const std::function<void()> &f, const std::string &message) {
  test::expectErrorAt(f, message, __FILE__, at);
}

Device &cpu() { return Device::get("cpu"); }
/// The CPU, or KTC_SHAPES_DEVICE's device for the prints (cuda; the
/// assertions stay on the CPU: CUDA's trap loses the context).
using test::testDevice;
bool onCpu() { return &testDevice() == &cpu(); }
const Options kDebug{.debug = true};

/// The lines of `text`, sorted (programs run on several threads: lines of
/// different programs interleave, never within a line).
std::vector<std::string> sortedLines(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

/// Prints (with the launch's options) what `kernel` prints.
template <typename K, typename... A>
std::string printed(K &kernel, A &&...args) {
  std::fflush(stdout);
  testing::internal::CaptureStdout();
  kernel.launch(std::forward<A>(args)...);
  testDevice().synchronize(); // CUDA prints its buffer then
  return testing::internal::GetCapturedStdout();
}

auto blockPrinter() {
  return Kernel("printer", [](Ptr<float> x, Int n, int BLOCK) {
    Value offs = program_id(0) * BLOCK + arange(0, BLOCK);
    device_print("x", load(x + offs, offs < n, -1.0f));
  });
}

TEST(DevicePrint, EveryElementOfAnOddLengthBlock) {
  auto kernel = blockPrinter();
  const int n = 13, block = 8;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = 0.25f * float(i * 7 % 11) - 1.5f; // exact in %f
  Buffer<float> in(testDevice(), x);
  std::string out = printed(kernel, Grid{2}, in, n, block, kDebug);
  std::vector<std::string> want;
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < block; ++i) {
      int e = p * block + i;
      char line[96];
      std::snprintf(line, sizeof line, "pid (%d, 0, 0) idx (%d) x: %f", p, i,
                    e < n ? double(x[e]) : -1.0);
      want.push_back(line);
    }
  std::sort(want.begin(), want.end());
  EXPECT_EQ(sortedLines(out), want);
}

/// One program prints its lines in element order.
TEST(DevicePrint, OneProgramPrintsInElementOrder) {
  auto kernel = Kernel("in_order", [](Ptr<int32_t> x, int BLOCK) {
    Value rows = expand_dims(arange(0, 2), 1);
    Value cols = expand_dims(arange(0, BLOCK), 0);
    device_print("v", load(x + rows * BLOCK + cols));
  });
  std::vector<int32_t> x = {7, -3, 12, 5, -9, 0, 41, -100};
  Buffer<int32_t> in(testDevice(), x);
  std::string out = printed(kernel, Grid{1}, in, 4, kDebug);
  if (!onCpu()) // a GPU's threads print in no set order
    out = [&] {
      std::string joined;
      for (const std::string &line : sortedLines(out))
        joined += line + "\n";
      return joined;
    }();
  EXPECT_EQ(out, "pid (0, 0, 0) idx (0, 0) v: 7\n"
                 "pid (0, 0, 0) idx (0, 1) v: -3\n"
                 "pid (0, 0, 0) idx (0, 2) v: 12\n"
                 "pid (0, 0, 0) idx (0, 3) v: 5\n"
                 "pid (0, 0, 0) idx (1, 0) v: -9\n"
                 "pid (0, 0, 0) idx (1, 1) v: 0\n"
                 "pid (0, 0, 0) idx (1, 2) v: 41\n"
                 "pid (0, 0, 0) idx (1, 3) v: -100\n");
}

TEST(DevicePrint, ScalarsAndSeveralOperands) {
  auto kernel = Kernel("scalars", [](Ptr<int64_t> x, Int n) {
    device_print("n", n);
    device_print("pair%", load(x + arange(0, 2)), arange(0, 2) < 1);
  });
  Buffer<int64_t> in(testDevice(), std::vector<int64_t>{-5000000000LL, 77});
  std::string out = printed(kernel, Grid{1, 2}, in, 19, kDebug);
  std::vector<std::string> want;
  for (int y = 0; y < 2; ++y) {
    std::string pid = "pid (0, " + std::to_string(y) + ", 0) ";
    want.push_back(pid + "n: 19");
    want.push_back(pid + "idx (0) pair% (operand 0): -5000000000");
    want.push_back(pid + "idx (1) pair% (operand 0): 77");
    want.push_back(pid + "idx (0) pair% (operand 1): 1");
    want.push_back(pid + "idx (1) pair% (operand 1): 0");
  }
  std::sort(want.begin(), want.end());
  EXPECT_EQ(sortedLines(out), want);
}

/// Without Options::debug nothing prints; with it the kernel is compiled
/// again (the option is part of the cache's key), and a launch without it
/// afterwards finds its first compile.
TEST(DevicePrint, CompiledOutWithoutDebugAndPartOfTheKey) {
  auto kernel = blockPrinter();
  Buffer<float> in(testDevice(), std::vector<float>{1.5f, 2.5f, 3.5f});
  EXPECT_EQ(printed(kernel, Grid{1}, in, 3, 4), "");
  EXPECT_EQ(kernel.num_compiled(), 1u);
  EXPECT_EQ(sortedLines(printed(kernel, Grid{1}, in, 3, 4, kDebug)).size(),
            4u);
  EXPECT_EQ(kernel.num_compiled(), 2u);
  EXPECT_EQ(printed(kernel, Grid{1}, in, 3, 4), "");
  EXPECT_EQ(kernel.num_compiled(), 2u);
  EXPECT_EQ(kernel.mlir(4).find("ktc.print"), std::string::npos);
  EXPECT_NE(kernel.mlir(4, kDebug).find("ktc.print \"x\""),
            std::string::npos);
}

TEST(DevicePrint, APointerIsAnError) {
  auto kernel = Kernel("print_ptr", [](Ptr<float> x) {
    at = __LINE__; device_print("p", x);
  });
  expectError([&] { kernel.mlir(); },
              "device_print prints integers and floats, got !ktc.ptr<f32>");
}

//===----------------------------------------------------------------------===//
// device_assert
//===----------------------------------------------------------------------===//

int assertLine = 0;
auto nonNegative() {
  return Kernel("non_negative", [](Ptr<int32_t> x, Ptr<int32_t> y, Int n,
                                   int BLOCK) {
    Value offs = program_id(0) * BLOCK + arange(0, BLOCK);
    Value mask = offs < n;
    Value v = load(x + offs, mask, 0);
    assertLine = __LINE__; device_assert(v >= 0, "x must be non-negative");
    store(y + offs, v * 2, mask);
  });
}

TEST(DeviceAssert, AFailureIsAnErrorNamingTheFirstProgramAndElement) {
  auto kernel = nonNegative();
  const int n = 37, block = 8;
  std::vector<int32_t> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = (i * 13) % 29;
  x[2 * block + 3] = -4; // program 2, element 3
  x[2 * block + 6] = -1;
  x[4 * block + 1] = -8; // a later program
  Buffer<int32_t> in(cpu(), x);
  Buffer<int32_t> out(cpu(), std::vector<int32_t>(n, -7));
  try {
    kernel.launch({5}, in, out, n, block, kDebug);
    ADD_FAILURE() << "no ktc::Error";
  } catch (const Error &e) {
    EXPECT_EQ(e.message(), "device_assert failed: x must be non-negative "
                           "(program (2, 0, 0), element (3))");
    EXPECT_EQ(e.file(), __FILE__);
    EXPECT_EQ(e.line(), unsigned(assertLine));
  }
  // The programs ran to their end.
  std::vector<int32_t> got = out.to_host();
  for (int i = 0; i < n; ++i)
    EXPECT_EQ(got[i], x[i] * 2) << i;
  // Without debug the assertion is compiled out.
  Buffer<int32_t> again(cpu(), std::vector<int32_t>(n, -7));
  EXPECT_NO_THROW(kernel.launch({5}, in, again, n, block));
  EXPECT_EQ(again.to_host()[2 * block + 3], -8);
}

TEST(DeviceAssert, PassingAssertionsAndCheckedLaunches) {
  auto kernel = nonNegative();
  const int n = 21, block = 8;
  std::vector<int32_t> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = i * 3 + 1;
  Buffer<int32_t> in(cpu(), x);
  Buffer<int32_t> out(cpu(), std::vector<int32_t>(n, -7));
  kernel.launch({3}, in, out, n, block, kDebug);
  std::vector<int32_t> got = out.to_host();
  for (int i = 0; i < n; ++i)
    EXPECT_EQ(got[i], x[i] * 2) << i;
  // A scalar condition, in a checked launch (programs in order).
  auto scalar = Kernel("scalar_assert", [](Ptr<int32_t> x, Int n) {
    at = __LINE__; device_assert(load(x + program_id(0)) < n, "small");
  });
  try {
    scalar.launch({int64_t(n)}, in, 40,
                  Options{.check_bounds = true, .debug = true});
    ADD_FAILURE() << "no ktc::Error";
  } catch (const Error &e) {
    EXPECT_EQ(e.message(), "device_assert failed: small (program (13, 0, 0))");
    EXPECT_EQ(e.line(), unsigned(at));
  }
}

TEST(DeviceAssert, ANonBooleanConditionIsAnError) {
  auto kernel = Kernel("assert_int", [](Ptr<int32_t> x) {
    at = __LINE__; device_assert(load(x), "nonzero");
  });
  expectError([&] { kernel.mlir(); },
              "device_assert needs a boolean (i1) scalar or block, got i32");
}

} // namespace
