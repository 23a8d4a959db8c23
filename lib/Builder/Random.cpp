//===- Random.cpp - Philox rand, randn, randint, randint4x ---------------===//
//
// Triton's triton/language/random.py (3.6) written with the builder's own
// operations -- umulhi, wrapping i32 multiply and add, xor, a select, one
// sitofp and one multiply; log, sqrt, cos and sin for randn -- so every
// target lowers the same ops and gives the same bits. Each op carries the
// caller's file:line. ktc's integers are signed: uint32 values live in i32
// with the same bits (umulhi is the unsigned high half; the low half of a
// product and the sum wrap alike signed or not).
//
//===----------------------------------------------------------------------===//

#include "ktc/Random.h"

#include "Trace.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace ktc {

using detail::TraceImpl;
using detail::typeStr;

namespace {

// Philox 4x32's multipliers and Weyl key increments (Random123, Triton).
constexpr uint32_t kRoundA = 0xD2511F53u;
constexpr uint32_t kRoundB = 0xCD9E8D57u;
constexpr uint32_t kKeyA = 0x9E3779B9u;
constexpr uint32_t kKeyB = 0xBB67AE85u;
// Triton's uint_to_uniform_float scales: the largest such that
// (2^(bits-1) - 1) * scale rounds below 1 in f32.
constexpr double kScale32 = 4.6566127342e-10;
constexpr double kScale64 = 1.0842020432385337e-19;

int32_t bits(uint32_t u) { return static_cast<int32_t>(u); }

/// An i32 or i64 operand (a literal becomes i32, or i64 if it needs to).
Value integer(TraceImpl &t, const Operand &x, const std::string &what,
              const char *name, std::source_location loc) {
  mlir::Value v = t.resolve(x, {}, loc);
  Type e = getElementTypeOrSelf(v.getType());
  if (!e.isInteger(32) && !e.isInteger(64))
    t.fail(loc, what + " needs an i32 or i64 " + name + ", got " +
                    typeStr(v.getType()));
  return t.wrap(v);
}

void checkRounds(TraceImpl &t, int n_rounds, const std::string &what,
                 std::source_location loc) {
  if (n_rounds < 0)
    t.fail(loc, what + ": n_rounds must be >= 0, got " +
                    std::to_string(n_rounds));
}

/// The key: the seed's low and high 32 bits (an i32 seed sign-extended to
/// 64 bits first, as Triton's seed.to(tl.uint64) does).
std::array<Value, 2> splitSeed(TraceImpl &t, const Operand &seed,
                               const std::string &what,
                               std::source_location loc) {
  Value s = integer(t, seed, what, "seed", loc);
  if (s.dtype() == DType::i32)
    return {s, Operand(s, loc) >> Operand(31, loc)};
  return {cast(s, DType::i32, loc),
          cast(Operand(s, loc) >> Operand(32, loc), DType::i32, loc)};
}

std::array<Value, 4> rounds(std::array<Value, 2> key, std::array<Value, 4> c,
                            int n_rounds, std::source_location loc) {
  auto O = [&](const Value &v) { return Operand(v, loc); };
  auto K = [&](uint32_t u) { return Operand(bits(u), loc); };
  auto [k0, k1] = key;
  for (int r = 0; r < n_rounds; ++r) {
    Value hiB = umulhi(O(c[2]), K(kRoundB), loc);
    Value hiA = umulhi(O(c[0]), K(kRoundA), loc);
    Value loB = O(c[2]) * K(kRoundB);
    Value loA = O(c[0]) * K(kRoundA);
    c = {O(O(hiB) ^ O(c[1])) ^ O(k0), loB, O(O(hiA) ^ O(c[3])) ^ O(k1), loA};
    if (r + 1 < n_rounds) {
      k0 = O(k0) + K(kKeyA);
      k1 = O(k1) + K(kKeyB);
    }
  }
  return c;
}

} // namespace

std::array<Value, 4> philox(const Operand &seed, const Operand &c0,
                            const Operand &c1, const Operand &c2,
                            const Operand &c3, int n_rounds,
                            std::source_location loc) {
  TraceImpl &t = TraceImpl::current(loc);
  checkRounds(t, n_rounds, "philox()", loc);
  std::array<mlir::Value, 4> c;
  const Operand *in[4] = {&c0, &c1, &c2, &c3};
  for (int i = 0; i < 4; ++i) {
    c[i] = t.resolve(*in[i], t.b.getI32Type(), loc);
    if (!getElementTypeOrSelf(c[i].getType()).isInteger(32))
      t.fail(loc, "philox() takes i32 counters (Philox 4x32), got " +
                      typeStr(c[i].getType()) + " for c" + std::to_string(i));
  }
  SmallVector<int64_t> shape(mlir::ktc::getShapeOrScalar(c[0].getType()));
  for (int i = 1; i < 4; ++i) {
    Type acc = shape.empty() ? Type(t.b.getI32Type())
                             : RankedTensorType::get(shape, t.b.getI32Type());
    shape = t.broadcastShape(acc, c[i].getType(), loc);
  }
  std::array<Value, 4> counters;
  for (int i = 0; i < 4; ++i)
    counters[i] = t.wrap(t.broadcastTo(c[i], shape, loc));
  return rounds(splitSeed(t, seed, "philox()", loc), counters, n_rounds, loc);
}

std::array<Value, 4> randint4x(const Operand &seed, const Operand &offset,
                               int n_rounds, std::source_location loc) {
  TraceImpl &t = TraceImpl::current(loc);
  checkRounds(t, n_rounds, "randint4x()", loc);
  Value off = integer(t, offset, "randint4x()", "offset", loc);
  Value lo = cast(off, DType::i32, loc);
  Value zero = Operand(lo, loc) * Operand(0, loc);
  Value hi = off.dtype() == DType::i64
                 ? cast(Operand(off, loc) >> Operand(32, loc), DType::i32, loc)
                 : zero;
  return rounds(splitSeed(t, seed, "randint4x()", loc), {lo, hi, zero, zero},
                n_rounds, loc);
}

Value randint(const Operand &seed, const Operand &offset, int n_rounds,
              std::source_location loc) {
  return randint4x(seed, offset, n_rounds, loc)[0];
}

Value uint_to_uniform_float(const Operand &x, std::source_location loc) {
  TraceImpl &t = TraceImpl::current(loc);
  Value v = integer(t, x, "uint_to_uniform_float()", "operand", loc);
  double scale = v.dtype() == DType::i32 ? kScale32 : kScale64;
  // x < 0 ? -x - 1 : x, i.e. ~x for the negative ones.
  Value folded = where(Operand(v, loc) < Operand(0, loc),
                       ~Operand(v, loc), Operand(v, loc), loc);
  return Operand(cast(folded, DType::f32, loc), loc) * Operand(scale, loc);
}

Value rand(const Operand &seed, const Operand &offset, int n_rounds,
           std::source_location loc) {
  return uint_to_uniform_float(randint(seed, offset, n_rounds, loc), loc);
}

std::array<Value, 4> rand4x(const Operand &seed, const Operand &offset,
                            int n_rounds, std::source_location loc) {
  std::array<Value, 4> r = randint4x(seed, offset, n_rounds, loc);
  for (Value &v : r)
    v = uint_to_uniform_float(v, loc);
  return r;
}

std::array<Value, 2> pair_uniform_to_normal(const Operand &u1,
                                            const Operand &u2,
                                            std::source_location loc) {
  TraceImpl &t = TraceImpl::current(loc);
  for (const Operand *u : {&u1, &u2}) {
    mlir::Value v = t.resolve(*u, t.b.getF32Type(), loc);
    if (!getElementTypeOrSelf(v.getType()).isF32())
      t.fail(loc, "pair_uniform_to_normal() needs f32 uniforms, got " +
                      typeStr(v.getType()));
  }
  auto O = [&](const Value &v) { return Operand(v, loc); };
  Value a = maximum(Operand(1.0e-7, loc), u1, loc);
  Value th = Operand(6.283185307179586, loc) * u2;
  Value r = sqrt(Operand(-2.0, loc) * O(log(a, loc)), loc);
  return {O(r) * O(cos(th, loc)), O(r) * O(sin(th, loc))};
}

Value randn(const Operand &seed, const Operand &offset, int n_rounds,
            std::source_location loc) {
  std::array<Value, 4> i = randint4x(seed, offset, n_rounds, loc);
  return pair_uniform_to_normal(uint_to_uniform_float(i[0], loc),
                                uint_to_uniform_float(i[1], loc), loc)[0];
}

std::array<Value, 4> randn4x(const Operand &seed, const Operand &offset,
                             int n_rounds, std::source_location loc) {
  std::array<Value, 4> u = rand4x(seed, offset, n_rounds, loc);
  auto [n1, n2] = pair_uniform_to_normal(u[0], u[1], loc);
  auto [n3, n4] = pair_uniform_to_normal(u[2], u[3], loc);
  return {n1, n2, n3, n4};
}

} // namespace ktc
