//===- KernelNamesTest.cpp - kernels named like the process's symbols -----===//
//
// A kernel's name is the user's; on the host it must not become a symbol of
// the process. A kernel named "expf" once replaced the C library's expf for
// the code the JIT linked (a SIGSEGV), one named "free" failed to load
// (issue 15, item 8). Each name here runs on the CPU with a checked result
// (math that calls the C library included) and compiles for one NVIDIA and
// one AMD target.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"
#include "ktc/ktc.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ktc;

namespace {

/// out = exp(x) + sqrt(x) + log(x) (calls into libm on the host); `SALT`
/// makes this process's compile a new one (not a disk cache hit).
void mathBody(Ptr<float> x, Ptr<float> out, Int n, int BLOCK, int SALT) {
  (void)SALT;
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  auto v = load(x + offs, mask, 1.0f);
  store(out + offs, exp(v) + sqrt(v) + log(v), mask);
}

const char *const kNames[] = {
    "expf",   "free",   "malloc", "memset",    "memcpy", "main",
    "sqrtf",  "logf",   "exp2f",  "abort",     "printf", "exit",
    "calloc", "strlen", "pthread_create", "_ktc_packed_expf",
    "__nv_expf", "__ocml_exp_f32", "vprintf", "_start", "_init"};

TEST(KernelNames, LikeProcessSymbolsRunOnTheHost) {
  Device &cpu = Device::get("cpu");
  const int n = 100;
  std::vector<float> hx(n);
  for (int i = 0; i < n; ++i)
    hx[i] = 0.5f + i * 0.25f;
  Buffer<float> x(cpu, hx);
  for (const char *name : kNames) {
    SCOPED_TRACE(name);
    auto k = Kernel(name, mathBody);
    Buffer<float> out(cpu, std::vector<float>(n, NAN));
    ASSERT_NO_THROW(k.launch({2}, x, out, n, 64, int(getpid())));
    std::vector<float> got = out.to_host();
    for (int i = 0; i < n; ++i) {
      double want = std::exp(double(hx[i])) + std::sqrt(double(hx[i])) +
                    std::log(double(hx[i]));
      ASSERT_NEAR(got[i], want, 1e-5 * std::abs(want)) << i;
    }
  }
  // The C library is still the C library.
  EXPECT_FLOAT_EQ(std::exp(1.0f), 2.7182817f);
}

TEST(KernelNames, LikeProcessSymbolsCompileForGpus) {
  for (const char *name : kNames) {
    SCOPED_TRACE(name);
    auto k = Kernel(name, mathBody);
    std::string ptx, gcn;
    ASSERT_NO_THROW(ptx = k.emit("asm", "sm_90", 64, 0));
    EXPECT_NE(ptx.find(".entry " + std::string(name)), std::string::npos)
        << ptx;
    ASSERT_NO_THROW(gcn = k.emit("asm", "gfx942", 64, 0));
    EXPECT_NE(gcn.find(std::string(name) + ":"), std::string::npos);
  }
}

TEST(KernelNames, ADigitFirstIsNoIdentifier) {
  // ".entry 9lives" is no PTX identifier; names are C identifiers.
  for (std::string name : {"9lives", "0", "1_k"}) {
    SCOPED_TRACE(name);
    int at = 0;
    test::expectErrorAt(
        [&] {
          at = __LINE__; Kernel(name, mathBody).mlir(64, 0);
        },
        "kernel name '" + name +
            "' must be a non-empty identifier ([A-Za-z0-9_])",
        __FILE__, at);
  }
}

} // namespace
