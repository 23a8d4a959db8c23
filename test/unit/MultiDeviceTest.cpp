//===- MultiDeviceTest.cpp - several devices in one process, on the host --===//
//
// CI has no GPU, let alone two: the host presents N logical devices
// (detail::setHostDeviceCount, as KTC_HOST_DEVICES=N does), each with its
// own memory and its own load of every kernel, so the multi-device logic
// runs here: indices and their errors, one compile per target shared by
// every device of it (a second "arch" is a host device reporting another
// CPU), ownership of buffers, views and streams, one thread per device
// launching at once (under TSan in scripts/sanitize.sh), and the
// application's own memory (View) and streams (Stream) on the host.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"

#include "examples/common/example.h"
#include "MultiDeviceKernels.h"
#include "examples/kernels/seeds.h"
#include "ktc/Autotune.h"
#include "ktc/ktc.h"
#include "lib/Runtime/Device.h"
#include "lib/Target/CPU/HostTarget.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <future>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace ktc;
using test::addKernel;
using test::checkAdd;
using test::fresh;

namespace {

int at = 0;
void expectError(const std::function<void()> &f, const std::string &message) {
  test::expectErrorAt(f, message, __FILE__, at);
}

constexpr int kDevices = 4;
const bool presented = [] {
  detail::setHostDeviceCount(kDevices);
  return true;
}();

Device &host(int i) { return Device::get("cpu:" + std::to_string(i)); }


TEST(MultiDevice, IndicesAndSpellings) {
  EXPECT_GE(Device::count(DeviceKind::CPU), kDevices);
  std::vector<DeviceInfo> list = Device::list(DeviceKind::CPU);
  ASSERT_GE(list.size(), size_t(kDevices));
  for (int i = 0; i < kDevices; ++i) {
    EXPECT_EQ(list[i].index, i);
    EXPECT_EQ(list[i].spec(), "cpu:" + std::to_string(i));
    EXPECT_EQ(list[i].arch, "host");
    EXPECT_GT(list[i].compute_units, 0);
    Device &d = host(i);
    EXPECT_EQ(d.index(), i);
    EXPECT_EQ(d.spec(), "cpu:" + std::to_string(i));
    EXPECT_EQ(&Device::get("host:" + std::to_string(i)), &d);
  }
  EXPECT_EQ(&Device::get("cpu"), &host(0));
  EXPECT_EQ(&Device::get("host"), &host(0));
  EXPECT_NE(&host(1), &host(2));
  EXPECT_NE(host(1).name(), host(2).name());
  // KTC_DEVICE takes the same spellings (trimmed, in any case).
  setenv("KTC_DEVICE", " CPU:2 ", 1);
  EXPECT_EQ(&Device::get(), &host(2));
  unsetenv("KTC_DEVICE");
}

TEST(MultiDevice, BadIndicesNameWhatExists) {
  int n = Device::count(DeviceKind::CPU);
  std::string last = "cpu:" + std::to_string(n - 1);
  expectError([] { at = __LINE__; Device::get("cpu:64"); },
              "device 'cpu:64' does not exist: this process presents " +
                  std::to_string(n) + " host devices (cpu:0 to " + last +
                  "; KTC_HOST_DEVICES=N presents N logical ones)");
  expectError([] { at = __LINE__; Device::get("cuda:x"); },
              "unknown device 'cuda:x' (expected auto, cpu, host, cuda or "
              "hip, or one with an index such as cuda:1)");
  expectError([] { at = __LINE__; Device::get("gpu:0"); },
              "unknown device 'gpu:0' (expected auto, cpu, host, cuda or "
              "hip, or one with an index such as cuda:1)");
  setenv("KTC_DEVICE", "cpu:99", 1);
  expectError([] { at = __LINE__; Device::get(); },
              "device 'cpu:99' (from KTC_DEVICE) does not exist: this "
              "process presents " + std::to_string(n) +
                  " host devices (cpu:0 to " + last +
                  "; KTC_HOST_DEVICES=N presents N logical ones)");
  unsetenv("KTC_DEVICE");
  // No GPU here: a GPU kind is absent, and the error lists what exists.
  if (Device::count(DeviceKind::HIP) == 0) {
    try {
      Device::get("hip:1");
      ADD_FAILURE() << "hip:1 opened without a HIP runtime";
    } catch (const Error &e) {
      EXPECT_NE(e.message().find("device 'hip:1' is not available: "),
                std::string::npos)
          << e.message();
      EXPECT_NE(e.message().find("; devices here: cpu:0, cpu:1"),
                std::string::npos)
          << e.message();
    }
  }
}

TEST(MultiDevice, OneCompileLoadedOncePerDevice) {
  auto add = addKernel(fresh("add"));
  for (int round = 0; round < 2; ++round)
    for (int i = 0; i < kDevices; ++i)
      checkAdd(add, host(i), 1000 + 17 * i, 10 * i + round);
  EXPECT_EQ(add.num_compiled(), 1u); // one target: the host
  EXPECT_EQ(add.num_loaded(), size_t(kDevices));
}

/// A host device that says it is another CPU (generic x86-64, or whatever
/// this machine is when it is not x86): another target, so another compile,
/// as a gfx90a beside a gfx942 would get.
class OtherCpu : public detail::DeviceImpl {
public:
  OtherCpu() : cpu_(detail::createCpuDevice(0)) {
    target_ = target::Target::host(
        llvm::StringRef(target::Target::host().triple()).starts_with("x86_64")
            ? "x86-64"
            : "generic",
        "");
  }
  DeviceKind kind() const override { return DeviceKind::CPU; }
  std::string name() const override { return "other cpu"; }
  int computeUnits() const override { return cpu_->computeUnits(); }
  void *allocate(size_t b) override { return cpu_->allocate(b); }
  void release(void *a) override { cpu_->release(a); }
  void copyToDevice(void *d, const void *s, size_t b) override {
    cpu_->copyToDevice(d, s, b);
  }
  void copyToHost(void *d, const void *s, size_t b) override {
    cpu_->copyToHost(d, s, b);
  }
  void synchronize() override {}
  void *createEvent() override { return cpu_->createEvent(); }
  void recordEvent(void *e) override { cpu_->recordEvent(e); }
  double elapsedMs(void *s, void *e) override { return cpu_->elapsedMs(s, e); }
  void destroyEvent(void *e) override { cpu_->destroyEvent(e); }
  const target::Target &target() const override { return target_; }
  std::shared_ptr<detail::Executable>
  load(const compiler::CompiledKernel &kernel) override {
    EXPECT_EQ(kernel.target, target_.name());
    return cpu_->load(kernel);
  }

private:
  std::unique_ptr<detail::DeviceImpl> cpu_;
  target::Target target_;
};

TEST(MultiDevice, EachArchItsOwnCompile) {
  Device other(std::make_unique<OtherCpu>());
  ASSERT_NE(other.impl().targetId, host(0).impl().targetId);
  auto add = addKernel(fresh("add"));
  checkAdd(add, host(0), 333, 1);
  checkAdd(add, host(1), 334, 2);
  checkAdd(add, other, 335, 3);
  EXPECT_EQ(add.num_compiled(), 2u);
  EXPECT_EQ(add.num_loaded(), 3u);

  // The autotuner keeps a winner per arch: host devices share theirs, the
  // other CPU tunes its own.
  AutotuneOptions quick;
  quick.disk = false;
  quick.bench.warmup_ms = 1;
  quick.bench.rep_ms = 2;
  quick.bench.flush_bytes = 1 << 20;
  auto tuned = Autotuner(
      add, {Config({{"BLOCK", 32}}), Config({{"BLOCK", 128}})}, {"n"}, quick);
  for (Device *d : {&host(0), &host(1), &other}) {
    Buffer<float> x(*d, example::randomVector(500, 5)), y(*d, 500),
        out(*d, 500);
    tuned.launch([](const Config &c) { return Grid(cdiv(500, c["BLOCK"])); },
                 x, y, out, 500);
  }
  EXPECT_EQ(tuned.num_tuned(), 2u);
}

TEST(MultiDevice, BuffersViewsAndStreamsOfAnotherDevice) {
  auto add = addKernel("add");
  Buffer<float> x(host(1), 8), y(host(2), 8);
  expectError([&] { at = __LINE__; add.launch({1}, x, y, x, 8, 8); },
              "argument 2 (y) is a buffer on " + host(2).name() +
                  ", but argument 1 (x) is on " + host(1).name() +
                  "; kernel 'add' runs on one device");
  std::vector<float> memory(8, 1.0f);
  View<float> v(host(3), memory.data(), memory.size());
  expectError([&] { at = __LINE__; add.launch({1}, x, v, x, 8, 8); },
              "argument 2 (y) is a buffer on " + host(3).name() +
                  ", but argument 1 (x) is on " + host(1).name() +
                  "; kernel 'add' runs on one device");
  Stream s(host(2));
  expectError([&] { at = __LINE__; add.launch(Grid(1).on(s), x, x, x, 8, 8); },
              "kernel 'add' is launched on a stream of " + host(2).name() +
                  ", but argument 1 (x) is a buffer on " + host(1).name() +
                  "; a launch runs on the device of its buffers");
  // A mismatched argument is named as a View.
  View<int32_t> ints(host(1), memory.data(), 8);
  expectError([&] { at = __LINE__; add.launch({1}, x, ints, x, 8, 8); },
              "argument 2 (y) is a Ptr<f32> and needs a Buffer<f32>, got a "
              "View<i32>");
}

TEST(MultiDevice, OneThreadPerDevice) {
  // Every thread's first launch is the same specialisation: one thread
  // compiles it, each device loads it once, concurrently; then each thread
  // goes on launching on its own device.
  auto softmax = Kernel(fresh("softmax"), seeds::softmax_online);
  std::vector<std::future<double>> worst;
  for (int t = 0; t < kDevices; ++t)
    worst.push_back(std::async(std::launch::async, [&, t] {
      Device &d = host(t);
      double w = 0;
      for (int round = 0; round < 3; ++round) {
        int64_t rows = 3 + t + round, cols = 97 + 30 * t; // none by 16
        auto hin = example::randomVector(rows * cols, 100 * t + round);
        Buffer<float> in(d, hin);
        Buffer<float> out(d, std::vector<float>(hin.size(), NAN));
        softmax.launch({rows}, in, out, cols, cols, 64);
        w = std::max(w, example::check(out.to_host(),
                                       example::softmaxReference(hin, rows,
                                                                 cols),
                                       0)
                            .worst);
      }
      return w;
    }));
  for (auto &w : worst)
    EXPECT_LT(w.get(), 1e-5);
  EXPECT_EQ(softmax.num_compiled(), 1u);
  EXPECT_EQ(softmax.num_loaded(), size_t(kDevices));
}

TEST(Interop, ViewsOfTheApplicationsMemory) {
  Device &d = host(1);
  auto add = addKernel(fresh("add"));
  // The application's memory, 64-byte aligned, with room for an offset.
  constexpr size_t n = 301;
  float *x = static_cast<float *>(std::aligned_alloc(64, 320 * sizeof(float)));
  float *y = static_cast<float *>(std::aligned_alloc(64, 320 * sizeof(float)));
  float *out =
      static_cast<float *>(std::aligned_alloc(64, 320 * sizeof(float)));
  std::vector<float> hx = example::randomVector(320, 7),
                     hy = example::randomVector(320, 8);
  std::copy(hx.begin(), hx.end(), x);
  std::copy(hy.begin(), hy.end(), y);
  std::fill(out, out + 320, NAN);
  View<float> vx(d, x, 320), vy(d, y, 320), vout(d, out, 320);
  EXPECT_EQ(vx.size(), 320u);
  EXPECT_EQ(&vx.device(), &d);
  EXPECT_EQ(vx.data(), x);
  // Aligned views, then views at element offset 1 (4-byte aligned): a
  // specialisation of their own, and the right elements.
  add.launch({cdiv(int64_t(n), 64)}, vx, vy, vout, int64_t(n), 64);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], float(double(hx[i]) + double(hy[i]))) << i;
  EXPECT_TRUE(std::isnan(out[n])); // past n: untouched
  EXPECT_EQ(add.num_compiled(), 1u);
  std::fill(out, out + 320, NAN);
  View<float> sx = vx.view(1), sy = vy.view(1, n), sout = vout.view(1, n);
  EXPECT_EQ(sx.size(), 319u);
  EXPECT_EQ(sy.data(), y + 1);
  add.launch({cdiv(int64_t(n), 64)}, sx, sy, sout, int64_t(n), 64);
  EXPECT_TRUE(std::isnan(out[0]));
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i + 1], float(double(hx[i + 1]) + double(hy[i + 1]))) << i;
  EXPECT_EQ(add.num_compiled(), 2u); // not 16-byte aligned: specialised apart
  // On the application's stream (the host's launches are synchronous), with
  // a Buffer's view beside the application's memory.
  Buffer<float> bx(d, hx);
  std::fill(out, out + 320, NAN);
  Stream stream(d, reinterpret_cast<void *>(0x1234)); // ignored on the host
  add.launch(Grid(cdiv(int64_t(n), 64)).on(stream), bx.view(2), vy.view(2),
             vout.view(2), int64_t(n), 64);
  stream.synchronize();
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i + 2], float(double(hx[i + 2]) + double(hy[i + 2]))) << i;
  // Copies through a view.
  std::vector<float> back = vx.view(5, 3).to_host();
  EXPECT_EQ(back, std::vector<float>(hx.begin() + 5, hx.begin() + 8));
  std::free(x);
  std::free(y);
  std::free(out);
}

TEST(Interop, BadViews) {
  Device &d = host(0);
  std::vector<float> memory(10);
  View<float> v(d, memory.data(), 10);
  expectError([&] { at = __LINE__; v.view(11); },
              "View<f32>::view(11, to the end) reaches past the view's 10 "
              "elements");
  expectError([&] { at = __LINE__; v.view(4, 7); },
              "View<f32>::view(4, 7) reaches past the view's 10 elements");
  expectError([&] { at = __LINE__; View<float>(d, nullptr, 3); },
              "a View of 12 bytes at a null address");
  Buffer<float> b(d, 4);
  expectError([&] { at = __LINE__; b.view(2, 3); },
              "View<f32>::view(2, 3) reaches past the view's 4 elements");
  View<float> empty(d, nullptr, 0); // no elements: no address needed
  EXPECT_EQ(empty.size(), 0u);
  expectError([&] { at = __LINE__; Stream().synchronize(); },
              "Stream::synchronize: the stream has no device");
}

} // namespace
