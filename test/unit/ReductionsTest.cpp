//===- ReductionsTest.cpp - argmax/argmin, xor_sum, reduce, all axes -------===//
//
// The public API only, on Device("cpu") (or KTC_SHAPES_DEVICE's device, as
// HostShapeTest and DotTest): 1-D, 2-D and 3-D blocks at odd sizes with
// masks, each reduction along every axis and along all of them, with and
// without keep_dims, checked exactly against references computed over the
// same padded blocks (masked-off elements are the value each reduction is
// given there). Rows hold ties, NaNs, all-NaN, -inf and all-equal values.
// ReductionTypesTest.cpp has the other element types, several blocks
// reduced together, keep_dims' shapes and the errors.
// Outputs are poisoned first and the poison past them is checked. The
// kernels are also compiled for sm_90 and gfx942 here (CompileForGpus).
//
//===----------------------------------------------------------------------===//

#include "ktc/ktc.h"
#include "TestDevice.h"

#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <cstring>
#include <random>

using namespace ktc;

namespace {

using test::testDevice;

template <typename T> constexpr T low() {
  if constexpr (std::is_same_v<T, float>)
    return -INFINITY;
  else
    return INT32_MIN;
}
template <typename T> constexpr T high() {
  if constexpr (std::is_same_v<T, float>)
    return INFINITY;
  else
    return INT32_MAX;
}

/// Stores a result of any shape (a scalar, 1-D to 3-D) at out, row-major.
void storeAll(Value out, Value r) {
  std::vector<int64_t> s = r.shape();
  if (s.empty())
    return store(out, r);
  Value offs;
  for (size_t d = 0; d < s.size(); ++d) {
    Value a = arange(0, s[d]); // along dimension d of a rank-s.size() block
    for (size_t e = 0; e < s.size(); ++e)
      if (e != d)
        a = expand_dims(a, e < d ? 0 : int(e));
    offs = offs.valid() ? offs * int32_t(s[d]) + a : a;
  }
  store(out + offs, r);
}

/// The reductions one kernel computes, in order, and how many outputs.
enum Op { ArgMax, ArgMin, Max, Min, Custom, Xor, Sum, kOps };

/// Reduces the masked block x (elements where `mask` is false are given
/// each reduction's neutral value) along AXIS (-1: all), writing result k
/// at out + k * STRIDE (indices to outi, values to outv).
template <typename T>
void reduceAll(Value x, Value mask, Value outv, Value outi,
               int STRIDE, int AXIS, bool KEEP) {
  std::optional<int> axis;
  if (AXIS >= 0)
    axis = AXIS;
  Value lo = where(mask, x, low<T>()), hi = where(mask, x, high<T>());
  Value zero = where(mask, x, T(0));
  storeAll(outi + ArgMax * STRIDE, argmax(lo, axis, KEEP));
  storeAll(outi + ArgMin * STRIDE, argmin(hi, axis, KEEP));
  storeAll(outv + Max * STRIDE, max(lo, axis, KEEP));
  storeAll(outv + Min * STRIDE, min(hi, axis, KEEP));
  if constexpr (std::is_same_v<T, float>) {
    storeAll(outv + Custom * STRIDE,
             reduce(lo, axis, [](Value a, Value b) { return maximum(a, b); },
                    KEEP));
  } else {
    storeAll(outv + Custom * STRIDE,
             reduce(zero, axis, [](Value a, Value b) { return a + b; }, KEEP));
    storeAll(outv + Xor * STRIDE, xor_sum(zero, axis, KEEP));
    storeAll(outv + Sum * STRIDE, sum(zero, axis, KEEP));
  }
}

template <typename T>
void kernel1d(Ptr<T> x, Ptr<T> outv, Ptr<int32_t> outi, Int n, int B,
              int KEEP) {
  auto offs = arange(0, B);
  auto mask = offs < n;
  auto v = load(x + program_id(0) * n + offs, mask);
  // One result per op and program: op k of row r at r * kOps + k.
  reduceAll<T>(v, mask, outv + program_id(0) * int(kOps),
               outi + program_id(0) * int(kOps), 1, KEEP ? 0 : -1, KEEP);
}

template <typename T>
void kernel2d(Ptr<T> x, Ptr<T> outv, Ptr<int32_t> outi, Int R, Int C, int BR,
              int BC, int AXIS, int KEEP) {
  auto r = expand_dims(arange(0, BR), 1);
  auto c = expand_dims(arange(0, BC), 0);
  auto mask = (r < R) & (c < C);
  auto v = load(x + r * C + c, mask);
  reduceAll<T>(v, mask, outv, outi, BR * BC, AXIS, KEEP);
}

template <typename T>
void kernel3d(Ptr<T> x, Ptr<T> outv, Ptr<int32_t> outi, Int A, Int B, Int C,
              int BA, int BB, int BC, int AXIS, int KEEP) {
  auto a = expand_dims(expand_dims(arange(0, BA), 1), 2);
  auto b = expand_dims(expand_dims(arange(0, BB), 0), 2);
  auto c = expand_dims(expand_dims(arange(0, BC), 0), 0);
  auto mask = (a < A) & (b < B) & (c < C);
  auto v = load(x + (a * B + b) * C + c, mask);
  reduceAll<T>(v, mask, outv, outi, BA * BB * BC, AXIS, KEEP);
}

//===----------------------------------------------------------------------===//
// References over the padded block
//===----------------------------------------------------------------------===//

template <typename T> bool isNan(T v) {
  if constexpr (std::is_same_v<T, float>)
    return std::isnan(v);
  else
    return false;
}

/// argmax's (greater) or argmin's choice between (a, ia) and (b, ib).
template <typename T> bool firstWins(bool greater, T a, int ia, T b, int ib) {
  if (isNan(a) || isNan(b))
    return isNan(a) && (!isNan(b) || ia < ib);
  if (a == b)
    return ia < ib;
  return greater ? a > b : a < b;
}

template <typename T> struct Ref {
  std::vector<int32_t> idx[2];
  std::vector<T> val[kOps];
};

/// The references for a padded block of `dims` (row-major values `p`)
/// reduced along `axis` (-1: all), results row-major over the kept dims.
template <typename T>
Ref<T> reference(const std::vector<T> &lo, const std::vector<T> &hi,
                 const std::vector<T> &zero, std::vector<int> dims, int axis) {
  int total = 1;
  for (int d : dims)
    total *= d;
  auto outIndex = [&](int flat) {
    if (axis < 0)
      return 0;
    int o = 0;
    for (int d = 0, rem = flat, stride = total; d < int(dims.size()); ++d) {
      stride /= dims[d];
      int i = rem / stride;
      rem %= stride;
      if (d != axis)
        o = o * dims[d] + i;
    }
    return o;
  };
  auto along = [&](int flat) {
    if (axis < 0)
      return flat;
    int stride = 1;
    for (int d = dims.size() - 1; d > axis; --d)
      stride *= dims[d];
    return flat / stride % dims[axis];
  };
  int outs = axis < 0 ? 1 : total / dims[axis];
  Ref<T> r;
  std::vector<bool> seen(outs);
  for (auto &v : r.idx)
    v.assign(outs, 0);
  for (auto &v : r.val)
    v.assign(outs, T(0));
  std::vector<T> bestHi(outs), bestLo(outs);
  for (int f = 0; f < total; ++f) {
    int o = outIndex(f), k = along(f);
    if (!seen[o]) {
      seen[o] = true;
      bestLo[o] = lo[f], bestHi[o] = hi[f];
      r.idx[0][o] = r.idx[1][o] = k;
      r.val[Max][o] = lo[f], r.val[Min][o] = hi[f], r.val[Custom][o] = lo[f];
      if constexpr (!std::is_same_v<T, float>)
        r.val[Custom][o] = r.val[Xor][o] = r.val[Sum][o] = zero[f];
      continue;
    }
    if (firstWins(true, lo[f], k, bestLo[o], r.idx[0][o]))
      bestLo[o] = lo[f], r.idx[0][o] = k;
    if (firstWins(false, hi[f], k, bestHi[o], r.idx[1][o]))
      bestHi[o] = hi[f], r.idx[1][o] = k;
    if constexpr (std::is_same_v<T, float>) {
      r.val[Max][o] = std::fmax(r.val[Max][o], lo[f]);
      r.val[Min][o] = std::fmin(r.val[Min][o], hi[f]);
      r.val[Custom][o] = std::fmax(r.val[Custom][o], lo[f]);
    } else {
      r.val[Max][o] = std::max(r.val[Max][o], lo[f]);
      r.val[Min][o] = std::min(r.val[Min][o], hi[f]);
      auto wrap = [](T a, T b) { return T(uint32_t(a) + uint32_t(b)); };
      r.val[Custom][o] = wrap(r.val[Custom][o], zero[f]);
      r.val[Sum][o] = wrap(r.val[Sum][o], zero[f]);
      r.val[Xor][o] ^= zero[f];
    }
  }
  return r;
}

/// Random values with ties; some rows (of the last dimension) special:
/// all equal, all -inf (INT_MIN), one NaN, all NaN, repeated extremes.
template <typename T>
std::vector<T> data(size_t n, int row, std::mt19937_64 &gen) {
  constexpr bool isFloat = std::is_same_v<T, float>;
  T nan = high<T>(), other = T(-7);
  if constexpr (isFloat)
    nan = other = NAN;
  std::vector<T> v(n);
  for (T &x : v)
    x = T(int(gen() % 11) - 5) * (isFloat ? T(0.75) : T(1));
  for (size_t i = 0; i < n; ++i) {
    int kind = int(i / row) % 6;
    if (kind == 1)
      v[i] = T(3);
    else if (kind == 2)
      v[i] = low<T>();
    else if (kind == 3 && gen() % 5 == 0)
      v[i] = nan;
    else if (kind == 4)
      v[i] = other;
    else if (kind == 5 && gen() % 3 == 0)
      v[i] = gen() % 2 ? high<T>() : low<T>();
  }
  return v;
}

template <typename T> bool same(T a, T b) {
  if constexpr (std::is_same_v<T, float>)
    return (std::isnan(a) && std::isnan(b)) || a == b;
  else
    return a == b;
}

/// Runs `launch` on poisoned outputs of `outs` results per op and checks
/// them against `ref`.
template <typename T, typename L>
void check(const Ref<T> &ref, int outs, int stride, L launch) {
  const T poisonV = std::is_same_v<T, float> ? T(-1234.5) : T(-123456789);
  const int32_t poisonI = -987654321;
  size_t size = size_t(kOps) * stride;
  Buffer<T> outv(testDevice(), std::vector<T>(size + 16, poisonV));
  Buffer<int32_t> outi(testDevice(), std::vector<int32_t>(size + 16, poisonI));
  launch(outv, outi);
  std::vector<T> gv = outv.to_host();
  std::vector<int32_t> gi = outi.to_host();
  for (int o = 0; o < outs; ++o) {
    ASSERT_EQ(gi[ArgMax * stride + o], ref.idx[0][o]) << "argmax at " << o;
    ASSERT_EQ(gi[ArgMin * stride + o], ref.idx[1][o]) << "argmin at " << o;
    for (int k : {Max, Min, Custom, Xor, Sum}) {
      if (std::is_same_v<T, float> && (k == Xor || k == Sum))
        continue;
      ASSERT_TRUE(same(gv[k * stride + o], ref.val[k][o]))
          << "op " << k << " at " << o << ": " << gv[k * stride + o]
          << " for " << ref.val[k][o];
    }
  }
  for (size_t e = size; e < gv.size(); ++e) {
    ASSERT_TRUE(same(gv[e], poisonV)) << "written past the end at " << e;
    ASSERT_EQ(gi[e], poisonI) << "written past the end at " << e;
  }
}

/// The padded block of `dims` holding x (of `real` dims) and the three
/// paddings.
template <typename T>
void pad(const std::vector<T> &x, std::vector<int> real, std::vector<int> dims,
         std::vector<T> &lo, std::vector<T> &hi, std::vector<T> &zero) {
  int total = 1;
  for (int d : dims)
    total *= d;
  lo.assign(total, low<T>()), hi.assign(total, high<T>()),
      zero.assign(total, T(0));
  for (int f = 0; f < total; ++f) {
    int rem = f, stride = total, src = 0;
    bool inside = true;
    for (size_t d = 0; d < dims.size(); ++d) {
      stride /= dims[d];
      int i = rem / stride;
      rem %= stride;
      inside &= i < real[d];
      src = src * real[d] + i;
    }
    if (inside)
      lo[f] = hi[f] = zero[f] = x[src];
  }
}

template <typename T> void check2d(int R, int C, int BR, int BC, int keep) {
  std::mt19937_64 gen(R * 131 + C);
  std::vector<T> hx = data<T>(size_t(R) * C, C, gen);
  std::vector<T> lo, hi, zero;
  pad(hx, {R, C}, {BR, BC}, lo, hi, zero);
  Buffer<T> x(testDevice(), hx);
  static auto k = Kernel("reductions_2d", kernel2d<T>);
  for (int axis : {0, 1, -1}) {
    SCOPED_TRACE(std::to_string(R) + "x" + std::to_string(C) + " in " +
                 std::to_string(BR) + "x" + std::to_string(BC) + " axis " +
                 std::to_string(axis) + (keep ? " keep_dims" : ""));
    Ref<T> ref = reference(lo, hi, zero, {BR, BC}, axis);
    int outs = axis < 0 ? 1 : axis == 0 ? BC : BR;
    check(ref, outs, BR * BC, [&](Buffer<T> &ov, Buffer<int32_t> &oi) {
      k.launch({1}, x, ov, oi, R, C, BR, BC, axis, keep);
    });
  }
}

TEST(Reductions, Rows1D) {
  // Rows of n in a block of B, one program a row.
  for (auto nb : std::vector<std::pair<int, int>>{
           {1000, 1024}, {1, 1}, {17, 32}, {64, 64}}) {
    int n = nb.first, B = nb.second;
    // keep_dims (axis 0 of the 1-D block) at one size.
    for (int keep : n == 17 ? std::vector<int>{0, 1} : std::vector<int>{0}) {
      SCOPED_TRACE(std::to_string(n) + " in " + std::to_string(B) +
                   (keep ? " keep_dims" : ""));
      int rows = 6;
      std::mt19937_64 gen(n + B);
      std::vector<float> hf = data<float>(size_t(rows) * n, n, gen);
      std::vector<int32_t> hi = data<int32_t>(size_t(rows) * n, n, gen);
      auto run = [&](auto hx) {
        using T = typename decltype(hx)::value_type;
        Buffer<T> x(testDevice(), hx);
        const T poisonV = std::is_same_v<T, float> ? T(-1234.5) : T(-1234567);
        Buffer<T> ov(testDevice(), std::vector<T>(rows * kOps + 16, poisonV));
        Buffer<int32_t> oi(testDevice(),
                           std::vector<int32_t>(rows * kOps + 16, -7654321));
        static auto k = Kernel("reductions_1d", kernel1d<T>);
        k.launch({unsigned(rows)}, x, ov, oi, n, B, keep);
        std::vector<T> gv = ov.to_host();
        std::vector<int32_t> gi = oi.to_host();
        for (int r = 0; r < rows; ++r) {
          std::vector<T> row(hx.begin() + size_t(r) * n,
                             hx.begin() + size_t(r + 1) * n);
          std::vector<T> lo, h, zero;
          pad(row, {n}, {B}, lo, h, zero);
          Ref<T> ref = reference(lo, h, zero, {B}, -1);
          ASSERT_EQ(gi[r * kOps + ArgMax], ref.idx[0][0]) << "argmax row " << r;
          ASSERT_EQ(gi[r * kOps + ArgMin], ref.idx[1][0]) << "argmin row " << r;
          for (int op : {Max, Min, Custom, Xor, Sum}) {
            if (std::is_same_v<T, float> && (op == Xor || op == Sum))
              continue;
            ASSERT_TRUE(same(gv[r * kOps + op], ref.val[op][0]))
                << "op " << op << " row " << r << ": " << gv[r * kOps + op]
                << " for " << ref.val[op][0];
          }
        }
        for (int e = rows * kOps; e < rows * kOps + 16; ++e) {
          ASSERT_TRUE(same(gv[e], poisonV)) << "past the end at " << e;
          ASSERT_EQ(gi[e], -7654321) << "past the end at " << e;
        }
      };
      run(hf);
      run(hi);
    }
  }
}

TEST(Reductions, Blocks2D) {
  for (auto [R, C, BR, BC] : std::vector<std::tuple<int, int, int, int>>{
           {1, 1, 1, 1}, {17, 33, 32, 64}, {5, 100, 8, 128}}) {
    check2d<float>(R, C, BR, BC, 0);
    check2d<int32_t>(R, C, BR, BC, 0);
  }
  check2d<int32_t>(3, 9, 4, 16, 1);
}

TEST(Reductions, Blocks3D) {
  for (std::vector<int> s : std::vector<std::vector<int>>{
           {3, 5, 7, 4, 8, 8}, {2, 2, 33, 2, 2, 64}}) {
    int A = s[0], B = s[1], C = s[2], BA = s[3], BB = s[4], BC = s[5];
    int keep = BA == 2; // keep_dims for the second shape
    {
      std::mt19937_64 gen(A * B * C + keep);
      std::vector<int32_t> hx = data<int32_t>(size_t(A) * B * C, C, gen);
      std::vector<int32_t> lo, hi, zero;
      pad(hx, {A, B, C}, {BA, BB, BC}, lo, hi, zero);
      Buffer<int32_t> x(testDevice(), hx);
      static auto k = Kernel("reductions_3d", kernel3d<int32_t>);
      for (int axis : {0, 1, 2, -1}) {
        SCOPED_TRACE(std::to_string(A) + "x" + std::to_string(B) + "x" +
                     std::to_string(C) + " axis " + std::to_string(axis));
        Ref<int32_t> ref = reference(lo, hi, zero, {BA, BB, BC}, axis);
        int total = BA * BB * BC;
        int outs = axis < 0 ? 1 : total / std::vector<int>{BA, BB, BC}[axis];
        check(ref, outs, total,
              [&](Buffer<int32_t> &ov, Buffer<int32_t> &oi) {
                k.launch({1}, x, ov, oi, A, B, C, BA, BB, BC, axis, keep);
              });
      }
    }
  }
}

TEST(Reductions, CompileForGpus) {
  // The kernels above through the GPU lowering, offline (KTC_SHAPES_DEVICE
  // runs them on a GPU): PTX for sm_90, an HSACO's ISA for gfx942.
  auto k2 = Kernel("reductions_2d_gpu", kernel2d<float>);
  auto k1 = Kernel("reductions_1d_gpu", kernel1d<int32_t>);
  for (const char *target : {"sm_90", "gfx942"}) {
    for (int axis : {0, 1, -1})
      EXPECT_FALSE(k2.emit("asm", target, 32, 64, axis, 0).empty());
    EXPECT_FALSE(k1.emit("asm", target, 1024, 1).empty());
  }
  auto k3 = Kernel("reductions_3d_gpu", kernel3d<int32_t>);
  for (const char *target : {"sm_90", "gfx942"})
    for (int axis : {0, 2, -1})
      EXPECT_FALSE(k3.emit("asm", target, 4, 8, 8, axis, 0).empty());
}

} // namespace
