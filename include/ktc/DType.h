//===- ktc/DType.h - element types ------------------------------*- C++ -*-===//
//
// The element types of kernel values and of Buffer<T>. The unsigned types
// are signless integers in the IR: the tracer remembers which values are
// unsigned and picks unsigned division, compares, shifts and casts for them
// (docs/builder.md#element-types). fp8 (e4m3fn, e5m2) is a storage type:
// loads, stores and conversions only (docs/numerics.md#fp8).
//
//===----------------------------------------------------------------------===//

#ifndef KTC_DTYPE_H
#define KTC_DTYPE_H

#include <cstddef>
#include <cstdint>

namespace ktc {

/// The element types of ktc values. New entries go at the end (the values
/// are part of kernel cache keys through the traced IR only, not by number).
enum class DType : uint8_t {
  i1,
  i32,
  i64,
  f16,
  bf16,
  f32,
  // issue 19: more element types
  i8,
  i16,
  u8,
  u16,
  u32,
  u64,
  f64,
  f8e4m3fn, // torch.float8_e4m3fn: no infinities, one NaN pattern per sign
  f8e5m2,   // torch.float8_e5m2: IEEE-like, with infinities and NaNs
};

/// IEEE half and bfloat16 as storage types on the host (bit patterns;
/// ktc/Half.h converts them to and from float).
struct half {
  uint16_t bits;
};
struct bfloat16 {
  uint16_t bits;
};
/// The two fp8 formats as storage types on the host (bit patterns).
struct float8_e4m3fn {
  uint8_t bits;
};
struct float8_e5m2 {
  uint8_t bits;
};

/// "i1", "i32", "u32", "f8e4m3fn", ... ("u" for the unsigned types).
const char *name(DType type);
/// Size of one element in memory (i1 is stored as one byte).
size_t size_in_bytes(DType type);
inline bool is_fp8(DType t) {
  return t == DType::f8e4m3fn || t == DType::f8e5m2;
}
inline bool is_float(DType t) {
  return t == DType::f16 || t == DType::bf16 || t == DType::f32 ||
         t == DType::f64 || is_fp8(t);
}
inline bool is_int(DType t) { return !is_float(t); }
inline bool is_unsigned(DType t) {
  return t == DType::u8 || t == DType::u16 || t == DType::u32 ||
         t == DType::u64;
}
/// Width in bits (i1: 1).
unsigned bit_width(DType type);

/// The DType of a C++ element type: bool, int8_t ... int64_t, uint8_t ...
/// uint64_t, half, bfloat16, float, double, float8_e4m3fn, float8_e5m2.
/// Any other type has no dtype_of (a Buffer<char> does not compile, with
/// the message below).
template <typename T> struct dtype_of {
  static_assert(sizeof(T) == 0,
                "ktc: no element type for this C++ type; use bool, "
                "(u)int8_t..(u)int64_t, ktc::half, ktc::bfloat16, float, "
                "double, ktc::float8_e4m3fn or ktc::float8_e5m2");
};
#define KTC_DTYPE_OF(T, D)                                                     \
  template <> struct dtype_of<T> {                                             \
    static constexpr DType value = DType::D;                                   \
  };
KTC_DTYPE_OF(bool, i1)
KTC_DTYPE_OF(int8_t, i8)
KTC_DTYPE_OF(int16_t, i16)
KTC_DTYPE_OF(int32_t, i32)
KTC_DTYPE_OF(int64_t, i64)
KTC_DTYPE_OF(uint8_t, u8)
KTC_DTYPE_OF(uint16_t, u16)
KTC_DTYPE_OF(uint32_t, u32)
KTC_DTYPE_OF(uint64_t, u64)
KTC_DTYPE_OF(half, f16)
KTC_DTYPE_OF(bfloat16, bf16)
KTC_DTYPE_OF(float, f32)
KTC_DTYPE_OF(double, f64)
KTC_DTYPE_OF(float8_e4m3fn, f8e4m3fn)
KTC_DTYPE_OF(float8_e5m2, f8e5m2)
#undef KTC_DTYPE_OF

} // namespace ktc

#endif // KTC_DTYPE_H
