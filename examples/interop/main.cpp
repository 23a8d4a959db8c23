//===- interop - ktc kernels on the application's memory and stream --------===//
//
// An application that owns its GPU: with --device=cuda it makes its own
// CUDA context, memory and stream with the driver API (libcuda, opened
// here with dlopen; no CUDA headers), and hands them to ktc: Device::get
// ("cuda") is the device of its current context, View<float> wraps its
// cuMemAlloc'd pointers (whole, and at an element offset), and
// Grid(n).on(Stream(device, stream)) launches on its stream. It then
// synchronises its own stream, copies back with the driver and checks
// against float64, the output poisoned first; ktc leaves its context
// current. --device=hip does the same with the HIP runtime on the last HIP
// device, made current with hipSetDevice (run on the stand-in HIP runtime
// of ../shared/tools/gfx942-emu/hip with FAKEHIP_DEVICES=2). With
// --device=cpu (ctest) the same with host memory, on the host's synchronous
// "stream".
//
//===----------------------------------------------------------------------===//

#include "examples/common/example.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

using namespace ktc;

namespace {
namespace cl = llvm::cl;
cl::OptionCategory category("interop flags");
namespace flag {
cl::opt<std::string> device("device",
                            cl::desc("Whose memory: cuda (the driver API), "
                                     "hip (the last\nHIP device) or cpu "
                                     "(default cpu)"),
                            cl::value_desc("cpu|cuda|hip"), cl::init("cpu"),
                            cl::cat(category));
cl::opt<long long, false, example::Int<1, 1 << 28>>
    size("size", cl::desc("Elements (default 100003)"), cl::init(100003),
         cl::cat(category));
cl::opt<long long, false, example::Int<>>
    seed("seed", cl::desc("Random seed (default 0)"), cl::init(0),
         cl::cat(category));
} // namespace flag

/// What the application does with its memory: the CUDA driver API, or
/// plain host memory.
struct App {
  virtual ~App() = default;
  virtual void *alloc(size_t bytes) = 0;
  virtual void toDevice(void *dst, const void *src, size_t bytes) = 0;
  virtual void toHost(void *dst, const void *src, size_t bytes) = 0;
  virtual void *stream() = 0;
  virtual void sync() = 0;
  virtual bool ownContextCurrent() { return true; }
  virtual Device &device() = 0;
};

struct HostApp : App {
  std::vector<void *> blocks;
  ~HostApp() override {
    for (void *b : blocks)
      std::free(b);
  }
  void *alloc(size_t bytes) override {
    blocks.push_back(std::aligned_alloc(64, (bytes + 63) / 64 * 64));
    return blocks.back();
  }
  void toDevice(void *dst, const void *src, size_t bytes) override {
    std::memcpy(dst, src, bytes);
  }
  void toHost(void *dst, const void *src, size_t bytes) override {
    std::memcpy(dst, src, bytes);
  }
  void *stream() override { return nullptr; }
  void sync() override {}
  Device &device() override { return Device::get("cpu"); }
};

/// The CUDA driver API, as an application that uses it directly would.
struct CudaApp : App {
  using Fn = int (*)(...);
  void *lib = nullptr;
  void *ctx = nullptr, *strm = nullptr;
  std::vector<unsigned long long> blocks;
  template <typename F> F get(const char *name) {
    void *f = dlsym(lib, name);
    if (!f)
      throw Error(std::string("the CUDA driver lacks ") + name);
    return reinterpret_cast<F>(f);
  }
  void check(int r, const char *what) {
    if (r != 0)
      throw Error(std::string(what) + " failed: CUDA error " +
                  std::to_string(r));
  }
  CudaApp() {
    const char *path = std::getenv("KTC_CUDA_LIBRARY");
    lib = dlopen(path ? path : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
      throw Error("no CUDA driver (libcuda.so.1)");
    check(get<int (*)(unsigned)>("cuInit")(0), "cuInit");
    int dev = 0;
    check(get<int (*)(int *, int)>("cuDeviceGet")(&dev, 0), "cuDeviceGet");
    // The application's own context (not the primary one), current on
    // this thread, and a stream of its own in it.
    // [cuda]
    check(get<int (*)(void **, unsigned, int)>("cuCtxCreate_v2")(&ctx, 0, dev),
          "cuCtxCreate");
    check(get<int (*)(void **, unsigned)>("cuStreamCreate")(&strm, 1),
          "cuStreamCreate"); // CU_STREAM_NON_BLOCKING
    // [end cuda]
  }
  ~CudaApp() override {
    for (unsigned long long b : blocks)
      get<int (*)(unsigned long long)>("cuMemFree_v2")(b);
    get<int (*)(void *)>("cuStreamDestroy_v2")(strm);
    // The context outlives ktc's use of it: ktc's Device for it is not
    // used after this (the process ends).
  }
  void *alloc(size_t bytes) override {
    unsigned long long p = 0;
    check(get<int (*)(unsigned long long *, size_t)>("cuMemAlloc_v2")(&p,
                                                                      bytes),
          "cuMemAlloc");
    blocks.push_back(p);
    return reinterpret_cast<void *>(p);
  }
  void toDevice(void *dst, const void *src, size_t bytes) override {
    check(get<int (*)(unsigned long long, const void *, size_t)>(
              "cuMemcpyHtoD_v2")(reinterpret_cast<unsigned long long>(dst),
                                 src, bytes),
          "cuMemcpyHtoD");
  }
  void toHost(void *dst, const void *src, size_t bytes) override {
    check(get<int (*)(void *, unsigned long long, size_t)>("cuMemcpyDtoH_v2")(
              dst, reinterpret_cast<unsigned long long>(src), bytes),
          "cuMemcpyDtoH");
  }
  void *stream() override { return strm; }
  void sync() override {
    check(get<int (*)(void *)>("cuStreamSynchronize")(strm),
          "cuStreamSynchronize");
  }
  bool ownContextCurrent() override {
    void *current = nullptr;
    get<int (*)(void **)>("cuCtxGetCurrent")(&current);
    return current == ctx;
  }
  Device &device() override { return Device::get("cuda"); } // its context
};

/// The HIP runtime, as an application that uses it directly would: its
/// last device made current (hipSetDevice), memory and a stream there.
struct HipApp : App {
  void *lib = nullptr, *strm = nullptr;
  int dev = 0;
  std::vector<void *> blocks;
  template <typename F> F get(const char *name) {
    void *f = dlsym(lib, name);
    if (!f)
      throw Error(std::string("the HIP runtime lacks ") + name);
    return reinterpret_cast<F>(f);
  }
  void check(int r, const char *what) {
    if (r != 0)
      throw Error(std::string(what) + " failed: HIP error " +
                  std::to_string(r));
  }
  HipApp() {
    const char *path = std::getenv("KTC_HIP_LIBRARY");
    lib = dlopen(path ? path : "libamdhip64.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
      throw Error("no HIP runtime (libamdhip64.so)");
    check(get<int (*)(unsigned)>("hipInit")(0), "hipInit");
    int count = 0;
    check(get<int (*)(int *)>("hipGetDeviceCount")(&count),
          "hipGetDeviceCount");
    dev = count - 1;
    check(get<int (*)(int)>("hipSetDevice")(dev), "hipSetDevice");
    check(get<int (*)(void **)>("hipStreamCreate")(&strm), "hipStreamCreate");
  }
  ~HipApp() override {
    for (void *b : blocks)
      get<int (*)(void *)>("hipFree")(b);
    get<int (*)(void *)>("hipStreamDestroy")(strm);
  }
  void *alloc(size_t bytes) override {
    void *p = nullptr;
    check(get<int (*)(void **, size_t)>("hipMalloc")(&p, bytes), "hipMalloc");
    blocks.push_back(p);
    return p;
  }
  void toDevice(void *dst, const void *src, size_t bytes) override {
    check(get<int (*)(void *, const void *, size_t)>("hipMemcpyHtoD")(
              dst, src, bytes),
          "hipMemcpyHtoD");
  }
  void toHost(void *dst, const void *src, size_t bytes) override {
    check(get<int (*)(void *, const void *, size_t)>("hipMemcpyDtoH")(
              dst, src, bytes),
          "hipMemcpyDtoH");
  }
  void *stream() override { return strm; }
  void sync() override {
    check(get<int (*)(void *)>("hipStreamSynchronize")(strm),
          "hipStreamSynchronize");
  }
  bool ownContextCurrent() override {
    int current = -1;
    get<int (*)(int *)>("hipGetDevice")(&current);
    return current == dev;
  }
  Device &device() override { return Device::get("hip"); } // its device
};

auto addKernel() {
  return Kernel("interop_add", [](Ptr<float> x, Ptr<float> y, Ptr<float> out,
                                  Int n, int BLOCK) {
    auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
    auto mask = offs < n;
    store(out + offs, load(x + offs, mask) + load(y + offs, mask), mask);
  });
}
} // namespace

int main(int argc, char **argv) {
  example::parseFlags(argc, argv, category,
                      "ktc kernels on the application's memory and stream");
  try {
    std::unique_ptr<App> app;
    if (flag::device == "cuda")
      app = std::make_unique<CudaApp>();
    else if (flag::device == "hip")
      app = std::make_unique<HipApp>();
    else if (flag::device == "cpu" || flag::device == "host")
      app = std::make_unique<HostApp>();
    else
      throw Error("--device is cpu, cuda or hip, got '" + flag::device +
                  "'");
    const int64_t n = flag::size;
    const size_t bytes = (n + 1) * sizeof(float); // room for offset views
    std::vector<float> hx = example::randomVector(n + 1, flag::seed),
                       hy = example::randomVector(n + 1, flag::seed + 1);
    std::vector<float> poison(n + 1, NAN);
    void *x = app->alloc(bytes), *y = app->alloc(bytes), *out = app->alloc(bytes);
    app->toDevice(x, hx.data(), bytes);
    app->toDevice(y, hy.data(), bytes);

    // [device]
    Device &device = app->device();
    // [end device]
    std::printf("interop: %lld elements on %s\n", (long long)n,
                device.name().c_str());
    // [views]
    View<float> vx(device, x, n + 1), vy(device, y, n + 1),
        vout(device, out, n + 1);
    Stream stream(device, app->stream());
    // [end views]
    auto add = addKernel();
    int failures = 0;
    // offset 0: 16-byte aligned; offset 1: 4-byte aligned, specialised
    // apart.
    for (size_t offset : {0, 1}) {
      app->toDevice(out, poison.data(), bytes);
      // [launch]
      add.launch(Grid(cdiv(n, 1024)).on(stream), vx.view(offset, n),
                 vy.view(offset, n), vout.view(offset, n), n, 1024);
      app->sync(); // the application's stream
      // [end launch]
      std::vector<float> got(n + 1);
      app->toHost(got.data(), out, bytes);
      std::vector<double> want(n + 1, NAN);
      for (int64_t i = 0; i < n; ++i)
        want[i + offset] = // the float sum, correctly rounded from float64
            float(double(hx[i + offset]) + double(hy[i + offset]));
      std::vector<float> mine(got.begin() + offset, got.begin() + offset + n);
      std::vector<double> expect(want.begin() + offset,
                                 want.begin() + offset + n);
      bool untouched = std::isnan(got[offset ? 0 : n]);
      failures += example::report(mine, expect, 0,
                                  "interop add at offset " +
                                      std::to_string(offset)) != 0 ||
                  !untouched;
      if (!untouched)
        std::printf("FAIL: the element outside the view was written\n");
    }
    if (!app->ownContextCurrent()) {
      std::printf("FAIL: the application's context (device) is no longer "
                  "current\n");
      ++failures;
    }
    std::printf("compiled %zu specialisations\n", add.num_compiled());
    if (failures == 0)
      std::printf("PASS interop\n");
    return failures ? 1 : 0;
  } catch (const Error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
