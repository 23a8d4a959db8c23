//===- driver_floor.h - what a launch costs the CUDA driver alone -*- C++ -*-===//
//
// ktc-bench's launch_overhead row is ktc's whole launch path. This is the
// floor under it on the same host: the same kernel (ktc's PTX for the
// device, loaded with cuModuleLoadData) launched with nothing but
// cuLaunchKernel, back to back on a stream of its own, one synchronize at
// the end -- what any launcher in the process pays. It goes into the CSV
// as provider "driver", so the report shows ktc's own share beside it.
// CUDA only; elsewhere (or if the driver cannot be reached) it returns
// nothing.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_BENCH_DRIVER_FLOOR_H
#define KTC_BENCH_DRIVER_FLOOR_H

#include <dlfcn.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ktc::bench {

/// Milliseconds per launch of `function` in `ptx` (parameters: three
/// device pointers to 4-byte buffers and an i32 n = 1, the unspecialised
/// vector-add), one entry a trial; nullopt when the CUDA driver is not in
/// the process or a call fails (`why` says which).
inline std::optional<std::vector<double>>
driverLaunchFloor(const std::string &ptx, const std::string &function,
                  unsigned threads, int count, int trials, std::string &why) {
  using CUresult = int;
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (!lib) {
    why = "libcuda.so.1 is not loaded";
    return std::nullopt;
  }
  auto sym = [&](const char *name) { return dlsym(lib, name); };
  auto getCurrent = reinterpret_cast<CUresult (*)(void **)>(sym("cuCtxGetCurrent"));
  auto loadData = reinterpret_cast<CUresult (*)(void **, const void *)>(
      sym("cuModuleLoadData"));
  auto getFunction = reinterpret_cast<CUresult (*)(void **, void *, const char *)>(
      sym("cuModuleGetFunction"));
  auto unload = reinterpret_cast<CUresult (*)(void *)>(sym("cuModuleUnload"));
  auto memAlloc = reinterpret_cast<CUresult (*)(uint64_t *, size_t)>(sym("cuMemAlloc_v2"));
  auto memFree = reinterpret_cast<CUresult (*)(uint64_t)>(sym("cuMemFree_v2"));
  auto streamCreate = reinterpret_cast<CUresult (*)(void **, unsigned)>(sym("cuStreamCreate"));
  auto streamSync = reinterpret_cast<CUresult (*)(void *)>(sym("cuStreamSynchronize"));
  auto streamDestroy = reinterpret_cast<CUresult (*)(void *)>(sym("cuStreamDestroy_v2"));
  auto launch = reinterpret_cast<CUresult (*)(
      void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
      unsigned, void *, void **, void **)>(sym("cuLaunchKernel"));
  if (!getCurrent || !loadData || !getFunction || !unload || !memAlloc ||
      !memFree || !streamCreate || !streamSync || !streamDestroy || !launch) {
    why = "a CUDA driver entry point is missing";
    return std::nullopt;
  }
  void *ctx = nullptr;
  if (getCurrent(&ctx) != 0 || !ctx) {
    why = "no current CUDA context (run after a ktc launch on the device)";
    return std::nullopt;
  }
  void *module = nullptr, *fn = nullptr, *stream = nullptr;
  uint64_t buffers[3] = {0, 0, 0};
  std::optional<std::vector<double>> result;
  auto fail = [&](const char *call) { why = std::string(call) + " failed"; };
  if (loadData(&module, ptx.c_str()) != 0) {
    fail("cuModuleLoadData");
  } else if (getFunction(&fn, module, function.c_str()) != 0) {
    fail("cuModuleGetFunction");
  } else if (streamCreate(&stream, 0) != 0) {
    fail("cuStreamCreate");
  } else if (memAlloc(&buffers[0], 4) || memAlloc(&buffers[1], 4) ||
             memAlloc(&buffers[2], 4)) {
    fail("cuMemAlloc");
  } else {
    int32_t n = 1;
    void *args[] = {&buffers[0], &buffers[1], &buffers[2], &n};
    auto run = [&] {
      return launch(fn, 1, 1, 1, threads, 1, 1, 0, stream, args, nullptr);
    };
    bool ok = true;
    for (int i = 0; i < 100 && ok; ++i) // warm up
      ok = run() == 0;
    ok = ok && streamSync(stream) == 0;
    std::vector<double> perLaunch;
    for (int t = 0; t < trials && ok; ++t) {
      auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < count && ok; ++i)
        ok = run() == 0;
      ok = ok && streamSync(stream) == 0;
      perLaunch.push_back(std::chrono::duration<double, std::milli>(
                              std::chrono::steady_clock::now() - start)
                              .count() /
                          count);
    }
    if (ok)
      result = perLaunch;
    else
      fail("cuLaunchKernel");
  }
  for (uint64_t b : buffers)
    if (b)
      memFree(b);
  if (stream)
    streamDestroy(stream);
  if (module)
    unload(module);
  return result;
}

} // namespace ktc::bench

#endif // KTC_BENCH_DRIVER_FLOOR_H
