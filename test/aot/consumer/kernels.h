// The kernels of test/aot, written once with ktc's C++ API: the JIT program
// (jit_main.cpp) launches them, the export list (exports.cpp) compiles them
// ahead of time for aot_main.cpp.
#pragma once

#include "ktc/ktc.h"

#include <cmath>

namespace kernels {

using namespace ktc;

// [vector_add]
inline const auto vector_add = Kernel(
    "vector_add", {"x", "y", "out", "n", "BLOCK"},
    [](Ptr<float> x, Ptr<float> y, Ptr<float> out, Int n, int BLOCK) {
      auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
      auto mask = offs < n;
      store(out + offs, load(x + offs, mask) + load(y + offs, mask), mask);
    });
// [end vector_add]

/// One row per program, the online algorithm: the running max and sum
/// together, then the output.
inline const auto softmax = Kernel(
    "softmax", {"in", "out", "row_stride", "n_cols", "BLOCK"},
    [](Ptr<float> in, Ptr<float> out, Int row_stride, Int n_cols, int BLOCK) {
      auto row_in = in + program_id(0) * row_stride;
      auto row_out = out + program_id(0) * row_stride;
      Var m = -INFINITY;
      Var s = 0.0f;
      for_range(0, n_cols, BLOCK, [&](Value col) {
        auto offs = col + arange(0, BLOCK);
        auto mask = offs < n_cols;
        auto x = load(row_in + offs, mask, -INFINITY);
        auto m_new = maximum(m, max(x, 0));
        s = s * exp(m - m_new) + sum(where(mask, exp(x - m_new), 0.0f), 0);
        m = m_new;
      });
      for_range(0, n_cols, BLOCK, [&](Value col) {
        auto offs = col + arange(0, BLOCK);
        auto mask = offs < n_cols;
        store(row_out + offs, exp(load(row_in + offs, mask) - m) / s, mask);
      });
    });

} // namespace kernels
