// The JIT fallback of test/aot: the kernels of exports.cpp compiled ahead
// of time for an NVIDIA GPU only (ktc_add_kernels(gpu_only_kernels ...
// TARGETS sm_90 JIT_FALLBACK)), launched on the CPU (KTC_DEVICE=cpu), where
// they have no code object: ktc's JIT, linked through the library, compiles
// them from the export list. Checked against float64, outputs poisoned.

#include "check.h"

#include "gpu_only_kernels.h"

int main() {
  bool ok = true;
  const int n = 70001, BLOCK = 1024;
  std::vector<float> x = check::random(n, 4, -4, 4);
  std::vector<float> y = check::random(n, 5, -4, 4);
  std::vector<float> out(n + 3);
  check::poison(out);
  gpu_only_kernels::vector_add_1024({(n + BLOCK - 1) / BLOCK}, x.data(),
                                    y.data(), out.data(), n);
  ok &= check::close("fallback vector_add n=70001", out,
                     check::vectorAddRef(x, y), 1e-6, 1e-6);
  bool tail = std::isnan(out[n]) && std::isnan(out[n + 2]);
  std::printf("%s fallback vector_add leaves out[n..] alone\n",
              tail ? "PASS" : "FAIL");
  ok &= tail;

  const int rows = 23, cols = 777, stride = 781;
  std::vector<float> in = check::random(size_t(rows) * stride, 6, -8, 8);
  std::vector<float> sm(in.size());
  check::poison(sm);
  gpu_only_kernels::softmax_256({rows}, in.data(), sm.data(), stride, cols);
  std::vector<double> ref = check::softmaxRef(in, rows, cols, stride);
  std::vector<float> got;
  std::vector<double> want;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      got.push_back(sm[size_t(i) * stride + j]);
      want.push_back(ref[size_t(i) * stride + j]);
    }
  ok &= check::close("fallback softmax 23x777 (stride 781)", got, want, 1e-7,
                     1e-5);

  // The AOT checks still come first: a misaligned pointer is refused.
  try {
    gpu_only_kernels::vector_add_1024({1}, x.data() + 1, y.data(), out.data(),
                                      5);
    std::printf("FAIL a misaligned pointer was launched\n");
    ok = false;
  } catch (const ktc::aot::Error &e) {
    std::printf("PASS misaligned pointer: %s\n", e.what());
  }
  std::printf("device: %s (%s); the kernels were compiled for sm_90 only\n",
              ktc::aot::device().name.c_str(),
              ktc::aot::device().target.c_str());
  std::printf("%s fallback\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
