//===- Host.cpp - AOT host kernels: programs on the host's threads --------===//
//
// A host kernel's code is linked into the program as object code (ktc-aot's
// archive); its entry runs one program. A launch runs the grid's programs
// on up to one thread per core, as the JIT's CPU device does, and returns
// when all are done.
//
//===----------------------------------------------------------------------===//

#include "Backends.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace ktc::aot::detail {

namespace {
void runProgram(HostEntry entry, void **args, size_t numArgs,
                std::array<int32_t, 3> pid, std::array<int32_t, 3> grid) {
  void *all[64 + 6];
  std::vector<void *> heap;
  void **slots = all;
  if (numArgs > 64) {
    heap.resize(numArgs + 6);
    slots = heap.data();
  }
  std::copy(args, args + numArgs, slots);
  for (int i = 0; i < 3; ++i) {
    slots[numArgs + i] = &pid[i];
    slots[numArgs + 3 + i] = &grid[i];
  }
  entry(slots);
}
} // namespace

void runOnHost(HostEntry entry, void **args, size_t numArgs,
               std::array<int32_t, 3> grid) {
  int64_t total = int64_t(grid[0]) * grid[1] * grid[2];
  std::atomic<int64_t> next{0};
  auto work = [&] {
    for (int64_t i = next++; i < total; i = next++) {
      std::array<int32_t, 3> pid{int32_t(i % grid[0]),
                                 int32_t(i / grid[0] % grid[1]),
                                 int32_t(i / (int64_t(grid[0]) * grid[1]))};
      runProgram(entry, args, numArgs, pid, grid);
    }
  };
  unsigned workers = std::min<int64_t>(
      total, std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> threads;
  for (unsigned w = 1; w < workers; ++w)
    threads.emplace_back(work);
  work();
  for (std::thread &t : threads)
    t.join();
}

} // namespace ktc::aot::detail
