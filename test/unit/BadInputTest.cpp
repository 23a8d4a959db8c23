//===- BadInputTest.cpp - bad input gives a clear ktc::Error --------------===//
//
// ktc runs inside its users' processes: misuse of the builder, a bad launch,
// a bad buffer or an unknown target must be a ktc::Error naming the user's
// own file and line, never an abort, a crash, a hang or lost data. Each test
// writes `at = __LINE__;` on the line the error must point to. The catalogue
// is docs/bad-inputs.md; BuilderErrorsTest.cpp and RuntimeTest.cpp pin the
// rest of it.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"
#include "examples/kernels/seeds.h"
#include "ktc/ktc.h"

#include "lib/Runtime/Device.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>

using namespace ktc;

namespace {

int at = 0; // the line an error must point to

void expectError(const std::function<void()> &f, const std::string &message) {
  test::expectErrorAt(f, message, __FILE__, at);
}

template <typename F> void expectKernelError(F fn, const std::string &msg) {
  expectError([&] { Kernel("k", fn).mlir(); }, msg);
}

Device &cpu() { return Device::get("cpu"); }

auto addKernel() {
  return Kernel("add", {"x", "y", "out", "n", "BLOCK"}, seeds::vector_add);
}

//===----------------------------------------------------------------------===//
// The builder: misuse not already pinned by BuilderErrorsTest.cpp
//===----------------------------------------------------------------------===//

TEST(BadBuilder, EmptyValue) {
  expectKernelError([](Ptr<float> p) {
    Value never;
    at = __LINE__; store(p, never);
  }, "use of an empty ktc::Value (default-constructed, never assigned)");
}

TEST(BadBuilder, LiteralAsPointer) {
  expectKernelError([](Ptr<float>) {
    at = __LINE__; load(16);
  }, "load needs a pointer or a block of pointers, not a literal");
}

TEST(BadBuilder, ReduceOfPointers) {
  expectKernelError([](Ptr<float> p) {
    at = __LINE__; sum(p + arange(0, 8), 0);
  }, "sum() cannot reduce pointers");
}

TEST(BadBuilder, WhereNeedsABooleanCondition) {
  expectKernelError([](Ptr<float> p) {
    auto x = load(p + arange(0, 8));
    at = __LINE__; where(x, x, 0.0f);
  }, "where() condition must be boolean (i1), got tensor<8xf32>");
}

TEST(BadBuilder, CdivOfFloats) {
  expectKernelError([](Ptr<float> p) {
    auto x = load(p);
    at = __LINE__; cdiv(x, x);
  }, "cdiv() needs integers, got f32");
}

TEST(BadBuilder, FullOfABlock) {
  expectKernelError([](Ptr<float>) {
    at = __LINE__; full({8}, arange(0, 8), DType::i32);
  }, "full() takes a scalar value, not a tensor<8xi32>");
}

TEST(BadBuilder, BlockShapeNotPowerOfTwo) {
  expectKernelError([](Ptr<float>) {
    at = __LINE__; zeros({3}, DType::f32);
  }, "block dimension 3 is not a power of two");
}

// A kernel body that throws its own exception leaves no trace behind: the
// exception reaches the caller unchanged and the next trace works.
TEST(BadBuilder, UserExceptionInTheBody) {
  auto bad = Kernel("throws", [](Ptr<float> p) {
    store(p, 1.0f);
    throw std::runtime_error("the user's own error");
  });
  EXPECT_THROW(bad.mlir(), std::runtime_error);
  EXPECT_THROW(bad.mlir(), std::runtime_error);
  auto good = Kernel("fine", [](Ptr<float> p) { store(p, 1.0f); });
  EXPECT_NE(good.mlir().find("ktc.store"), std::string::npos);
}

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

TEST(BadLaunch, ConstexprDoesNotFitItsType) {
  // BLOCK is an `int`: 2^32 + 1024 would silently become 1024.
  auto add = addKernel();
  Buffer<float> x(cpu(), 8);
  expectError([&] { at = __LINE__; add.launch({1}, x, x, x, 8, (1LL << 32) + 1024); },
              "argument 5 (BLOCK) is a constexpr integer from -2147483648 to "
              "2147483647, got the integer 4294968320");
}

TEST(BadLaunch, UnsignedBeyondInt64) {
  auto add = addKernel();
  Buffer<float> x(cpu(), 8);
  uint64_t huge = uint64_t(1) << 63;
  expectError([&] { at = __LINE__; add.launch({1}, x, x, x, huge, 8); },
              "argument 4 (n) is a scalar i32, and 9223372036854775808 does "
              "not fit in i32");
  expectError([&] { at = __LINE__; add.launch({1}, x, x, x, 8, huge); },
              "argument 5 (BLOCK) is a constexpr integer up to "
              "2147483647, got the integer 9223372036854775808");
}

TEST(BadLaunch, FloatScalarBeyondItsType) {
  auto scale = Kernel("scale", {"p", "a", "h"},
                      [](Ptr<float> p, Float a, Scalar<half> h) {
                        store(p, load(p) * a + h.to(DType::f32));
                      });
  Buffer<float> x(cpu(), std::vector<float>{2.0f});
  expectError([&] { at = __LINE__; scale.launch({1}, x, 1e300, 0.0); },
              "argument 2 (a) is a scalar f32, and 1e+300 is beyond the range "
              "of f32");
  expectError([&] { at = __LINE__; scale.launch({1}, x, 1.0, 1e5); },
              "argument 3 (h) is a scalar f16, and 100000 is beyond the range "
              "of f16");
  // Rounding is fine, and so are infinities the caller asked for.
  scale.launch({1}, x, 3.0, 65504.0);
  EXPECT_EQ(x.to_host()[0], 6.0f + 65504.0f);
}

TEST(BadLaunch, MovedFromBuffer) {
  auto add = addKernel();
  Buffer<float> x(cpu(), 8);
  Buffer<float> kept = std::move(x);
  EXPECT_EQ(x.size(), 0u);
  EXPECT_EQ(x.memory(), nullptr);
  expectError([&] { at = __LINE__; add.launch({1}, x, kept, kept, 8, 8); },
              "argument 1 (x) is a Buffer<f32> that was moved from and holds "
              "no memory");
  expectError([&] { at = __LINE__; (void)x.to_host(); },
              "Buffer<f32>::to_host: the buffer was moved from and holds no "
              "memory");
  expectError([&] { at = __LINE__; x.copy_from({}); },
              "Buffer<f32>::copy_from: the buffer was moved from and holds no "
              "memory");
  expectError([&] { at = __LINE__; (void)x.data(); },
              "Buffer<f32>::data: the buffer was moved from and holds no "
              "memory");
  // The buffer it moved to works.
  add.launch({1}, kept, kept, kept, 8, 8);
}

TEST(BadLaunch, CopyOfTheWrongSize) {
  Buffer<int32_t> b(cpu(), 3);
  expectError([&] { at = __LINE__; b.copy_from({1, 2}); },
              "Buffer::copy_from: 2 values for a buffer of 3");
}

TEST(BadLaunch, BufferLargerThanMemory) {
  expectError([] { at = __LINE__; Buffer<float> b(cpu(), SIZE_MAX / 2); },
              "a Buffer<f32> of " + std::to_string(SIZE_MAX / 2) +
                  " elements is larger than the address space");
  // 4 PiB: the allocation fails and says so.
  expectError([] { at = __LINE__; Buffer<float> b(cpu(), size_t(1) << 50); },
              "cannot allocate 4503599627370496 bytes on " + cpu().name());
}

TEST(BadLaunch, BuffersOnTwoDeviceObjects) {
  // A second CPU device object (as a program holding two Devices would
  // have): its buffers cannot be mixed with the first one's.
  Device other(detail::createCpuDevice());
  auto add = addKernel();
  Buffer<float> x(cpu(), 8), y(other, 8);
  expectError([&] { at = __LINE__; add.launch({1}, x, y, x, 8, 8); },
              "argument 2 (y) is a buffer on " + other.name() +
                  ", but argument 1 (x) is on another Device object (also " +
                  cpu().name() + "); kernel 'add' runs on one device");
}

TEST(BadLaunch, GridBeyondTheDevice) {
  // The CPU takes CUDA's limits: 2^31-1 along x, 65535 along y and z.
  auto add = addKernel();
  Buffer<float> x(cpu(), 8);
  expectError([&] { at = __LINE__; add.launch({1, 65536}, x, x, x, 8, 8); },
              "grid y = 65536 is larger than 65535, the most the device "
              "launches along y");
  expectError([&] { at = __LINE__; add.launch({1, 1, -3}, x, x, x, 8, 8); },
              "grid z = -3: every grid dimension must be at least 1");
}

// Offsets computed in i32 overflow before they reach element 2^31: a larger
// buffer reached through i32 offsets only is refused; with i64 offsets it
// works. The buffers are 4 GiB of address space, never touched but for the
// elements the kernels write.
TEST(BadLaunch, BufferBeyondI32Offsets) {
  size_t count = (size_t(1) << 31) + 64;
  std::unique_ptr<Buffer<half>> big;
  try {
    big = std::make_unique<Buffer<half>>(cpu(), count);
  } catch (const Error &e) {
    GTEST_SKIP() << "no 4 GiB of address space here: " << e.message();
  }
  auto narrow = Kernel("narrow", {"p", "at"}, [](Ptr<half> p, Int i) {
    store(p + i, 7.0f);
  });
  expectError([&] { at = __LINE__; narrow.launch({1}, *big, 5); },
              "argument 1 (p) is a Buffer<f16> of 2147483712 elements, but "
              "kernel 'narrow' reaches it through i32 offsets only, which "
              "index at most 2147483647 elements; compute its offsets in i64 "
              "(e.g. program_id(0).to(ktc::DType::i64) * BLOCK)");
  // An i64 offset anywhere on the way counts: a row in i64, then i32 within.
  auto wide = Kernel("wide", {"p", "row", "B"},
                     [](Ptr<half> p, Long row, int B) {
                       auto start = p + row * B;
                       store(start + arange(0, B), 7.0f);
                     });
  int64_t row = ((int64_t(1) << 31) / 32) + 1; // elements 2^31+32 .. +63
  wide.launch({1}, *big, row, 32);
  const uint16_t *bits = static_cast<const uint16_t *>(big->data());
  EXPECT_EQ(bits[row * 32], 0x4700);      // 7.0 in f16
  EXPECT_EQ(bits[row * 32 + 31], 0x4700);
  // A small buffer through i32 offsets is of course fine.
  Buffer<half> small(cpu(), 8);
  narrow.launch({1}, small, 5);
  EXPECT_EQ(small.to_host()[5].bits, 0x4700);
}

/// A device that is the CPU, except that its compiler or its driver fails
/// when asked to, and its grids are small: the runtime's handling of device
/// failures, checked without a GPU.
class FlakyDevice : public detail::DeviceImpl {
public:
  bool failCompile = false, failLaunch = false;

  DeviceKind kind() const override { return cpu_->kind(); }
  std::string name() const override { return "flaky " + cpu_->name(); }
  int computeUnits() const override { return cpu_->computeUnits(); }
  void *allocate(size_t bytes) override { return cpu_->allocate(bytes); }
  void release(void *p) override { cpu_->release(p); }
  void copyToDevice(void *d, const void *s, size_t n) override {
    cpu_->copyToDevice(d, s, n);
  }
  void copyToHost(void *d, const void *s, size_t n) override {
    cpu_->copyToHost(d, s, n);
  }
  void synchronize() override {}
  void *createEvent() override { return cpu_->createEvent(); }
  void recordEvent(void *e) override { cpu_->recordEvent(e); }
  double elapsedMs(void *a, void *b) override { return cpu_->elapsedMs(a, b); }
  void destroyEvent(void *e) override { cpu_->destroyEvent(e); }
  const target::Target &target() const override { return cpu_->target(); }
  // What compiled is loaded here: a failure to load fails the launch that
  // compiled it, as a failed compile does.
  std::shared_ptr<detail::Executable>
  load(const compiler::CompiledKernel &kernel) override {
    if (failCompile)
      throw Error("the flaky compiler failed");
    auto executable = std::make_shared<Flaky>(*this, cpu_->load(kernel));
    executable->maxGrid = {1024, 4, 1};
    return executable;
  }

private:
  struct Flaky : detail::Executable {
    Flaky(FlakyDevice &d, std::shared_ptr<detail::Executable> inner)
        : device(d), inner(std::move(inner)) {}
    void launch(void **args, size_t n, std::array<int32_t, 3> grid,
                void *stream) override {
      if (device.failLaunch)
        throw Error("the flaky driver failed (error 700)");
      inner->launch(args, n, grid, stream);
    }
    KernelInfo info() const override { return inner->info(); }
    FlakyDevice &device;
    std::shared_ptr<detail::Executable> inner;
  };
  std::unique_ptr<detail::DeviceImpl> cpu_ = detail::createCpuDevice();
};

// A driver's error and a failed compile, both without a location of their
// own, are reported at the user's launch; the device's grid limits hold.
TEST(BadLaunch, DeviceFailuresAtTheLaunch) {
  auto impl = std::make_unique<FlakyDevice>();
  FlakyDevice &flaky = *impl;
  Device device(std::move(impl));
  auto add = addKernel();
  Buffer<float> x(device, std::vector<float>(64, 1.0f));
  add.launch({1}, x, x, x, 64, 64);
  EXPECT_EQ(x.to_host()[0], 2.0f);
  flaky.failLaunch = true;
  expectError([&] { at = __LINE__; add.launch({1}, x, x, x, 64, 64); },
              "launching kernel 'add': the flaky driver failed (error 700)");
  flaky.failLaunch = false;
  expectError([&] { at = __LINE__; add.launch({1, 5}, x, x, x, 64, 64); },
              "grid y = 5 is larger than 4, the most the device launches "
              "along y");
  expectError([&] { at = __LINE__; add.launch({1, 1, 2}, x, x, x, 64, 64); },
              "grid z = 2 is larger than 1, the most the device launches "
              "along z");
  flaky.failCompile = true; // a new specialisation (BLOCK = 32) compiles
  try {
    at = __LINE__; add.launch({2}, x, x, x, 64, 32);
    ADD_FAILURE() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(e.file(), __FILE__);
    EXPECT_EQ(e.line(), static_cast<unsigned>(at)) << e.what();
    EXPECT_EQ(e.message().rfind("the flaky compiler failed", 0), 0u)
        << e.message();
  }
  EXPECT_EQ(x.to_host()[0], 2.0f); // nothing ran after the first launch
}

//===----------------------------------------------------------------------===//
// Targets and devices
//===----------------------------------------------------------------------===//

TEST(BadTarget, UnknownGpus) {
  auto add = addKernel();
  expectError([&] { at = __LINE__; add.emit("asm", "gfx9999", 1024); },
              "unknown GPU target 'gfx9999': LLVM's AMDGPU backend does not "
              "know it (ktc supports gfx9 and newer: gfx90a, gfx942, gfx950, "
              "gfx1100, gfx1200, gfx1250, ...)");
  expectError([&] { at = __LINE__; add.info("sm_999", 1024); },
              "unknown GPU target 'sm_999': LLVM's NVPTX backend does not "
              "know it (ktc supports sm_70 and newer: sm_80, sm_90, sm_100, "
              "sm_120, ...)");
  expectError([&] { at = __LINE__; add.info("gfx", 1024); },
              "unknown GPU target 'gfx': LLVM's AMDGPU backend does not "
              "know it (ktc supports gfx9 and newer: gfx90a, gfx942, gfx950, "
              "gfx1100, gfx1200, gfx1250, ...)");
}

TEST(BadTarget, UnknownNames) {
  auto add = addKernel();
  expectError([&] { at = __LINE__; add.info("tpu", 1024); },
              "unknown target 'tpu' (a device: auto, cpu, cuda, hip; or host, "
              "sm_<N>, gfx<N>)");
  expectError([&] { at = __LINE__; add.emit("mlir", "tpu", 1024); },
              "unknown target 'tpu' (host, sm_<N> or gfx<N>)");
  expectError([&] { at = __LINE__; Device::get("gpu"); },
              "unknown device 'gpu' (expected auto, cpu, host, cuda or hip, "
              "or one with an index such as cuda:1)");
}

// Where the GPU runtime is missing, the error names the library (the lit
// test test/examples/bad-device.test forces this with KTC_CUDA_LIBRARY and
// KTC_HIP_LIBRARY on every machine).
TEST(BadTarget, MissingGpuRuntimeNamesTheLibrary) {
  for (const char *spec : {"cuda", "hip"}) {
    try {
      at = __LINE__; Device::get(spec);
    } catch (const Error &e) {
      EXPECT_EQ(e.line(), static_cast<unsigned>(at));
      std::string want = std::string("device '") + spec + "' is not available: ";
      EXPECT_EQ(e.message().rfind(want, 0), 0u) << e.message();
      // Either the library is missing (and named), or it loaded and found
      // no GPU.
      bool named = e.message().find(std::string(spec) == "cuda"
                                        ? "libcuda"
                                        : "libamdhip64") != std::string::npos;
      bool noGpu = e.message().find("GPU") != std::string::npos ||
                   e.message().find("no CUDA device") != std::string::npos ||
                   e.message().find("cuInit") != std::string::npos;
      EXPECT_TRUE(named || noGpu) << e.message();
    }
  }
}

} // namespace
