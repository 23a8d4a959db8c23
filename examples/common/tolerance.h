//===- tolerance.h - an example's check of one output against float64 -*- C++ -*-===//
//
// Counts the elements of one output that miss their float64 reference: each
// must be within tol * scale of it (scale: the magnitudes that went into the
// element), NaN where the reference is NaN, and -- when `infinities` is set
// -- the same infinity where the reference is infinite (else an infinite
// reference is a miss). Prints the first few misses and the worst error.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_EXAMPLES_COMMON_TOLERANCE_H
#define KTC_EXAMPLES_COMMON_TOLERANCE_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace example {

struct Counter {
  const char *what;
  bool infinities = false;
  int bad = 0;
  double worst = 0;
  void operator()(int64_t i, double got, double want, double scale,
                  double tol) {
    bool ok;
    if (std::isnan(want)) {
      ok = std::isnan(got);
    } else if (infinities && std::isinf(want)) {
      ok = got == want;
    } else {
      double err = std::fabs(got - want) / (tol * scale + 1e-300);
      ok = std::isfinite(got) && err <= 1;
      if (std::isfinite(err))
        worst = std::max(worst, err);
    }
    if (!ok && bad++ < 5)
      std::printf("%s[%lld]: %.9g, want %.9g\n", what, (long long)i, got,
                  want);
  }
  int done() {
    std::printf("%s: worst error %.3g of its bound%s\n", what, worst,
                bad ? ", FAILED" : "");
    return bad;
  }
};

} // namespace example

#endif // KTC_EXAMPLES_COMMON_TOLERANCE_H
