// test/aot on an NVIDIA GPU (built when KTC_AOT_TARGETS lists an sm_
// target; run by the lead on the device: scripts/aot-device.sh). The
// application owns the GPU here: it makes the context current, allocates
// with cuMemAlloc and creates a stream, all through the driver API, and
// hands pointers and the stream to the AOT launch functions. Checks both
// kernels against float64 with outputs poisoned, then times the host's
// cost per launch as ktc-bench's launch_overhead does, through the AOT
// function and through cuLaunchKernel on the same PTX (written by ktc-aot
// beside the header). `aot_cuda_main DIR --no-timing` skips the timing
// (under compute-sanitizer, whose launches are far slower).

#include "check.h"
#include "test_kernels.h"

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

using CUresult = int;
using CUdeviceptr = unsigned long long;
struct Cu {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGet)(int *, int);
  CUresult (*cuDevicePrimaryCtxRetain)(void **, int);
  CUresult (*cuCtxSetCurrent)(void *);
  CUresult (*cuMemAlloc_v2)(CUdeviceptr *, size_t);
  CUresult (*cuMemcpyHtoD_v2)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH_v2)(void *, CUdeviceptr, size_t);
  CUresult (*cuStreamCreate)(void **, unsigned);
  CUresult (*cuStreamSynchronize)(void *);
  CUresult (*cuModuleLoadDataEx)(void **, const void *, unsigned, int *,
                                 void **);
  CUresult (*cuModuleGetFunction)(void **, void *, const char *);
  CUresult (*cuLaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, void *, void **,
                             void **);
};

#define CHECK(call)                                                            \
  do {                                                                         \
    if (CUresult r = (call)) {                                                 \
      std::printf("FAIL %s: CUDA error %d\n", #call, r);                       \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

std::string readFile(const std::string &path) {
  std::string s;
  if (FILE *f = std::fopen(path.c_str(), "rb")) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
      s.append(buf, n);
    std::fclose(f);
  }
  return s;
}

} // namespace

int main(int argc, char **argv) {
  // Where ktc-aot wrote the PTX files: argv[1], else the build's directory.
  std::string dir = argc > 1 ? argv[1] : KTC_AOT_DIR;
  const char *driver = std::getenv("KTC_CUDA_LIBRARY"); // as the runtime
  void *lib = dlopen(driver && *driver ? driver : "libcuda.so.1", RTLD_NOW);
  if (!lib) {
    std::printf("FAIL no libcuda.so.1\n");
    return 1;
  }
  Cu cu;
  auto get = [&](auto &fn, const char *name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
    if (!fn) {
      std::printf("FAIL no %s\n", name);
      std::exit(1);
    }
  };
  get(cu.cuInit, "cuInit");
  get(cu.cuDeviceGet, "cuDeviceGet");
  get(cu.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  get(cu.cuCtxSetCurrent, "cuCtxSetCurrent");
  get(cu.cuMemAlloc_v2, "cuMemAlloc_v2");
  get(cu.cuMemcpyHtoD_v2, "cuMemcpyHtoD_v2");
  get(cu.cuMemcpyDtoH_v2, "cuMemcpyDtoH_v2");
  get(cu.cuStreamCreate, "cuStreamCreate");
  get(cu.cuStreamSynchronize, "cuStreamSynchronize");
  get(cu.cuModuleLoadDataEx, "cuModuleLoadDataEx");
  get(cu.cuModuleGetFunction, "cuModuleGetFunction");
  get(cu.cuLaunchKernel, "cuLaunchKernel");
  int dev = 0;
  void *ctx = nullptr, *stream = nullptr;
  CHECK(cu.cuInit(0));
  CHECK(cu.cuDeviceGet(&dev, 0));
  CHECK(cu.cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cu.cuCtxSetCurrent(ctx)); // the application's context
  CHECK(cu.cuStreamCreate(&stream, 0));
  ktc::aot::Stream s{stream};

  auto upload = [&](const std::vector<float> &v) {
    CUdeviceptr p;
    CHECK(cu.cuMemAlloc_v2(&p, v.size() * 4 + 16));
    CHECK(cu.cuMemcpyHtoD_v2(p, v.data(), v.size() * 4));
    return p;
  };
  auto download = [&](CUdeviceptr p, size_t n) {
    std::vector<float> v(n);
    CHECK(cu.cuMemcpyDtoH_v2(v.data(), p, n * 4));
    return v;
  };
  const int n = 98431, BLOCK = 1024;
  std::vector<float> x = check::random(n, 1, -4, 4);
  std::vector<float> y = check::random(n, 2, -4, 4);
  std::vector<float> poisoned(n);
  check::poison(poisoned);
  CUdeviceptr dx = upload(x), dy = upload(y), dout = upload(poisoned);
  test_kernels::vector_add_1024({(n + BLOCK - 1) / BLOCK}, (float *)dx,
                                (float *)dy, (float *)dout, n, s);
  ktc::aot::synchronize(s);
  bool ok = check::close("aot cuda vector_add n=98431", download(dout, n),
                         check::vectorAddRef(x, y), 1e-6, 1e-6);

  const int rows = 37, cols = 1000, stride = 1003;
  std::vector<float> in = check::random(size_t(rows) * stride, 3, -8, 8);
  std::vector<float> smPoison(in.size());
  check::poison(smPoison);
  CUdeviceptr din = upload(in), dsm = upload(smPoison);
  test_kernels::softmax_256({rows}, (float *)din, (float *)dsm, stride, cols, s);
  ktc::aot::synchronize(s);
  std::vector<float> sm = download(dsm, in.size());
  std::vector<double> ref = check::softmaxRef(in, rows, cols, stride);
  std::vector<float> got;
  std::vector<double> want;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      got.push_back(sm[size_t(i) * stride + j]);
      want.push_back(ref[size_t(i) * stride + j]);
    }
  ok &= check::close("aot cuda softmax 37x1000", got, want, 1e-7, 1e-5);

  // Launch cost, measured as ktc-bench's launch_overhead row is
  // (bench/ktc_bench.cpp, bench/driver_floor.h): a one-element vector_add
  // (one block, n = 1: the GPU finishes each before the host has queued
  // the next, so the queue never fills and the host's time is what is
  // measured), 10000 launches back to back and one synchronize, per launch;
  // the median of 5 trials. Through the AOT function and through
  // cuLaunchKernel on the same PTX (same threads per block, same stream),
  // their trials interleaved so that drift hits both alike.
  const int count = 10000, trials = 5;
  std::string ptx = readFile(dir + "/vector_add_1024." +
                             ktc::aot::device().target + ".ptx");
  if (ptx.empty())
    ptx = readFile(dir + "/vector_add_1024.sm_90.ptx");
  if (ptx.empty()) {
    std::printf("FAIL no vector_add_1024 PTX in %s\n", dir.c_str());
    return 1;
  }
  void *module = nullptr, *function = nullptr;
  CHECK(cu.cuModuleLoadDataEx(&module, ptx.c_str(), 0, nullptr, nullptr));
  CHECK(cu.cuModuleGetFunction(&function, module, "vector_add_1024"));
  int32_t one = 1;
  void *args[] = {&dx, &dy, &dout, &one};
  auto aotLaunch = [&] {
    test_kernels::vector_add_1024({1}, (float *)dx, (float *)dy, (float *)dout,
                                  1, s);
  };
  auto rawLaunch = [&] {
    CHECK(cu.cuLaunchKernel(function, 1, 1, 1, 128, 1, 1, 0, stream, args,
                            nullptr));
  };
  auto trial = [&](auto &&launchOnce) {
    auto t = check::Clock::now();
    for (int i = 0; i < count; ++i)
      launchOnce();
    CHECK(cu.cuStreamSynchronize(stream));
    return check::msSince(t) * 1000.0 / count; // us per launch
  };
  bool timing = !(argc > 2 && std::string(argv[2]) == "--no-timing");
  if (timing) {
    // Poisoned again: the timed launches must write out[0] (only it).
    CHECK(cu.cuMemcpyHtoD_v2(dout, poisoned.data(), 2 * sizeof(float)));
    for (int i = 0; i < 100; ++i) // warm up both paths
      aotLaunch(), rawLaunch();
    CHECK(cu.cuStreamSynchronize(stream));
    std::vector<double> aot, raw;
    for (int t = 0; t < trials; ++t) {
      aot.push_back(trial(aotLaunch));
      raw.push_back(trial(rawLaunch));
    }
    auto median = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    auto list = [](const std::vector<double> &v) {
      std::string s;
      for (double x : v)
        s += (s.empty() ? "" : " ") + std::to_string(x).substr(0, 5);
      return s;
    };
    double aotUs = median(aot), rawUs = median(raw);
    std::printf("launch_overhead aot %.3f us/launch, cuLaunchKernel %.3f "
                "us/launch, difference %+.3f us (median of %d x %d launches "
                "of a 1-element vector_add, one synchronize each; trials: aot "
                "%s, cuLaunchKernel %s)\n",
                aotUs, rawUs, aotUs - rawUs, trials, count, list(aot).c_str(),
                list(raw).c_str());
    // The launches timed computed out[0] and left out[1] alone.
    std::vector<float> two = download(dout, 2);
    ok &= check::close("aot cuda vector_add n=1 (timed)", {two[0]},
                       {double(x[0]) + double(y[0])}, 1e-6, 1e-6);
    if (!std::isnan(two[1])) {
      std::printf("FAIL aot cuda vector_add n=1 wrote out[1]\n");
      ok = false;
    }
  }
  std::printf("device: %s (%s)\n", ktc::aot::device().name.c_str(),
              ktc::aot::device().target.c_str());
  std::printf("%s aot cuda\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
