//===- ktc/DType.h - element types ------------------------------*- C++ -*-===//

#ifndef KTC_DTYPE_H
#define KTC_DTYPE_H

#include <cstddef>
#include <cstdint>

namespace ktc {

/// The element types of ktc values.
enum class DType : uint8_t { i1, i32, i64, f16, bf16, f32 };

/// IEEE half and bfloat16 as storage types on the host (bit patterns).
struct half {
  uint16_t bits;
};
struct bfloat16 {
  uint16_t bits;
};

/// "i1", "i32", ..., as in MLIR.
const char *name(DType type);
/// Size of one element in memory (i1 is stored as one byte).
size_t size_in_bytes(DType type);
inline bool is_float(DType t) {
  return t == DType::f16 || t == DType::bf16 || t == DType::f32;
}
inline bool is_int(DType t) { return !is_float(t); }

/// The DType of a C++ element type: float, int32_t, int64_t, bool, half,
/// bfloat16.
template <typename T> struct dtype_of;
template <> struct dtype_of<float> {
  static constexpr DType value = DType::f32;
};
template <> struct dtype_of<int32_t> {
  static constexpr DType value = DType::i32;
};
template <> struct dtype_of<int64_t> {
  static constexpr DType value = DType::i64;
};
template <> struct dtype_of<bool> {
  static constexpr DType value = DType::i1;
};
template <> struct dtype_of<half> {
  static constexpr DType value = DType::f16;
};
template <> struct dtype_of<bfloat16> {
  static constexpr DType value = DType::bf16;
};

} // namespace ktc

#endif // KTC_DTYPE_H
