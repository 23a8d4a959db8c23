// test/aot on an NVIDIA GPU (built when KTC_AOT_TARGETS lists an sm_
// target; run by the lead on the device: scripts/aot-device.sh). The
// application owns the GPU here: it makes the context current, allocates
// with cuMemAlloc and creates a stream, all through the driver API, and
// hands pointers and the stream to the AOT launch functions. Checks both
// kernels against float64 with outputs poisoned, then times back-to-back
// launches of a one-block vector_add through the AOT function and through
// cuLaunchKernel on the same PTX (written by ktc-aot beside the header).

#include "check.h"
#include "test_kernels.h"

#include <dlfcn.h>

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

  // Launch cost: one-block vector_adds queued back to back, host time per
  // launch, through the AOT function and through cuLaunchKernel on the same
  // PTX (same threads per block).
  const int small = 1000, reps = 20000;
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
  auto time = [&](auto &&launchOnce) {
    double best = 1e30;
    for (int round = 0; round < 5; ++round) {
      CHECK(cu.cuStreamSynchronize(stream));
      auto t = check::Clock::now();
      for (int i = 0; i < reps; ++i)
        launchOnce();
      best = std::min(best, check::msSince(t) * 1000.0 / reps);
      CHECK(cu.cuStreamSynchronize(stream));
    }
    return best;
  };
  double aotUs = time([&] {
    test_kernels::vector_add_1024({1}, (float *)dx, (float *)dy, (float *)dout,
                                  small, s);
  });
  int32_t nSmall = small;
  void *args[] = {&dx, &dy, &dout, &nSmall};
  double rawUs = time([&] {
    cu.cuLaunchKernel(function, 1, 1, 1, 128, 1, 1, 0, stream, args, nullptr);
  });
  std::printf("launch: aot %.3f us, cuLaunchKernel %.3f us, difference %+.3f us "
              "(host time per launch, best of 5 x %d)\n",
              aotUs, rawUs, aotUs - rawUs, reps);
  std::printf("device: %s (%s)\n", ktc::aot::device().name.c_str(),
              ktc::aot::device().target.c_str());
  std::printf("%s aot cuda\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
