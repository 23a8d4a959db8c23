// The JIT program of test/aot: the same kernels (kernels.h) and checks as
// aot_main.cpp, launched through ktc::Kernel, compiled on first launch (or
// loaded from ktc's disk cache). For the size and first-launch comparison
// in docs/bench/aot.md.

#include "check.h"
#include "kernels.h"

int main() {
  auto start = check::Clock::now();
  const int n = 98431, BLOCK = 1024;
  std::vector<float> x = check::random(n, 1, -4, 4);
  std::vector<float> y = check::random(n, 2, -4, 4);
  ktc::Device &dev = ktc::Device::get();
  ktc::Buffer<float> bx(dev, x), by(dev, y),
      bout(dev, std::vector<float>(n, NAN));
  kernels::vector_add.launch({ktc::cdiv(n, BLOCK)}, bx, by, bout, n, BLOCK);
  std::vector<float> out = bout.to_host();
  double firstMs = check::msSince(start);
  double execMs = check::msSinceExec(); // exec to the first launch's return
  bool ok = check::close("jit vector_add n=98431", out,
                         check::vectorAddRef(x, y), 1e-6, 1e-6);

  const int rows = 37, cols = 1000, stride = 1003;
  std::vector<float> in = check::random(size_t(rows) * stride, 3, -8, 8);
  ktc::Buffer<float> bin(dev, in), bsm(dev, std::vector<float>(in.size(), NAN));
  kernels::softmax.launch({rows}, bin, bsm, stride, cols, 256);
  std::vector<float> sm = bsm.to_host();
  std::vector<double> ref = check::softmaxRef(in, rows, cols, stride);
  std::vector<float> got;
  std::vector<double> want;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      got.push_back(sm[size_t(i) * stride + j]);
      want.push_back(ref[size_t(i) * stride + j]);
    }
  ok &= check::close("jit softmax 37x1000 (stride 1003)", got, want, 1e-7,
                     1e-5);
  std::printf("device: %s\n", dev.name().c_str());
  std::printf("first launch: %.3f ms from main, %.3f ms from exec\n",
              firstMs, execMs);
  return ok ? 0 : 1;
}
