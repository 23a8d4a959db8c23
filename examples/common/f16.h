//===- f16.h - f16 on the host for the examples' checks -----------*- C++ -*-===//
//
// Rounding a double to ktc::half (to nearest, ties to even, through the
// compiler's _Float16) and back, and the NaN outputs start as.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_EXAMPLES_COMMON_F16_H
#define KTC_EXAMPLES_COMMON_F16_H

#include "ktc/ktc.h"

#include <bit>
#include <cstdint>

namespace example::f16 {

/// An f16 NaN no input or result is: what outputs start as.
inline const ktc::half kPoison{0x7dad};

inline ktc::half toHalf(double v) {
  return ktc::half{std::bit_cast<uint16_t>(static_cast<_Float16>(v))};
}
inline double toDouble(ktc::half h) {
  return double(std::bit_cast<_Float16>(h.bits));
}

} // namespace example::f16

#endif // KTC_EXAMPLES_COMMON_F16_H
