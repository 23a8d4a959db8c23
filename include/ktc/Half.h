//===- ktc/Half.h - host conversions of the 16- and 8-bit floats -*- C++ -*-===//
//
// float <-> half, bfloat16, float8_e4m3fn, float8_e5m2 on the host, for
// filling Buffers and reading results back. Each rounds to nearest, ties
// to even, exactly as a kernel's .to() does on every target
// (docs/numerics.md#element-types): past the largest finite number half,
// bfloat16 and e5m2 give infinity and e4m3fn (which has none) gives NaN;
// NaN stays NaN (with its sign). Header-only, no dependencies.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_HALF_H
#define KTC_HALF_H

#include "ktc/DType.h"

#include <cstdint>
#include <cstring>

namespace ktc {

namespace detail {
/// A small binary float: `mantissa` bits, exponent `bias`, the sign at bit
/// `signBit`; the largest finite code, what overflows to, the NaN code.
struct SmallFloat {
  unsigned mantissa;
  int bias;
  unsigned signBit;
  uint32_t maxCode, overflowCode, nanCode;
  bool nanOnlyAllOnes; // e4m3fn: only S.1111.111 is NaN, no infinities
};
inline constexpr SmallFloat kHalf{10, 15, 15, 0x7BFF, 0x7C00, 0x7E00, false};
inline constexpr SmallFloat kBfloat16{7, 127, 15, 0x7F7F, 0x7F80, 0x7FC0,
                                      false};
inline constexpr SmallFloat kE4M3FN{3, 7, 7, 0x7E, 0x7F, 0x7F, true};
inline constexpr SmallFloat kE5M2{2, 15, 7, 0x7B, 0x7C, 0x7F, false};

/// x >> s, rounded to nearest even (1 <= s < 32).
inline uint32_t shiftRne(uint32_t x, unsigned s) {
  uint32_t q = x >> s, rem = x & ((uint32_t(1) << s) - 1);
  uint32_t half = uint32_t(1) << (s - 1);
  return q + (rem > half || (rem == half && (q & 1)));
}

inline uint32_t encode(float f, const SmallFloat &t) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  uint32_t sign = (bits >> 31) << t.signBit, abs = bits & 0x7FFFFFFF;
  if (abs > 0x7F800000)
    return sign | t.nanCode;
  uint32_t adjust = uint32_t(127 - t.bias);
  uint32_t r;
  if (abs >= (adjust + 1) << 23) { // normal in the small format
    r = shiftRne(abs - (adjust << 23), 23 - t.mantissa);
  } else { // subnormal (or zero) there
    uint32_t exponent = abs >> 23, mant = abs & 0x7FFFFF;
    uint32_t sig = exponent ? mant | 0x800000 : mant;
    uint32_t s = 23 - t.mantissa + 1 + adjust - (exponent ? exponent : 1);
    r = shiftRne(sig, s < 25 ? s : 25);
  }
  return sign | (r > t.maxCode ? t.overflowCode : r);
}

inline float decode(uint32_t code, const SmallFloat &t) {
  uint32_t sign = ((code >> t.signBit) & 1) << 31;
  uint32_t abs = code & ((uint32_t(1) << t.signBit) - 1);
  uint32_t exponent = abs >> t.mantissa;
  uint32_t mant = abs & ((uint32_t(1) << t.mantissa) - 1);
  uint32_t maxExponent = (uint32_t(1) << (t.signBit - t.mantissa)) - 1;
  uint32_t bits;
  if (t.nanOnlyAllOnes ? abs == (uint32_t(1) << t.signBit) - 1
                       : exponent == maxExponent) {
    bits = mant || t.nanOnlyAllOnes ? 0x7FC00000 : 0x7F800000;
  } else if (exponent == 0) { // mant * 2^(1 - bias - mantissa), exact
    float v = float(mant);
    for (int i = 0; i < t.bias - 1 + int(t.mantissa); ++i)
      v *= 0.5f;
    std::memcpy(&bits, &v, 4);
  } else {
    bits = ((exponent + 127 - t.bias) << 23) | (mant << (23 - t.mantissa));
  }
  bits |= sign;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
} // namespace detail

inline half to_half(float f) {
  return half{uint16_t(detail::encode(f, detail::kHalf))};
}
inline bfloat16 to_bfloat16(float f) {
  return bfloat16{uint16_t(detail::encode(f, detail::kBfloat16))};
}
inline float8_e4m3fn to_float8_e4m3fn(float f) {
  return float8_e4m3fn{uint8_t(detail::encode(f, detail::kE4M3FN))};
}
inline float8_e5m2 to_float8_e5m2(float f) {
  return float8_e5m2{uint8_t(detail::encode(f, detail::kE5M2))};
}

inline float to_float(half h) { return detail::decode(h.bits, detail::kHalf); }
inline float to_float(bfloat16 b) {
  return detail::decode(b.bits, detail::kBfloat16);
}
inline float to_float(float8_e4m3fn x) {
  return detail::decode(x.bits, detail::kE4M3FN);
}
inline float to_float(float8_e5m2 x) {
  return detail::decode(x.bits, detail::kE5M2);
}

} // namespace ktc

#endif // KTC_HALF_H
