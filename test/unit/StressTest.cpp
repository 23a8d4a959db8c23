//===- StressTest.cpp - cold processes and threads compiling at once ------===//
//
// The orders that once crashed (issue 15, item 7), each from a cold start:
//
// - 8 processes x 4 threads compiling the same kernels into one empty
//   KTC_CACHE_DIR, so that some threads compile while others load what
//   another process has just stored (the test runs this binary again, 8
//   times at once, as StressChild.CompileIntoSharedCache);
// - 8 threads of one fresh process calling mlir(), emit() for every target
//   and launch() at the same moment, the first compile of the process.
//
// Every child must exit 0 (a signal or a timeout fails the test), every
// result is checked, and each test takes a few seconds.
//
//===----------------------------------------------------------------------===//

#include "examples/kernels/seeds.h"
#include "ktc/ktc.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <gtest/gtest.h>

#include <barrier>
#include <cstdlib>
#include <future>
#include <optional>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace ktc;

namespace {

/// n, x + y for x[i] = i, y[i] = 2 i through `kernel`: the number of wrong
/// elements.
template <typename K> int vectorAddErrors(const K &kernel, int n, int block) {
  Device &cpu = Device::get("cpu");
  std::vector<float> hx(n), hy(n);
  for (int i = 0; i < n; ++i) {
    hx[i] = float(i);
    hy[i] = float(2 * i);
  }
  Buffer<float> x(cpu, hx), y(cpu, hy), out(cpu, std::vector<float>(n, -1));
  kernel.launch({(n + block - 1) / block}, x, y, out, n, block);
  int wrong = 0;
  std::vector<float> got = out.to_host();
  for (int i = 0; i < n; ++i)
    wrong += got[i] != float(3 * i);
  return wrong;
}

/// One of 8 processes: 4 threads compile and launch the same kernels as the
/// other processes (names from KTC_STRESS_NAME), at once. Skipped unless
/// run by StressProcesses.EightColdProcessesOneEmptyCache.
TEST(StressChild, CompileIntoSharedCache) {
  const char *name = std::getenv("KTC_STRESS_NAME");
  if (!name)
    GTEST_SKIP() << "run by StressProcesses.EightColdProcessesOneEmptyCache";
  constexpr int kThreads = 4;
  std::barrier<> start(kThreads);
  std::vector<std::future<int>> results;
  for (int t = 0; t < kThreads; ++t)
    results.push_back(std::async(std::launch::async, [&, t] {
      // Kernel objects of the thread's own (compiled concurrently), named
      // alike in every process (one disk cache entry, written and read by
      // all of them).
      auto add = Kernel(std::string(name) + "_add", seeds::vector_add);
      auto softmax =
          Kernel(std::string(name) + "_softmax", seeds::softmax_online);
      start.arrive_and_wait();
      int wrong = vectorAddErrors(add, 1000 + t, 64 << (t % 2));
      if (t % 2)
        wrong += add.emit("llvm", "host", 128).find("define") ==
                 std::string::npos;
      else
        wrong += softmax.mlir(64).find("ktc.kernel") == std::string::npos;
      Device &cpu = Device::get("cpu");
      Buffer<float> in(cpu, std::vector<float>(3 * 40, 1.0f));
      Buffer<float> out(cpu, std::vector<float>(3 * 40, 0.0f));
      softmax.launch({3}, in, out, 40, 40, 32 << (t % 2));
      for (float v : out.to_host())
        wrong += std::abs(v - 1.0f / 40) > 1e-6f;
      return wrong;
    }));
  for (auto &r : results)
    EXPECT_EQ(r.get(), 0);
}

TEST(StressProcesses, EightColdProcessesOneEmptyCache) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ktc-stress-cache", dir));
  std::string self = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  std::string name = "stress" + std::to_string(getpid());
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e)
    if (std::string(*e).rfind("KTC_CACHE", 0) != 0)
      env.push_back(*e);
  env.push_back("KTC_CACHE_DIR=" + dir.str().str());
  env.push_back("KTC_STRESS_NAME=" + name);
  std::vector<llvm::StringRef> envRefs(env.begin(), env.end());
  std::vector<llvm::StringRef> args{
      self, "--gtest_filter=StressChild.CompileIntoSharedCache"};
  constexpr int kProcesses = 8;
  std::vector<llvm::sys::ProcessInfo> children;
  std::vector<std::string> logs;
  for (int p = 0; p < kProcesses; ++p) {
    std::string error;
    logs.push_back(dir.str().str() + "/child" + std::to_string(p) + ".log");
    std::optional<llvm::StringRef> redirects[] = {std::nullopt, logs.back(),
                                                  logs.back()};
    children.push_back(
        llvm::sys::ExecuteNoWait(self, args, envRefs, redirects, 0, &error));
    ASSERT_NE(children.back().Pid, llvm::sys::ProcessInfo::InvalidPid) << error;
  }
  int failed = 0;
  for (auto [p, child] : llvm::enumerate(children)) {
    std::string error;
    llvm::sys::ProcessInfo done =
        llvm::sys::Wait(child, /*SecondsToWait=*/120, &error);
    if (done.ReturnCode != 0) {
      ++failed;
      auto log = llvm::MemoryBuffer::getFile(logs[p]);
      ADD_FAILURE() << "child " << p << " exited with " << done.ReturnCode
                    << " " << error << "; its output:\n"
                    << (log ? (*log)->getBuffer().str() : "(none)");
    }
  }
  EXPECT_EQ(failed, 0) << "of " << kProcesses << " processes";
  llvm::sys::fs::remove_directories(dir);
}

TEST(StressThreads, EightThreadsEmitMlirAndLaunchAtOnce) {
  // The first compile of this process: nothing loaded, nothing cached
  // (a name of this process's own).
  std::string pid = std::to_string(getpid());
  auto add = Kernel("stress_threads_" + pid, seeds::vector_add);
  auto softmax = Kernel("stress_softmax_" + pid, seeds::softmax_naive);
  constexpr int kThreads = 8;
  std::barrier<> start(kThreads);
  std::vector<std::future<std::string>> results;
  for (int t = 0; t < kThreads; ++t)
    results.push_back(std::async(std::launch::async, [&, t]() -> std::string {
      start.arrive_and_wait();
      switch (t) {
      case 0:
        return add.mlir(64).find("ktc.kernel") != std::string::npos
                   ? ""
                   : "mlir()";
      case 1:
        return add.emit("llvm", "host", 128).find("define") != std::string::npos
                   ? ""
                   : "emit(llvm, host)";
      case 2:
        return softmax.emit("asm", "host", 32).empty() ? "emit(asm, host)" : "";
      case 3:
        return add.emit("asm", "sm_90", 256).find(".entry") != std::string::npos
                   ? ""
                   : "emit(asm, sm_90)";
      case 4:
        return softmax.emit("llvm", "gfx942", 64).find("amdgpu_kernel") !=
                       std::string::npos
                   ? ""
                   : "emit(llvm, gfx942)";
      default:
        return vectorAddErrors(add, 500 + t, 32 << (t % 3)) == 0
                   ? ""
                   : "launch " + std::to_string(t);
      }
    }));
  for (auto &r : results) {
    ASSERT_EQ(r.wait_for(std::chrono::seconds(120)), std::future_status::ready);
    EXPECT_EQ(r.get(), "");
  }
}

} // namespace
