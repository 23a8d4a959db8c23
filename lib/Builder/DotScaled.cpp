//===- DotScaled.cpp - dot_scaled of microscaled (OCP MX) blocks ----------===//
//
// Triton's tl.dot_scaled written with the builder's own operations, as
// Triton decomposes it for GPUs without MX instructions, but in f32:
// 1. Each operand is decoded to f32. fp4 (e2m1) bytes are split into their
//    low and high nibbles (the first element is the low one), interleaved
//    along the packed dimension, and each nibble s.e1e0.m becomes the f32
//    bits sign << 31 | (e1e0m + 252) << 22 -- exponent e + 126, mantissa
//    m -- for e > 0, and 0.5 * m for the subnormals (e = 0). fp8, bf16 and
//    fp16 are cast (bitcast first when held as integers).
// 2. Each e8m0 scale s becomes the f32 2^(s - 127): the bits s << 23, the
//    subnormal 0x00400000 for s = 0, NaN for s = 0xFF (unless fast_math:
//    then s << 23 = +inf, Triton's bits). The M x K/32 block is broadcast
//    over the 32 elements of each group (expand_dims, broadcast, reshape;
//    the rhs's N x K/32 is transposed) and multiplied in: exact, since
//    every fp4/fp8 value times a power of two from 2^-127 to 2^127 keeps
//    its significand in f32 (subnormals included) or overflows to +-inf.
// 3. dot() of the two f32 blocks (ieee), or, with fast_math, of the blocks
//    rounded once to bf16 (f16 when either format is fp16).
// Every check is made here, at the user's line.
//
//===----------------------------------------------------------------------===//

#include "ktc/DotScaled.h"
#include "ktc/Ops.h"

#include "Trace.h"

#include <optional>

using namespace mlir;

namespace ktc {

using detail::TraceImpl;

namespace {

enum class Format { e2m1, e4m3, e5m2, bf16, fp16 };

constexpr int64_t kGroup = 32; // elements along K per e8m0 scale

std::optional<Format> parseFormat(const std::string &s) {
  if (s == "e2m1")
    return Format::e2m1;
  if (s == "e4m3")
    return Format::e4m3;
  if (s == "e5m2")
    return Format::e5m2;
  if (s == "bf16")
    return Format::bf16;
  if (s == "fp16")
    return Format::fp16;
  return std::nullopt;
}

std::string dims(const std::vector<int64_t> &shape) {
  std::string s;
  for (int64_t d : shape)
    s += (s.empty() ? "" : "x") + std::to_string(d);
  return s;
}

/// "a 16x32 u8 block", "an f32 scalar" (ktc's names: u8, not i8).
std::string describe(const Value &v) {
  std::string type = name(v.dtype());
  if (v.is_pointer())
    type = "pointer";
  if (!v.is_block())
    return std::string(type[0] == 'i' || type[0] == 'f' ? "an " : "a ") +
           type + " scalar";
  return "a " + dims(v.shape()) + " " + type + " block";
}

/// One operand of dot_scaled: its storage, format and scale, checked.
struct Side {
  const char *name; // "lhs" or "rhs"
  bool isLhs;
  Format format;
  std::string formatName;
  Value data;
  bool kPack;
  std::optional<Value> scale;

  bool fp4() const { return format == Format::e2m1; }
  /// fp4 pairs lie along the block's last dimension: lhs packed along K,
  /// rhs packed along N.
  bool pairsAlongLast() const { return isLhs == kPack; }
  /// The logical rows x columns (M x K, or K x N).
  std::vector<int64_t> logical() const {
    std::vector<int64_t> s = data.shape();
    if (fp4())
      s[pairsAlongLast() ? 1 : 0] *= 2;
    return s;
  }
  int64_t k() const { return logical()[isLhs ? 1 : 0]; }
  int64_t mn() const { return logical()[isLhs ? 0 : 1]; }
  std::string what() const {
    std::string s = describe(data) + " of " + formatName;
    if (fp4())
      s += std::string(", packed along ") +
           (kPack ? "K" : (isLhs ? "M" : "N"));
    return s;
  }
};

Side checkSide(TraceImpl &t, const char *which, bool isLhs,
               const Operand &data, const Operand &scale,
               const std::string &format, bool kPack, Loc loc) {
  std::optional<Format> f = parseFormat(format);
  if (!f)
    t.fail(loc, std::string("dot_scaled(): ") + which +
                    "_format must be \"e2m1\", \"e4m3\", \"e5m2\", \"bf16\" "
                    "or \"fp16\", got \"" + format + "\"");
  Side s{which, isLhs, *f, format, t.wrap(t.resolve(data, {}, loc)), kPack,
         std::nullopt};
  if (!s.data.is_block() || s.data.shape().size() != 2 || s.data.is_pointer())
    t.fail(loc, std::string("dot_scaled() multiplies two 2-D blocks, got ") +
                    describe(s.data) + " as " + which);
  DType d = s.data.dtype();
  bool byte = d == DType::u8 || d == DType::i8;
  bool bits16 = d == DType::u16 || d == DType::i16;
  auto expect = [&](bool ok, const std::string &holds) {
    if (!ok)
      t.fail(loc, std::string("dot_scaled(): ") + which + " in " + format +
                      " is " + holds + ", got " + describe(s.data));
  };
  switch (*f) {
  case Format::e2m1:
    expect(byte, "a u8 block of two e2m1 values a byte");
    break;
  case Format::e4m3:
    expect(byte || d == DType::f8e4m3fn,
           "an f8e4m3fn block (or its bits as u8)");
    break;
  case Format::e5m2:
    expect(byte || d == DType::f8e5m2, "an f8e5m2 block (or its bits as u8)");
    break;
  case Format::bf16:
    expect(bits16 || d == DType::bf16, "a bf16 block (or its bits as u16)");
    break;
  case Format::fp16:
    expect(bits16 || d == DType::f16, "an f16 block (or its bits as u16)");
    break;
  }
  if (!kPack && !s.fp4())
    t.fail(loc, std::string("dot_scaled(): ") + which +
                    "_k_pack = false packs e2m1 values along " +
                    (isLhs ? "M" : "N") + "; " + which + " is " + format +
                    ", which is not packed");
  if (scale.present()) {
    if (*f == Format::bf16 || *f == Format::fp16)
      t.fail(loc, std::string("dot_scaled(): ") + which + " in " + format +
                      " takes no scale; pass Operand() as " + which +
                      "_scale");
    s.scale = t.wrap(t.resolve(scale, {}, loc));
  }
  return s;
}

/// The e8m0 scales of `s` checked against its K (a multiple of 32).
void checkScale(TraceImpl &t, const Side &s, Loc loc) {
  if (!s.scale)
    return;
  int64_t k = s.k();
  if (k % kGroup != 0)
    t.fail(loc, "dot_scaled() scales groups of 32 elements along K: K = " +
                    std::to_string(k) + " is not a multiple of 32");
  std::vector<int64_t> want{s.mn(), k / kGroup};
  const Value &v = *s.scale;
  DType d = v.dtype();
  if (!v.is_block() || v.is_pointer() || v.shape() != want ||
      (d != DType::u8 && d != DType::i8))
    t.fail(loc, std::string("dot_scaled(): ") + s.name +
                    "_scale holds one e8m0 exponent (u8) per " +
                    (s.isLhs ? "row" : "column") + " of " + s.name +
                    " and group of 32 along K: a " + dims(want) +
                    " u8 block (" + (s.isLhs ? "M" : "N") +
                    " x K/32), got " + describe(v));
}

/// The f32 values of e2m1 nibbles (i32, 0..15).
Value fp4ToF32(const Value &q, Loc loc) {
  auto L = [&](auto x) { return Operand(x, loc); };
  Value em = L(q) & L(7);
  Value sign = (L(q) & L(8)) << L(28);
  // e > 0: exponent e + 126 (bias 1), mantissa bit m; e = 0: 0 or 0.5.
  Value normal = (L(em) + L(252)) << L(22);
  Value small = (L(em) & L(1)) * L(0x3F000000); // 0 or 0.5 (e = 0)
  Value bits = where(L(L(em) < L(2)), L(small), L(normal), loc);
  return bitcast(L(L(bits) | L(sign)), DType::f32, loc);
}

/// `s`'s elements decoded to f32 (logical M x K or K x N).
Value decode(const Side &s, Loc loc) {
  auto L = [&](auto x) { return Operand(x, loc); };
  const Value &v = s.data;
  DType d = v.dtype();
  switch (s.format) {
  case Format::e2m1: {
    Value bytes = L(cast(v, DType::i32, loc)) & L(255);
    Value lo = L(bytes) & L(15), hi = L(bytes) >> L(4);
    std::vector<int64_t> shape = v.shape();
    Value nibbles;
    if (s.pairsAlongLast()) {
      nibbles = interleave(lo, hi, loc);
    } else { // rows 2i and 2i + 1 from byte row i
      Value pairs = permute(join(lo, hi, loc), {0, 2, 1}, loc);
      nibbles = reshape(pairs, {2 * shape[0], shape[1]}, loc);
    }
    return fp4ToF32(nibbles, loc);
  }
  case Format::e4m3:
    return cast(is_fp8(d) ? v : bitcast(v, DType::f8e4m3fn, loc), DType::f32,
                loc);
  case Format::e5m2:
    return cast(is_fp8(d) ? v : bitcast(v, DType::f8e5m2, loc), DType::f32,
                loc);
  case Format::bf16:
    return cast(d == DType::bf16 ? v : bitcast(v, DType::bf16, loc),
                DType::f32, loc);
  case Format::fp16:
    return cast(d == DType::f16 ? v : bitcast(v, DType::f16, loc), DType::f32,
                loc);
  }
  return v;
}

/// The f32 factors 2^(s - 127) of `s`'s scales, one per element of its
/// logical block.
Value scaleFactors(const Side &s, bool fastMath, Loc loc) {
  auto L = [&](auto x) { return Operand(x, loc); };
  Value e = L(cast(*s.scale, DType::i32, loc)) & L(255);
  // 2^-127 is the f32 subnormal 0x00400000, not s << 23 = +0.
  Value bits = where(L(L(e) == L(0)), L(0x00400000), L(L(e) << L(23)), loc);
  if (!fastMath) // 0xFF: NaN (else s << 23 is +inf)
    bits = where(L(L(e) == L(255)), L(0x7FC00000), L(bits), loc);
  Value f = bitcast(bits, DType::f32, loc); // mn x K/32
  int64_t mn = s.mn(), groups = s.k() / kGroup;
  f = broadcast_to(expand_dims(f, 2, loc), {mn, groups, kGroup}, loc);
  f = reshape(f, {mn, groups * kGroup}, loc);
  return s.isLhs ? f : trans(f, loc);
}

} // namespace

Value dot_scaled(const Operand &lhs, const Operand &lhs_scale,
                 const std::string &lhs_format, const Operand &rhs,
                 const Operand &rhs_scale, const std::string &rhs_format,
                 const Operand &acc, bool fast_math, bool lhs_k_pack,
                 bool rhs_k_pack, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  Side a = checkSide(t, "lhs", true, lhs, lhs_scale, lhs_format, lhs_k_pack,
                     loc);
  Side b = checkSide(t, "rhs", false, rhs, rhs_scale, rhs_format, rhs_k_pack,
                     loc);
  if (a.k() != b.k())
    t.fail(loc, "dot_scaled() of an lhs of K = " + std::to_string(a.k()) +
                    " (" + a.what() + ") by an rhs of K = " +
                    std::to_string(b.k()) + " (" + b.what() +
                    "): K must be equal");
  checkScale(t, a, loc);
  checkScale(t, b, loc);
  std::vector<int64_t> out{a.mn(), b.mn()};
  if (acc.present()) {
    Value c = t.wrap(t.resolve(acc, Float32Type::get(t.ctx), loc));
    if (c.is_pointer() || c.dtype() != DType::f32)
      t.fail(loc, "dot_scaled() accumulates in f32, got " + describe(c) +
                      " as acc");
    if (c.is_block() && c.shape() != out)
      t.fail(loc, "dot_scaled() of " + std::to_string(out[0]) + " x " +
                      std::to_string(a.k()) + " by " + std::to_string(a.k()) +
                      " x " + std::to_string(out[1]) + " needs a " +
                      dims(out) + " accumulator, got " + describe(c));
  }

  Value x = decode(a, loc), y = decode(b, loc);
  if (a.scale)
    x = Operand(x, loc) * Operand(scaleFactors(a, fast_math, loc), loc);
  if (b.scale)
    y = Operand(y, loc) * Operand(scaleFactors(b, fast_math, loc), loc);
  if (fast_math) {
    DType narrow = a.format == Format::fp16 || b.format == Format::fp16
                       ? DType::f16
                       : DType::bf16;
    x = cast(x, narrow, loc);
    y = cast(y, narrow, loc);
  }
  return dot(x, y, acc, InputPrecision::ieee, loc);
}

} // namespace ktc
