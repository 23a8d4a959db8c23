//===- AutotuneTest.cpp - choosing configs on the CPU device ---------------===//
//
// The autotuner on the host: it times every config once per key, launches
// the winner (whose result is checked), remembers it, finds it again on disk
// from a fresh autotuner, skips configs that fail to compile, and pins the
// errors of bad configs and launches.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"
#include "ktc/Autotune.h"
#include "examples/common/example.h"
#include "examples/kernels/seeds.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdlib>
#include <string>
#include <unistd.h>

using namespace ktc;

namespace {

/// A cache directory of this test binary's own, set before anything reads
/// KTC_CACHE_DIR (the disk cache is configured once per process).
const std::string kCacheDir = [] {
  char dir[] = "/tmp/ktc-autotune-test-XXXXXX";
  std::string path = mkdtemp(dir);
  setenv("KTC_CACHE_DIR", path.c_str(), 1);
  return path;
}();

/// Removes kCacheDir when the tests are done.
struct RemoveCacheDir : testing::Environment {
  void TearDown() override {
    std::string command = "rm -rf '" + kCacheDir + "'";
    EXPECT_EQ(std::system(command.c_str()), 0);
  }
};
testing::Environment *const removeCacheDir =
    testing::AddGlobalTestEnvironment(new RemoveCacheDir);

Device &cpu() { return Device::get("cpu"); }

auto addKernel() {
  return Kernel("add", {"x", "y", "out", "n", "BLOCK_SIZE"},
                seeds::vector_add);
}

/// Quick timing: the tests check choices, not speed.
AutotuneOptions quick() {
  AutotuneOptions o;
  o.bench.warmup_ms = 1;
  o.bench.rep_ms = 2;
  o.bench.flush_bytes = 1 << 20;
  return o;
}

std::vector<Config> blockConfigs() {
  return {Config({{"BLOCK_SIZE", 64}}, {.num_warps = 1}),
          Config({{"BLOCK_SIZE", 512}}, {.num_warps = 4}),
          Config({{"BLOCK_SIZE", 4096}}, {.num_warps = 8})};
}

/// Launches x + y through `tuned` and checks every element.
template <typename T> void checkAdd(T &tuned, int64_t n) {
  auto hx = example::randomVector(n, n), hy = example::randomVector(n, n + 1);
  Buffer<float> x(cpu(), hx), y(cpu(), hy);
  Buffer<float> out(cpu(), std::vector<float>(n, NAN)); // poisoned
  tuned.launch([&](const Config &c) { return Grid(cdiv(n, c["BLOCK_SIZE"])); },
               x, y, out, n);
  std::vector<float> got = out.to_host();
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(got[i], float(double(hx[i]) + double(hy[i]))) << i;
}

int at = 0;
void expectError(const std::function<void()> &f, const std::string &message) {
  test::expectErrorAt(f, message, __FILE__, at);
}

TEST(Autotune, PicksAndRemembersPerKey) {
  auto add = addKernel();
  auto tuned = Autotuner(add, blockConfigs(), {"n"}, quick());
  checkAdd(tuned, 100003);
  EXPECT_EQ(tuned.num_tuned(), 1u);
  std::string best = tuned.best().str();
  size_t compiled = add.num_compiled();
  // Same key: the remembered config, nothing compiled or timed again.
  checkAdd(tuned, 100003);
  EXPECT_EQ(tuned.num_tuned(), 1u);
  EXPECT_EQ(tuned.best().str(), best);
  EXPECT_EQ(add.num_compiled(), compiled);
  // A new key is tuned on its own.
  checkAdd(tuned, 777);
  EXPECT_EQ(tuned.num_tuned(), 2u);
}

TEST(Autotune, WinnerComesBackFromDisk) {
  auto add = addKernel();
  AutotuneOptions options = quick();
  options.verbose = true;
  {
    auto tuned = Autotuner(add, blockConfigs(), {"n"}, options);
    testing::internal::CaptureStderr();
    checkAdd(tuned, 54321);
    std::string log = testing::internal::GetCapturedStderr();
    EXPECT_NE(log.find("ktc: autotune add [n=54321 f32 f32 f32]: config 1 "
                       "of 3 (BLOCK_SIZE=64, num_warps=1, num_stages=1): "),
              std::string::npos)
        << log;
    EXPECT_NE(log.find("best is config"), std::string::npos) << log;
  }
  // A fresh autotuner (as in another process) reads the choice back.
  auto again = Autotuner(add, blockConfigs(), {"n"}, options);
  testing::internal::CaptureStderr();
  checkAdd(again, 54321);
  std::string log = testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("chosen earlier (disk cache)"), std::string::npos) << log;
  EXPECT_EQ(log.find("ms\n"), std::string::npos) << log; // nothing timed
}

TEST(Autotune, SkipsConfigsThatDoNotCompile) {
  auto add = addKernel();
  // BLOCK_SIZE 100 is no power of two: arange refuses it while tracing.
  auto tuned = Autotuner(add,
                         {Config({{"BLOCK_SIZE", 100}}),
                          Config({{"BLOCK_SIZE", 128}})},
                         {"n"}, quick());
  checkAdd(tuned, 1000);
  EXPECT_EQ(tuned.best()["BLOCK_SIZE"], 128);

  auto none = Autotuner(add, {Config({{"BLOCK_SIZE", 100}})}, {"n"}, quick());
  expectError([&] { at = __LINE__ + 1;
    none.launch([](const Config &) { return Grid(1); }, Buffer<float>(cpu(), 8), Buffer<float>(cpu(), 8), Buffer<float>(cpu(), 8), 8);
  }, "autotuning kernel 'add': no config ran; the first failed with: "
     "arange(0, 100): the length 100 must be a power of two");
}

TEST(Autotune, SkipsAConfigWhoseGridDividesByZero) {
  auto add = addKernel();
  // The grid's cdiv(n, 0) was a SIGFPE; it is a ktc::Error now, and the
  // config is skipped like one that does not compile.
  auto tuned = Autotuner(add,
                         {Config({{"BLOCK_SIZE", 0}}),
                          Config({{"BLOCK_SIZE", 128}})},
                         {"n"}, quick());
  checkAdd(tuned, 1000);
  EXPECT_EQ(tuned.best()["BLOCK_SIZE"], 128);

  auto none = Autotuner(add, {Config({{"BLOCK_SIZE", 0}})}, {"n"}, quick());
  Buffer<float> x(cpu(), 8);
  expectError([&] { at = __LINE__ + 1;
    none.launch([](const Config &c) { return Grid(cdiv(8, c["BLOCK_SIZE"])); }, x, x, x, 8);
  }, "autotuning kernel 'add': no config ran; the first failed with: "
     "cdiv(8, 0): division by zero");
}

TEST(Autotune, BadConfigsAndLaunches) {
  auto add = addKernel();
  expectError([&] { at = __LINE__; Autotuner(add, {}, {"n"}); },
              "autotuning kernel 'add': no configs");
  expectError([&] { at = __LINE__; Autotuner(add, {Config({{"BLOCK", 64}})}, {"n"}); },
              "autotuning kernel 'add': no parameter named 'BLOCK' (name the "
              "parameters: Kernel(name, {names...}, fn))");
  expectError([&] { at = __LINE__; Autotuner(add, {Config({{"n", 64}})}, {}); },
              "autotuning kernel 'add': 'n' is not an integer constexpr "
              "parameter; configs set integer constexprs");
  expectError([&] { at = __LINE__; Autotuner(add, {Config({{"BLOCK_SIZE", 64}}), Config({})}, {"n"}); },
              "autotuning kernel 'add': config (num_warps=4, num_stages=1) "
              "does not set the same constexprs as config (BLOCK_SIZE=64, "
              "num_warps=4, num_stages=1)");
  expectError([&] { at = __LINE__; Autotuner(add, {Config({{"BLOCK_SIZE", 64}})}, {"BLOCK_SIZE"}); },
              "autotuning kernel 'add': key 'BLOCK_SIZE' is a tuned constexpr");
  expectError([&] { at = __LINE__; Autotuner(add, {Config({{"BLOCK_SIZE", 64}}, {.num_warps = 5})}, {"n"}); },
              "Options::num_warps must be a power of two from 1 to 32, got 5");
  auto tuned = Autotuner(add, blockConfigs(), {"n"}, quick());
  Buffer<float> x(cpu(), 8);
  expectError([&] { at = __LINE__ + 1;
    tuned.launch([](const Config &) { return Grid(1); }, x, x, x, 8, 64);
  }, "autotuned kernel 'add' takes 4 arguments (x, y, out, n; the configs "
     "set the rest), got 5");
}

} // namespace

namespace {

// A constexpr no config sets, asked for in the caller's code (a grid
// function): at that line (it once carried no file:line).
TEST(Autotune, MissingConstexprAtTheCallersLine) {
  Config c({{"BLOCK_SIZE", 64}}, {.num_warps = 2});
  expectError([&] { at = __LINE__; (void)c["BLOCK"]; },
              "config (BLOCK_SIZE=64, num_warps=2, num_stages=1) sets no "
              "constexpr 'BLOCK'");
  std::string name = "TILE";
  expectError([&] { at = __LINE__; (void)c[name]; },
              "config (BLOCK_SIZE=64, num_warps=2, num_stages=1) sets no "
              "constexpr 'TILE'");
  EXPECT_EQ(c["BLOCK_SIZE"], 64);
}

} // namespace
