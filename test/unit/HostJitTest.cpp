//===- HostJitTest.cpp - seed kernels run on the host CPU through ORC -----===//
//
// builder -> ktc dialect -> host pipeline -> LLVM -> ORC JIT, in process.
// Random inputs with odd sizes, outputs poisoned (NaN) before the run, a
// float64 reference.
//
//===----------------------------------------------------------------------===//

#include "examples/kernels/seeds.h"
#include "ktc/ktc.h"

#include "lib/Target/CPU/HostTarget.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

using namespace ktc;

namespace {

/// Compiles traced MLIR for the host.
host::HostKernel compileHost(const std::string &ir, const std::string &name) {
  static mlir::MLIRContext *context = [] {
    mlir::DialectRegistry registry;
    host::registerHostDialects(registry);
    auto *ctx = new mlir::MLIRContext(registry);
    ctx->loadAllAvailableDialects();
    return ctx;
  }();
  auto module = mlir::parseSourceString<mlir::ModuleOp>(ir, context);
  EXPECT_TRUE(module);
  auto kernel = host::HostKernel::compile(*module, name);
  if (!kernel) {
    ADD_FAILURE() << llvm::toString(kernel.takeError());
    std::abort();
  }
  return std::move(*kernel);
}

std::vector<float> randomVector(size_t n, unsigned seed, float lo = -4,
                                float hi = 4) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(gen);
  return v;
}

double maxRelError(const std::vector<float> &got,
                   const std::vector<double> &want) {
  double worst = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (!std::isfinite(got[i]))
      return INFINITY; // an unwritten (poisoned) or broken element
    double err = std::fabs(got[i] - want[i]) / std::max(std::fabs(want[i]), 1e-30);
    worst = std::max(worst, err);
  }
  return worst;
}

TEST(HostJit, VectorAdd) {
  constexpr int BLOCK = 1024;
  host::HostKernel kernel =
      compileHost(Kernel("add", seeds::vector_add).mlir(BLOCK), "add");
  for (int32_t n : {1, 7, 98432, 1 << 20}) {
    SCOPED_TRACE(n);
    auto x = randomVector(n, 1), y = randomVector(n, 2);
    std::vector<float> out(n + 16, NAN); // poisoned, with a guard tail
    std::vector<double> want(n);
    for (int i = 0; i < n; ++i)
      want[i] = double(x[i]) + double(y[i]);
    int64_t px = reinterpret_cast<int64_t>(x.data()),
            py = reinterpret_cast<int64_t>(y.data()),
            po = reinterpret_cast<int64_t>(out.data());
    void *args[] = {&px, &py, &po, &n};
    kernel.run(args, 4, {int32_t(cdiv(n, BLOCK)), 1, 1});
    std::vector<float> got(out.begin(), out.begin() + n);
    EXPECT_LE(maxRelError(got, want), 1e-7);
    for (int i = n; i < n + 16; ++i) // nothing written past the end
      EXPECT_TRUE(std::isnan(out[i])) << i;
  }
}

std::vector<double> softmaxReference(const std::vector<float> &in, int rows,
                                     int cols) {
  std::vector<double> out(in.size());
  for (int r = 0; r < rows; ++r) {
    double m = -INFINITY, s = 0;
    for (int c = 0; c < cols; ++c)
      m = std::max(m, double(in[size_t(r) * cols + c]));
    for (int c = 0; c < cols; ++c)
      s += std::exp(double(in[size_t(r) * cols + c]) - m);
    for (int c = 0; c < cols; ++c)
      out[size_t(r) * cols + c] = std::exp(double(in[size_t(r) * cols + c]) - m) / s;
  }
  return out;
}

/// Runs a one-row-per-program softmax (naive or online) on odd shapes.
template <typename F>
void checkRowSoftmax(const char *name, F kernelFn) {
  host::HostKernel kernel =
      compileHost(Kernel(name, kernelFn).mlir(256), name);
  for (auto [rows, cols] : {std::pair{3, 5}, {1823, 781}, {2, 100000}}) {
    SCOPED_TRACE(std::string(name) + " " + std::to_string(rows) + "x" +
                 std::to_string(cols));
    auto in = randomVector(size_t(rows) * cols, rows + cols);
    std::vector<float> out(in.size(), NAN);
    int64_t pi = reinterpret_cast<int64_t>(in.data()),
            po = reinterpret_cast<int64_t>(out.data());
    int32_t stride = cols, n = cols;
    void *args[] = {&pi, &po, &stride, &n};
    kernel.run(args, 4, {rows, 1, 1});
    EXPECT_LE(maxRelError(out, softmaxReference(in, rows, cols)), 1e-5);
  }
}

TEST(HostJit, NaiveSoftmax) {
  checkRowSoftmax("softmax_naive", seeds::softmax_naive);
}

TEST(HostJit, OnlineSoftmax) {
  checkRowSoftmax("softmax_online", seeds::softmax_online);
}

TEST(HostJit, FusedSoftmaxPersistent) {
  // Up to the widest row the fused kernel takes (BLOCK = 16384).
  for (auto [rows, cols] :
       {std::pair{3, 5}, {1823, 781}, {64, 2048}, {1, 16384}, {5, 12800}}) {
    SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols));
    host::HostKernel kernel = compileHost(
        Kernel("softmax_fused", seeds::softmax_fused).mlir(int(next_pow2(cols))),
        "softmax_fused");
    auto in = randomVector(size_t(rows) * cols, rows * 7 + cols);
    std::vector<float> out(in.size(), NAN);
    int64_t pi = reinterpret_cast<int64_t>(in.data()),
            po = reinterpret_cast<int64_t>(out.data());
    int32_t stride = cols, n_rows = rows, n_cols = cols;
    void *args[] = {&po, &pi, &stride, &stride, &n_rows, &n_cols};
    // Fewer programs than rows: each strides by num_programs.
    kernel.run(args, 6, {std::min(rows, 7), 1, 1});
    EXPECT_LE(maxRelError(out, softmaxReference(in, rows, cols)), 1e-5);
  }
}

} // namespace
