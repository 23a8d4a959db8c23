//===- RuntimeTest.cpp - devices, launches and their errors ---------------===//

#include "ExpectError.h"
#include "examples/kernels/seeds.h"
#include "ktc/ktc.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <map>

#include <cstdlib>
#include <fstream>
#include <functional>

using namespace ktc;

namespace {

int at = 0; // the line an error must point to

void expectError(const std::function<void()> &f, const std::string &message) {
  test::expectErrorAt(f, message, __FILE__, at);
}

Device &cpu() { return Device::get("cpu"); }

auto addKernel() {
  return Kernel("add", {"x", "y", "out", "n", "BLOCK"}, seeds::vector_add);
}

TEST(Runtime, AutoPicksTheCpuHere) {
  unsetenv("KTC_DEVICE");
  EXPECT_EQ(Device::get().kind(), DeviceKind::CPU);
  EXPECT_EQ(&Device::get(), &cpu()); // one device object per process
  setenv("KTC_DEVICE", "cpu", 1);
  EXPECT_EQ(Device::get().kind(), DeviceKind::CPU);
  setenv("KTC_DEVICE", "tpu", 1);
  expectError([] { at = __LINE__; Device::get(); },
              "unknown device 'tpu' (expected auto, cpu, host, cuda or hip, "
              "or one with an index such as cuda:1, from KTC_DEVICE)");
  unsetenv("KTC_DEVICE");
  EXPECT_NE(cpu().name().find("cpu ("), std::string::npos);
}

/// Where a GPU runtime is missing or finds no GPU, asking for it explicitly
/// is a clear error at the caller's line (and "auto" moves on to the CPU).
void expectUnavailable(const char *spec) {
  try {
    at = __LINE__; Device::get(spec);
    GTEST_SKIP() << spec << " is available on this machine";
  } catch (const Error &e) {
    EXPECT_EQ(e.message().rfind(std::string("device '") + spec +
                                    "' is not available: ",
                                0),
              0u)
        << e.message();
    EXPECT_EQ(e.line(), static_cast<unsigned>(at));
  }
}

TEST(Runtime, UnavailableHip) { expectUnavailable("hip"); }
TEST(Runtime, UnavailableCuda) { expectUnavailable("cuda"); }

TEST(Runtime, BufferRoundTrip) {
  Buffer<int32_t> b(cpu(), std::vector<int32_t>{1, -2, 3});
  EXPECT_EQ(b.size(), 3u);
  EXPECT_EQ(b.to_host(), (std::vector<int32_t>{1, -2, 3}));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b.data()) % 64, 0u);
  EXPECT_THROW(b.copy_from({1, 2}), Error);
}

TEST(Runtime, WrongArgumentCount) {
  auto add = addKernel();
  Buffer<float> x(cpu(), 8);
  expectError([&] { at = __LINE__; add.launch({1}, x, x, x, 8); },
              "kernel 'add' takes 5 arguments (x, y, out, n, BLOCK), got 4");
}

TEST(Runtime, WrongBufferType) {
  auto add = addKernel();
  Buffer<float> x(cpu(), 8);
  Buffer<int32_t> i(cpu(), 8);
  expectError([&] { at = __LINE__; add.launch({1}, x, i, x, 8, 8); },
              "argument 2 (y) is a Ptr<f32> and needs a Buffer<f32>, got a "
              "Buffer<i32>");
  expectError([&] { at = __LINE__; add.launch({1}, x, x, 0, 8, 8); },
              "argument 3 (out) is a Ptr<f32> and needs a Buffer<f32>, got "
              "the integer 0");
  expectError([&] { at = __LINE__; add.launch({1}, nullptr, x, x, 8, 8); },
              "argument 1 (x) is a Ptr<f32> and needs a Buffer<f32>, got a "
              "null pointer");
}

TEST(Runtime, ScalarArguments) {
  auto add = addKernel();
  Buffer<float> x(cpu(), 8);
  expectError([&] { at = __LINE__; add.launch({1}, x, x, x, 5000000000LL, 8); },
              "argument 4 (n) is a scalar i32, and 5000000000 does not fit in "
              "i32");
  expectError([&] { at = __LINE__; add.launch({1}, x, x, x, 2.5, 8); },
              "argument 4 (n) is a scalar i32, got the floating-point number "
              "2.500000; convert it to an integer");
  expectError([&] { at = __LINE__; add.launch({1}, x, x, x, x, 8); },
              "argument 4 (n) is a scalar i32, got a Buffer<f32>");
}

TEST(Runtime, ConstexprArguments) {
  auto add = addKernel();
  Buffer<float> x(cpu(), 8);
  expectError([&] { at = __LINE__; add.launch({1}, x, x, x, 8, 1.5); },
              "argument 5 (BLOCK) is a constexpr integer, got the "
              "floating-point number 1.500000");
  expectError([&] { at = __LINE__; add.launch({1}, x, x, x, 8, x); },
              "argument 5 (BLOCK) is a constexpr integer, got a Buffer<f32>");
  // A constexpr that makes a bad kernel fails while tracing, at the
  // kernel's own line.
  try {
    add.launch({1}, x, x, x, 8, 100);
    ADD_FAILURE() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(e.message(), "arange(0, 100): the length 100 must be a power "
                           "of two");
    EXPECT_NE(e.file().find("seeds.h"), std::string::npos) << e.what();
  }
}

TEST(Runtime, BadGrid) {
  auto add = addKernel();
  Buffer<float> x(cpu(), 8);
  expectError([&] { at = __LINE__; add.launch({0}, x, x, x, 8, 8); },
              "grid x = 0: every grid dimension must be at least 1");
  expectError([&] { at = __LINE__; add.launch({1, 1, 3000000000LL}, x, x, x, 8, 8); },
              "grid z = 3000000000 is larger than 2147483647");
}

TEST(Runtime, BadOptions) {
  auto add = addKernel();
  Buffer<float> x(cpu(), 8);
  expectError([&] { at = __LINE__; add.launch({1}, x, x, x, 8, 8, Options{.num_warps = 3}); },
              "Options::num_warps must be a power of two from 1 to 32, got 3");
  expectError([&] { at = __LINE__; add.launch({1}, x, x, x, 8, 8, Options{.num_warps = 4, .num_stages = 0}); },
              "Options::num_stages must be from 1 to 8, got 0");
  expectError([&] { at = __LINE__; add.launch({1}, x, x, x, 8, 8, Options{.num_warps = 4, .num_stages = 9}); },
              "Options::num_stages must be from 1 to 8, got 9");
}

TEST(Runtime, OptionsAreCompiledFor) {
  // Each set of options is one compile; the same options hit the cache.
  auto add = addKernel();
  Buffer<float> x(cpu(), std::vector<float>(64, 1.0f));
  add.launch({1}, x, x, x, 32, 64);
  add.launch({1}, x, x, x, 32, 64, Options{});
  EXPECT_EQ(add.num_compiled(), 1u);
  add.launch({1}, x, x, x, 32, 64, Options{.num_warps = 8});
  EXPECT_EQ(add.num_compiled(), 2u);
  add.launch({1}, x, x, x, 32, 64, Options{.num_warps = 8, .num_stages = 2});
  EXPECT_EQ(add.num_compiled(), 3u);
  EXPECT_EQ(x.to_host()[0], 16.0f); // four launches, each doubling x[0]
}

TEST(Runtime, ArgumentSpecialisation) {
  // Like Triton: buffers 16-byte aligned and integers divisible by 16 are
  // compiled for, each new combination once.
  auto add = addKernel();
  Buffer<float> x(cpu(), std::vector<float>(64, 1.0f));
  add.launch({1}, x, x, x, 32, 64); // n % 16 == 0
  EXPECT_EQ(add.num_compiled(), 1u);
  add.launch({1}, x, x, x, 48, 64); // same specialisation
  EXPECT_EQ(add.num_compiled(), 1u);
  add.launch({1}, x, x, x, 33, 64); // n % 16 != 0: a new one
  EXPECT_EQ(add.num_compiled(), 2u);
  // x[i] is doubled by each launch with i < n: n = 32, 48, 33.
  std::vector<float> got = x.to_host();
  EXPECT_EQ(got[0], 8.0f);
  EXPECT_EQ(got[32], 4.0f);
  EXPECT_EQ(got[40], 2.0f);
  EXPECT_EQ(got[63], 1.0f);
}

TEST(Runtime, EqualToOneSpecialisation) {
  // A stride of 1 is compiled as the constant 1 (and gives the right
  // answer); another stride is another specialisation.
  auto copy = Kernel("strided_copy",
                     [](Ptr<float> src, Ptr<float> dst, Int stride, int B) {
                       auto i = arange(0, B);
                       store(dst + i, load(src + i * stride));
                     });
  std::vector<float> host(64);
  for (int i = 0; i < 64; ++i)
    host[i] = float(i);
  Buffer<float> src(cpu(), host), dst(cpu(), std::vector<float>(32, NAN));
  copy.launch({1}, src, dst, 1, 32);
  EXPECT_EQ(dst.to_host()[31], 31.0f);
  copy.launch({1}, src, dst, 2, 32);
  EXPECT_EQ(dst.to_host()[31], 62.0f);
  EXPECT_EQ(copy.num_compiled(), 2u);
  copy.launch({1}, src, dst, 1, 32);
  EXPECT_EQ(copy.num_compiled(), 2u);
}

TEST(Runtime, EventsTimeLaunches) {
  auto add = addKernel();
  Buffer<float> x(cpu(), std::vector<float>(1 << 16, 1.0f));
  add.launch({64}, x, x, x, 1 << 16, 1024); // compile outside the timing
  Event start = cpu().record();
  add.launch({64}, x, x, x, 1 << 16, 1024);
  Event end = cpu().record();
  double ms = end.elapsed_ms(start);
  EXPECT_GT(ms, 0.0);
  EXPECT_LT(ms, 10000.0);
  EXPECT_EQ(x.to_host()[0], 4.0f);
}

TEST(Runtime, DumpsEachStage) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ktc-dump-test", dir));
  setenv("KTC_DUMP", "mlir,layout,llvm,asm", 1);
  setenv("KTC_DUMP_DIR", dir.c_str(), 1);
  auto add = addKernel();
  Buffer<float> x(cpu(), std::vector<float>(64, 1.0f));
  add.launch({1}, x, x, x, 64, 64);  // host: mlir, layout, llvm, asm
  add.emit("bin", "gfx942", 1024);    // AMDGPU: mlir, layout, llvm, asm
  unsetenv("KTC_DUMP");
  unsetenv("KTC_DUMP_DIR");
  std::map<std::string, int> stages;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    std::string name = llvm::sys::path::filename(it->path()).str();
    EXPECT_EQ(name.rfind("add-", 0), 0u) << name;
    stages[name.substr(name.find('.'))]++;
  }
  EXPECT_EQ(stages[".mlir"], 2);        // two specialisations' kernels
  EXPECT_EQ(stages[".layout.mlir"], 2); // host loops, GPU layouts
  EXPECT_EQ(stages[".llvm.ll"], 2);
  EXPECT_EQ(stages[".asm.s"], 2);       // host and AMDGPU assembly
  llvm::sys::fs::remove_directories(dir);
}

// A compile that fails leaves a reproducer that ktc-opt fails on the same
// way (here: a 1x64x16384 block of pointers, 2048 registers a thread over
// 16 waves of 64: more than any GPU has).
TEST(Runtime, FailedCompileWritesAReproducer) {
  auto big = Kernel("big_tile", [](Ptr<float> p, Ptr<float> q, int M, int N) {
    auto rows = expand_dims(expand_dims(arange(0, M), 0), 2);
    auto cols = expand_dims(expand_dims(arange(0, N), 0), 0);
    auto tile = load(p + rows * N + cols);
    store(q + cols * M + rows, tile);
  });
  std::string message;
  try {
    at = __LINE__; big.emit("asm", "gfx942", 64, 16384, Options{.num_warps = 16});
    ADD_FAILURE() << "no error";
  } catch (const Error &e) {
    message = e.message();
    EXPECT_EQ(e.line(), static_cast<unsigned>(at));
  }
  EXPECT_NE(message.find("needs 2048 registers per thread, more than any GPU has (1024)"),
            std::string::npos) << message;
  size_t at_path = message.find("reproducer: ");
  ASSERT_NE(at_path, std::string::npos) << message;
  std::string path = message.substr(at_path + 12);
  path = path.substr(0, path.find(' '));
  std::ifstream file(path);
  ASSERT_TRUE(file.good()) << path;
  std::string text((std::istreambuf_iterator<char>(file)),
                   std::istreambuf_iterator<char>());
  EXPECT_EQ(text.rfind("// ktc reproducer for a failed compile of kernel "
                       "'big_tile'", 0), 0u);
  EXPECT_NE(text.find("ktc-opt --run-reproducer"), std::string::npos);
  EXPECT_NE(text.find("func.func @big_tile("), std::string::npos);
  // MLIR's reproducer: the pipeline that failed, as text.
  EXPECT_NE(text.find("mlir_reproducer"), std::string::npos);
  EXPECT_NE(text.find("ktc-assign-layouts{arch="), std::string::npos);
  EXPECT_NE(text.find("num-warps=16 wave-size=64}"), std::string::npos);
  // ktc-opt reproduces the failure from the file alone.
  std::string command = std::string(KTC_OPT_PATH) + " --run-reproducer " +
                        path + " -o /dev/null > " + path + ".log 2>&1";
  EXPECT_NE(std::system(command.c_str()), 0);
  std::ifstream log(path + ".log");
  std::string output((std::istreambuf_iterator<char>(log)),
                     std::istreambuf_iterator<char>());
  EXPECT_NE(output.find("needs 2048 registers per thread, more than any GPU has (1024)"),
            std::string::npos) << output;
}

TEST(Runtime, EmitStages) {
  auto add = addKernel();
  std::string ir = add.emit("llvm", "host", 1024);
  EXPECT_NE(ir.find("define void @add("), std::string::npos) << ir;
  std::string mlir = add.emit("mlir", "host", 1024);
  EXPECT_NE(mlir.find("ktc.arange 0, 1024"), std::string::npos);
  std::string asm_ = add.emit("asm", "host", 1024);
  EXPECT_NE(asm_.find("add:"), std::string::npos);
  expectError([&] { at = __LINE__; add.emit("ptx", "host", 1024); },
              "unknown stage 'ptx' to emit (mlir, llvm, asm or bin)");
  expectError([&] { at = __LINE__; add.emit("asm", "tpu", 1024); },
              "unknown target 'tpu' (host, sm_<N> or gfx<N>)");
}

// Resource use read back from the code object, as Triton's tools report it.
TEST(Runtime, KernelInfoFromCodeObject) {
  auto online = Kernel("softmax_online", seeds::softmax_online);
  KernelInfo gfx942 = online.info("gfx942", 256);
  EXPECT_EQ(gfx942.target, "gfx942");
  EXPECT_GT(gfx942.registers, 0);
  EXPECT_LE(gfx942.registers, 32);
  EXPECT_GT(gfx942.scalar_registers, 0);
  // Two reductions in the loop, each with its own slots: 4 waves x 8 bytes.
  EXPECT_EQ(gfx942.shared_bytes, 64);
  EXPECT_EQ(gfx942.scratch_bytes, 0);
  EXPECT_EQ(gfx942.spills, 0);
  EXPECT_EQ(gfx942.wave_size, 64);
  EXPECT_EQ(gfx942.max_threads, 256);
  KernelInfo gfx1100 = online.info("gfx1100", 256);
  EXPECT_EQ(gfx1100.wave_size, 32);
  EXPECT_EQ(gfx1100.max_threads, 128);
  EXPECT_NE(to_string(gfx942).find("gfx942: "), std::string::npos);
  KernelInfo host = online.info("cpu", 256);
  EXPECT_EQ(host.target, "host");
  // For one Device object: the code its launches would run.
  KernelInfo onDevice = online.info(Device::get("cpu"), 256,
                                    Options{.num_warps = 2});
  EXPECT_EQ(onDevice.target, "host");
  EXPECT_EQ(onDevice.max_threads, 1);
}

// The launch path's own context and pipeline, for both GPU families (what
// a GPU device compiles, checked without one).
TEST(Runtime, EmitForGpus) {
  auto add = addKernel();
  std::string ptx = add.emit("asm", "sm_90", 1024);
  EXPECT_NE(ptx.find(".visible .entry add("), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("ld.global"), std::string::npos);
  auto online = Kernel("softmax_online", seeds::softmax_online);
  std::string ptx2 = online.emit("asm", "sm_90", 256);
  EXPECT_NE(ptx2.find("shfl.sync.bfly"), std::string::npos);
  EXPECT_NE(ptx2.find("ex2.approx"), std::string::npos);
  std::string gcn = online.emit("asm", "gfx942", 256);
  EXPECT_NE(gcn.find("v_exp_f32"), std::string::npos);
  std::string hsaco = online.emit("bin", "gfx1100", 256);
  EXPECT_EQ(hsaco.substr(0, 4), "\x7f" "ELF");
}

} // namespace
