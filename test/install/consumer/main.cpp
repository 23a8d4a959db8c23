// out = alpha * x + y on an odd size, written with ktc's C++ API and run on
// the default device (KTC_DEVICE, else the best found); checked against
// float64 with the output poisoned first. The consumer of test/install, and
// the example in README.md.

#include "ktc/ktc.h"

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

using namespace ktc;

int main() {
  const int n = 98431, BLOCK = 1024, tail = 16; // the last program is masked
  const float alpha = 2.5f;
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  std::vector<float> hx(n), hy(n);
  for (int i = 0; i < n; ++i)
    hx[i] = dist(gen), hy[i] = dist(gen);

  // [readme]
  auto axpy = Kernel("axpy", [](Ptr<float> x, Ptr<float> y, Ptr<float> out,
                                Float alpha, Int n, int BLOCK) { // int: constexpr
    auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
    auto mask = offs < n;
    store(out + offs, alpha * load(x + offs, mask) + load(y + offs, mask),
          mask);
  });

  Device &dev = Device::get();          // KTC_DEVICE, else the best found
  Buffer<float> x(dev, hx), y(dev, hy); // copies of two std::vector<float>
  Buffer<float> out(dev, std::vector<float>(n + tail, NAN)); // poisoned
  axpy.launch({cdiv(n, BLOCK)}, x, y, out, alpha, n, BLOCK);
  std::vector<float> got = out.to_host();
  // [end readme]

  int bad = 0;
  for (int i = 0; i < n; ++i) {
    double want = double(alpha) * hx[i] + double(hy[i]);
    double scale = std::fabs(double(alpha) * hx[i]) + std::fabs(double(hy[i]));
    bad += !(std::fabs(got[i] - want) <= 1e-6 * scale); // NaN: never written
  }
  for (int i = n; i < n + tail; ++i)
    bad += !std::isnan(got[i]); // past the end: never written either
  std::printf("%s axpy n=%d on %s\n", bad ? "FAIL" : "PASS", n,
              dev.name().c_str());
  return bad ? 1 : 0;
}
