//===- HostJitTest.cpp - seed kernels run on the CPU device, end to end ---===//
//
// The public API only: builder -> ktc dialect -> host pipeline -> LLVM ->
// ORC JIT -> Device("cpu").launch. Random inputs with odd sizes, outputs
// poisoned (NaN) before the run, a float64 reference.
//
//===----------------------------------------------------------------------===//

#include "examples/common/example.h"
#include "examples/kernels/seeds.h"
#include "ktc/ktc.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace ktc;

namespace {

Device &cpu() { return Device::get("cpu"); }

using example::randomVector;
using example::softmaxReference;

/// Largest relative error; infinite if an element is not finite (e.g. left
/// poisoned).
double maxRelError(const std::vector<float> &got,
                   const std::vector<double> &want) {
  return example::check(got, want, 0).worst;
}

TEST(HostJit, VectorAdd) {
  auto add = Kernel("add", {"x", "y", "out", "n", "BLOCK"}, seeds::vector_add);
  constexpr int BLOCK = 1024;
  for (int32_t n : {1, 7, 98432, 1 << 20}) {
    SCOPED_TRACE(n);
    auto hx = randomVector(n, 1), hy = randomVector(n, 2);
    Buffer<float> x(cpu(), hx), y(cpu(), hy);
    Buffer<float> out(cpu(), std::vector<float>(n + 16, NAN)); // guard tail
    add.launch({cdiv(n, BLOCK)}, x, y, out, n, BLOCK);
    std::vector<float> result = out.to_host();
    std::vector<double> want(n);
    for (int i = 0; i < n; ++i)
      want[i] = double(hx[i]) + double(hy[i]);
    EXPECT_LE(maxRelError({result.begin(), result.begin() + n}, want), 1e-7);
    for (int i = n; i < n + 16; ++i) // nothing written past the end
      EXPECT_TRUE(std::isnan(result[i])) << i;
  }
  // Three specialisations: n == 1, n = 7 (not divisible by 16), and
  // n = 98432, 2^20 (divisible by 16, one compile for both).
  EXPECT_EQ(add.num_compiled(), 3u);
  Buffer<float> one(cpu(), std::vector<float>{1.0f});
  add.launch({1}, one, one, one, 1, 256); // a new BLOCK
  EXPECT_EQ(add.num_compiled(), 4u);
  EXPECT_EQ(one.to_host()[0], 2.0f);
}

/// A one-row-per-program softmax (naive or online) on odd shapes, with
/// `stages` pipeline stages (ktc-pipeline-loads runs on the host too).
template <typename F>
void checkRowSoftmax(const char *name, F kernelFn, int stages = 1) {
  auto kernel = Kernel(name, kernelFn);
  for (auto [rows, cols] : {std::pair{3, 5}, {1823, 781}, {2, 100000}}) {
    SCOPED_TRACE(std::string(name) + " " + std::to_string(rows) + "x" +
                 std::to_string(cols) + ", " + std::to_string(stages) +
                 " stages");
    auto hin = randomVector(size_t(rows) * cols, rows + cols);
    Buffer<float> in(cpu(), hin);
    Buffer<float> out(cpu(), std::vector<float>(hin.size(), NAN));
    kernel.launch({rows}, in, out, cols, cols, 256,
                  Options{.num_stages = stages});
    EXPECT_LE(maxRelError(out.to_host(), softmaxReference(hin, rows, cols)),
              1e-5);
  }
}

TEST(HostJit, PipelinedLoops) {
  // Loads issued 1 and 2 iterations ahead: trip counts below, at and above
  // the depth (5 columns is one chunk of 256), nothing read out of range.
  for (int stages : {2, 3}) {
    checkRowSoftmax("softmax_naive", seeds::softmax_naive, stages);
    checkRowSoftmax("softmax_online", seeds::softmax_online, stages);
  }
  auto fused = Kernel("softmax_fused", seeds::softmax_fused);
  for (int stages : {2, 3, 8})
    for (auto [rows, cols, programs] :
         {std::tuple{1, 5, 1}, {3, 781, 7}, {1823, 781, 7}, {10, 2048, 3}}) {
      SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols) + ", " +
                   std::to_string(programs) + " programs, " +
                   std::to_string(stages) + " stages");
      auto hin = randomVector(size_t(rows) * cols, rows * 5 + cols);
      Buffer<float> in(cpu(), hin);
      Buffer<float> out(cpu(), std::vector<float>(hin.size(), NAN));
      fused.launch({programs}, out, in, cols, cols, rows, cols,
                   int(next_pow2(cols)), Options{.num_stages = stages});
      EXPECT_LE(maxRelError(out.to_host(), softmaxReference(hin, rows, cols)),
                1e-5);
    }
}

TEST(HostJit, NaiveSoftmax) {
  checkRowSoftmax("softmax_naive", seeds::softmax_naive);
}

TEST(HostJit, OnlineSoftmax) {
  checkRowSoftmax("softmax_online", seeds::softmax_online);
}

TEST(HostJit, FusedSoftmaxPersistent) {
  auto kernel = Kernel("softmax_fused", seeds::softmax_fused);
  // Up to the widest row the fused kernel takes (BLOCK = 16384).
  for (auto [rows, cols] :
       {std::pair{3, 5}, {1823, 781}, {64, 2048}, {1, 16384}, {5, 12800}}) {
    SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols));
    auto hin = randomVector(size_t(rows) * cols, rows * 7 + cols);
    Buffer<float> in(cpu(), hin);
    Buffer<float> out(cpu(), std::vector<float>(hin.size(), NAN));
    // Fewer programs than rows: each strides by num_programs.
    kernel.launch({std::min(rows, 7)}, out, in, cols, cols, rows, cols,
                  int(next_pow2(cols)));
    EXPECT_LE(maxRelError(out.to_host(), softmaxReference(hin, rows, cols)),
              1e-5);
  }
}

TEST(HostJit, HalfPrecisionArguments) {
  // A bf16 buffer, an f16 scalar argument, math in f32, a bf16 result.
  auto scale = Kernel("scale", [](Ptr<bfloat16> p, Scalar<half> k, Int n) {
    auto offs = arange(0, 64);
    auto mask = offs < n;
    auto x = load(p + offs, mask).to(DType::f32);
    store(p + offs, x * k.to(DType::f32), mask);
  });
  auto toBf16 = [](float f) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return bfloat16{uint16_t(bits >> 16)}; // exact for these values
  };
  std::vector<bfloat16> host;
  for (int i = 0; i < 50; ++i)
    host.push_back(toBf16(float(i)));
  Buffer<bfloat16> p(cpu(), host);
  scale.launch({1}, p, 0.5, 50);
  std::vector<bfloat16> got = p.to_host();
  for (int i = 0; i < 50; ++i) {
    uint32_t bits = uint32_t(got[i].bits) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    EXPECT_EQ(f, i * 0.5f) << i;
  }
}

} // namespace
