//===- ConcurrencyTest.cpp - many threads tracing, compiling, launching ----===//
//
// ktc runs inside its users' processes, often from many threads at once:
// 8 threads share kernels (one compile, many launches) and make their own
// (concurrent compiles in one MLIR context and one JIT), every result
// checked, all of it bounded in time.
//
//===----------------------------------------------------------------------===//

#include "examples/common/example.h"
#include "examples/kernels/seeds.h"
#include "ktc/ktc.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <future>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace ktc;

namespace {

Device &cpu() { return Device::get("cpu"); }

/// One softmax of random rows through `kernel`; the largest relative error
/// against float64.
template <typename K>
double rowSoftmax(const K &kernel, int64_t rows, int64_t cols, int block,
                  unsigned seed) {
  auto hin = example::randomVector(rows * cols, seed);
  Buffer<float> in(cpu(), hin);
  Buffer<float> out(cpu(), std::vector<float>(hin.size(), NAN)); // poisoned
  kernel.launch({rows}, in, out, cols, cols, block);
  return example::check(out.to_host(),
                        example::softmaxReference(hin, rows, cols), 0)
      .worst;
}

TEST(Concurrency, EightThreadsSharedAndOwnKernels) {
  constexpr int kThreads = 8;
  // Names of this process's own, so the disk cache cannot answer: every
  // specialisation is compiled here, concurrently.
  std::string pid = std::to_string(getpid());
  auto shared = Kernel("softmax_online_" + pid, seeds::softmax_online);
  std::vector<std::future<std::vector<double>>> results;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  for (int t = 0; t < kThreads; ++t)
    results.push_back(std::async(std::launch::async, [&, t] {
      std::vector<double> errors;
      // The shared kernel: the same specialisation from every thread (one
      // compile), and a BLOCK of the thread's own (compiled concurrently).
      errors.push_back(rowSoftmax(shared, 5, 300, 256, t));
      errors.push_back(rowSoftmax(shared, 3, 77, 32 << (t % 3), t + 100));
      // A kernel of the thread's own: traced and compiled while the others
      // compile theirs.
      auto own = Kernel("naive_" + pid + "_" + std::to_string(t),
                        seeds::softmax_naive);
      errors.push_back(rowSoftmax(own, 4, 130 + t, 64, t + 200));
      return errors;
    }));
  for (auto &r : results) {
    ASSERT_EQ(r.wait_until(deadline), std::future_status::ready)
        << "a thread did not finish in 120 s";
    for (double err : r.get())
      EXPECT_LE(err, 1e-5);
  }
  // One compile per distinct (BLOCK) specialisation, however many threads
  // asked for it: 256, 32, 64 and 128.
  EXPECT_EQ(shared.num_compiled(), 4u);
}

} // namespace
