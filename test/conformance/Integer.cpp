//===- Integer.cpp - i32 and i64 rows of the catalogue --------------------===//
//
// Two's complement arithmetic, wrapping; `/` and `%` truncating, with the
// results docs/builder.md#integer-division gives every operand: x / 0 ==
// -1, x % 0 == x, MIN / -1 == MIN, MIN % -1 == 0. Exact: every element must
// match the reference and the host.
//
//===----------------------------------------------------------------------===//

#include "Conformance.h"

namespace conformance {
namespace {

/// A binary T x T -> T kernel (masked-off lanes read 1).
#define IBINARY(NAME, T, EXPR)                                                 \
  Kernel(NAME, [](Ptr<T> x, Ptr<T> y, Ptr<T> out, Int n) {                    \
    KTC_OFFS;                                                                  \
    auto a = load(x + offs, mask, 1);                                          \
    auto b = load(y + offs, mask, 1);                                          \
    store(out + offs, (EXPR), mask);                                           \
  })

template <typename T> std::vector<T> inputs(uint32_t seed) {
  if constexpr (sizeof(T) == 4)
    return intInputs(seed);
  else
    return int64Inputs(seed);
}

template <typename T> using Ref = std::function<T(T, T)>;

/// An integer op on random pairs and on the pairs C++ leaves undefined.
template <typename T, typename K>
void intOp(Context &c, const std::string &id, const std::string &op,
           K &kernel, const Ref<T> &ref) {
  constexpr T MIN = std::numeric_limits<T>::min();
  constexpr T MAX = std::numeric_limits<T>::max();
  std::vector<T> x = inputs<T>(3), y = inputs<T>(4);
  std::reverse(y.begin(), y.end());
  std::vector<std::pair<T, T>> edges = {
      {MIN, -1}, {MIN, 0}, {5, 0},   {-5, 0},  {0, 0},  {MAX, -1},
      {MIN, 1},  {MIN, MIN}, {-1, MIN}, {7, -1}, {MAX, MAX}, {MIN, 2}};
  for (auto [a, b] : edges)
    x.insert(x.begin(), a), y.insert(y.begin(), b);
  size_t n = x.size();
  Row r = c.row(id, op, sizeof(T) == 4 ? "i32" : "i64", n);
  r.exact = true;
  c.entry({r}, kernel, [&] {
    auto [got, host] =
        runBoth<T>(c, n, T(0x5eed), [&](Device &d, Buffer<T> &out) {
          Buffer<T> bx(d, x), by(d, y);
          kernel.launch({int(cdiv(n, BLOCK))}, bx, by, out, int(n));
        });
    int shown = 0;
    for (size_t i = 0; i < n; ++i) {
      T want = ref(x[i], y[i]);
      if (got[i] != want)
        r.maxUlp = INFINITY;
      if (got[i] != want || hostDiffers(got, host, i))
        showElement(c, r, i, hex(x[i]) + " " + hex(y[i]), got[i], hex(want),
                    host, shown);
    }
    if (c.host)
      r.hostDiffs = bitDiffs(got, host);
    c.rows.push_back(r);
  });
}

template <typename T> T wrapAdd(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return T(U(a) + U(b));
}
template <typename T> T wrapSub(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return T(U(a) - U(b));
}
template <typename T> T wrapMul(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return T(U(a) * U(b));
}
template <typename T> T divide(T a, T b) {
  if (b == 0)
    return -1;
  if (a == std::numeric_limits<T>::min() && b == -1)
    return a;
  return a / b;
}
template <typename T> T remainder(T a, T b) {
  if (b == 0)
    return a;
  if (a == std::numeric_limits<T>::min() && b == -1)
    return 0;
  return a % b;
}
template <typename T> T bitwise(T a, T b) { return (a ^ b) & (a | b); }
template <typename T> T less(T a, T b) { return a < b; }
template <typename T> T equal(T a, T b) { return a == b; }

} // namespace

void integerRows(Context &c) {
  auto iadd = IBINARY("conf_iadd", int32_t, a + b);
  intOp<int32_t>(c, "conf_iadd", "a + b", iadd, wrapAdd<int32_t>);
  auto isub = IBINARY("conf_isub", int32_t, a - b);
  intOp<int32_t>(c, "conf_isub", "a - b", isub, wrapSub<int32_t>);
  auto imul = IBINARY("conf_imul", int32_t, a * b);
  intOp<int32_t>(c, "conf_imul", "a * b", imul, wrapMul<int32_t>);
  auto idiv = IBINARY("conf_idiv", int32_t, a / b);
  intOp<int32_t>(c, "conf_idiv", "a / b (incl. / 0, MIN / -1)", idiv,
                 divide<int32_t>);
  auto irem = IBINARY("conf_irem", int32_t, a % b);
  intOp<int32_t>(c, "conf_irem", "a % b (incl. % 0, MIN % -1)", irem,
                 remainder<int32_t>);
  auto ixor = IBINARY("conf_ixor", int32_t, (a ^ b) & (a | b));
  intOp<int32_t>(c, "conf_ixor", "bitwise: (a ^ b) & (a or b)", ixor,
                 bitwise<int32_t>);
  auto ilt = IBINARY("conf_iless", int32_t, where(a < b, 1, 0));
  intOp<int32_t>(c, "conf_iless", "a < b", ilt, less<int32_t>);
  auto ieq = IBINARY("conf_iequal", int32_t, where(a == b, 1, 0));
  intOp<int32_t>(c, "conf_iequal", "a == b", ieq, equal<int32_t>);

  auto ladd = IBINARY("conf_ladd", int64_t, a + b);
  intOp<int64_t>(c, "conf_ladd", "a + b", ladd, wrapAdd<int64_t>);
  auto lsub = IBINARY("conf_lsub", int64_t, a - b);
  intOp<int64_t>(c, "conf_lsub", "a - b", lsub, wrapSub<int64_t>);
  auto lmul = IBINARY("conf_lmul", int64_t, a * b);
  intOp<int64_t>(c, "conf_lmul", "a * b", lmul, wrapMul<int64_t>);
  auto ldiv = IBINARY("conf_ldiv", int64_t, a / b);
  intOp<int64_t>(c, "conf_ldiv", "a / b (incl. / 0, MIN / -1)", ldiv,
                 divide<int64_t>);
  auto lrem = IBINARY("conf_lrem", int64_t, a % b);
  intOp<int64_t>(c, "conf_lrem", "a % b (incl. % 0, MIN % -1)", lrem,
                 remainder<int64_t>);
  auto lxor = IBINARY("conf_lxor", int64_t, (a ^ b) & (a | b));
  intOp<int64_t>(c, "conf_lxor", "bitwise: (a ^ b) & (a or b)", lxor,
                 bitwise<int64_t>);
  auto llt = IBINARY("conf_lless", int64_t, where(a < b, 1, 0));
  intOp<int64_t>(c, "conf_lless", "a < b", llt, less<int64_t>);
  auto leq = IBINARY("conf_lequal", int64_t, where(a == b, 1, 0));
  intOp<int64_t>(c, "conf_lequal", "a == b", leq, equal<int64_t>);
}

} // namespace conformance
