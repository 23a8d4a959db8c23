//===- NestedLaunchTest.cpp - a kernel launched from inside its body ------===//
//
// A kernel's body is traced, not run: launching a kernel from inside it
// (the same kernel or another, the same specialisation or another, on the
// tracing thread or on a thread the body starts and joins) is a ktc::Error
// at the inner launch's line. It once deadlocked (issue 15, item 10): each
// test runs under a watchdog, so that a regression fails instead of hanging.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"
#include "ktc/ktc.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <future>
#include <thread>
#include <vector>

using namespace ktc;
using namespace std::chrono_literals;

namespace {

int at = 0; // the line the error must point to

/// Runs `f` on a thread of its own; a deadlock ends the test binary (a
/// deadlocked thread cannot be stopped) with a failure, after 60 s.
void withWatchdog(const std::function<void()> &f) {
  std::promise<void> done;
  std::thread worker([&] {
    f();
    done.set_value();
  });
  if (done.get_future().wait_for(60s) != std::future_status::ready) {
    std::fprintf(stderr, "FAILED: deadlock: the launch did not return in 60 s\n");
    std::_Exit(1);
  }
  worker.join();
}

void expectError(const std::function<void()> &f, const std::string &message) {
  withWatchdog([&] { test::expectErrorAt(f, message, __FILE__, at); });
}

Device &cpu() { return Device::get("cpu"); }

std::string sameThread(const std::string &outer, const std::string &inner) {
  return "kernel '" + inner + "' is launched inside the body of " +
         (outer == inner ? "its own kernel" : "kernel '" + outer + "'") +
         " while it is traced (kernels cannot be nested; launch it after "
         "the launch of '" + outer + "' returns)";
}

/// A kernel whose body calls `inner(BLOCK)` (which launches something).
auto selfLaunching(const std::string &name, std::function<void(int)> &inner) {
  return Kernel(name, [&inner](Ptr<float> p, int BLOCK) {
    store(p + arange(0, BLOCK), full({BLOCK}, 1.0f, DType::f32));
    inner(BLOCK);
  });
}

TEST(NestedLaunch, SameKernelSameSpecialisationSameThread) {
  std::function<void(int)> inner;
  auto k = selfLaunching("nested_a", inner);
  Buffer<float> buf(cpu(), std::vector<float>(64));
  inner = [&](int block) { at = __LINE__; k.launch({1}, buf, block); };
  expectError([&] { k.launch({1}, buf, 32); }, sameThread("nested_a", "nested_a"));
}

TEST(NestedLaunch, SameKernelOtherSpecialisationSameThread) {
  std::function<void(int)> inner;
  auto k = selfLaunching("nested_b", inner);
  Buffer<float> buf(cpu(), std::vector<float>(64));
  inner = [&](int block) { at = __LINE__; k.launch({1}, buf, block * 2); };
  expectError([&] { k.launch({1}, buf, 16); }, sameThread("nested_b", "nested_b"));
}

TEST(NestedLaunch, AnotherCompiledKernelSameThread) {
  // Even one that is compiled already: a body describes device code.
  auto other = Kernel("nested_other", [](Ptr<float> p) { store(p, 2.0f); });
  Buffer<float> buf(cpu(), std::vector<float>(64));
  other.launch({1}, buf);
  std::function<void(int)> inner = [&](int) {
    at = __LINE__; other.launch({1}, buf);
  };
  auto k = selfLaunching("nested_c", inner);
  expectError([&] { k.launch({1}, buf, 32); }, sameThread("nested_c", "nested_other"));
}

std::string otherThread(const std::string &kernel) {
  return "kernel '" + kernel +
         "' waited 0.3 s for another thread that is tracing the same "
         "specialisation and has not left the kernel's body: does the body "
         "launch '" + kernel + "' itself (on another thread)? Kernels cannot "
         "be nested";
}

TEST(NestedLaunch, SameKernelSameSpecialisationOtherThread) {
  detail::setNestedTraceWait(300ms);
  std::function<void(int)> inner;
  auto k = selfLaunching("nested_d", inner);
  Buffer<float> buf(cpu(), std::vector<float>(64));
  inner = [&](int block) {
    std::async(std::launch::async, [&] {
      at = __LINE__; k.launch({1}, buf, block);
    }).get();
  };
  expectError([&] { k.launch({1}, buf, 32); }, otherThread("nested_d"));
  // The kernel still works afterwards, from a thread of its own.
  inner = [](int) {};
  withWatchdog([&] { k.launch({1}, buf, 32); });
  EXPECT_EQ(buf.to_host()[31], 1.0f);
  EXPECT_EQ(k.num_compiled(), 1u);
  detail::setNestedTraceWait(10s);
}

TEST(NestedLaunch, SameKernelOtherSpecialisationOtherThread) {
  detail::setNestedTraceWait(300ms);
  std::function<void(int)> inner;
  auto k = selfLaunching("nested_e", inner);
  Buffer<float> buf(cpu(), std::vector<float>(64));
  // BLOCK 16 launches BLOCK 32 on another thread, whose body launches
  // BLOCK 32 on a third: that one waits for the second.
  inner = [&](int) {
    std::async(std::launch::async, [&] {
      at = __LINE__; k.launch({1}, buf, 32);
    }).get();
  };
  expectError([&] { k.launch({1}, buf, 16); }, otherThread("nested_e"));
  detail::setNestedTraceWait(10s);
}

TEST(NestedLaunch, ConcurrentLaunchesOfOneSpecialisationStillWait) {
  // Not nested: a slow body on one thread, the same launch on another,
  // which waits (under the limit) and shares the one compile.
  detail::setNestedTraceWait(5s);
  std::atomic<int> traces{0};
  auto k = Kernel("nested_slow", [&](Ptr<float> p, int BLOCK) {
    ++traces;
    std::this_thread::sleep_for(200ms);
    store(p + arange(0, BLOCK), full({BLOCK}, 3.0f, DType::f32));
  });
  Buffer<float> a(cpu(), std::vector<float>(64)), b(cpu(), std::vector<float>(64));
  withWatchdog([&] {
    auto first = std::async(std::launch::async, [&] { k.launch({1}, a, 64); });
    auto second = std::async(std::launch::async, [&] { k.launch({1}, b, 64); });
    first.get();
    second.get();
  });
  // One compile, shared. The body captures state, so the launch that finds
  // it compiled traces it once more to check that state (CapturedState).
  EXPECT_EQ(k.num_compiled(), 1u);
  EXPECT_LE(traces.load(), 2);
  EXPECT_EQ(a.to_host()[63], 3.0f);
  EXPECT_EQ(b.to_host()[63], 3.0f);
  detail::setNestedTraceWait(10s);
}

TEST(NestedLaunch, LaunchInsideMlirOrEmit) {
  std::function<void(int)> inner;
  auto k = selfLaunching("nested_f", inner);
  Buffer<float> buf(cpu(), std::vector<float>(64));
  inner = [&](int block) { at = __LINE__; k.launch({1}, buf, block); };
  expectError([&] { k.mlir(32); }, sameThread("nested_f", "nested_f"));
  expectError([&] { k.emit("llvm", "host", 32); },
              sameThread("nested_f", "nested_f"));
}

TEST(NestedLaunch, ConcurrentLaunchesOfAFailingBody) {
  // Every waiter gets the error too (each traces again), none hangs.
  auto k = Kernel("nested_failing", [](Ptr<float> p, int BLOCK) {
    store(p + arange(0, BLOCK), 1.0f);
  });
  const int line = __LINE__ - 2; // the arange (not `at`: threads share it)
  Buffer<float> buf(cpu(), std::vector<float>(128));
  std::atomic<int> errors{0};
  withWatchdog([&] {
    std::vector<std::future<void>> launches;
    for (int t = 0; t < 4; ++t)
      launches.push_back(std::async(std::launch::async, [&] {
        try {
          k.launch({1}, buf, 100);
        } catch (const Error &e) {
          if (e.line() == unsigned(line) &&
              e.message() == "arange(0, 100): the length 100 must be a "
                             "power of two")
            ++errors;
        }
      }));
    for (auto &l : launches)
      l.get();
  });
  EXPECT_EQ(errors.load(), 4);
  EXPECT_EQ(k.num_compiled(), 0u);
}

TEST(NestedLaunch, MlirOfItselfOnAnotherThread) {
  // Each trace starts the next on a new thread: no wait to time out, so the
  // number of traces in flight is bounded (256) instead.
  std::function<void(int)> inner;
  auto k = selfLaunching("nested_g", inner);
  inner = [&](int block) {
    std::async(std::launch::async, [&] { k.mlir(block); }).get();
  };
  withWatchdog([&] {
    try {
      k.mlir(32);
      ADD_FAILURE() << "no ktc::Error";
    } catch (const Error &e) {
      EXPECT_EQ(e.message(),
                "kernel 'nested_g' is being traced 256 times at once: does "
                "its body trace it (mlir(), emit(), info()) on another "
                "thread? Kernels cannot be nested");
    }
  });
  // Nothing is left counted: the kernel traces again.
  inner = [](int) {};
  EXPECT_NE(k.mlir(32).find("nested_g"), std::string::npos);
}

} // namespace
