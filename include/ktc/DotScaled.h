//===- ktc/DotScaled.h - dot_scaled: microscaled (OCP MX) products -*- C++ -*-===//
//
// Triton's tl.dot_scaled (issue 19): the product of two blocks in the OCP
// microscaling formats, each group of 32 elements along K scaled by an e8m0
// exponent. Written with the builder's own operations (shifts, bitcasts,
// casts, interleave, broadcast, dot), so every target runs it; no native
// MX instruction is used yet. Defined in lib/Builder/DotScaled.cpp;
// docs/builder.md#dot_scaled.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_DOTSCALED_H
#define KTC_DOTSCALED_H

#include "ktc/Value.h"

#include <source_location>
#include <string>

namespace ktc {

/// acc + (lhs scaled) x (rhs scaled), an M x N f32 block (Triton's
/// tl.dot_scaled). Formats, by their Triton names, and the element types
/// that hold them:
///   "e2m1" (fp4): u8 (or i8), two values a byte, the first in the low
///     nibble, packed along K (lhs M x K/2, rhs K/2 x N), or along M / N
///     when lhs_k_pack / rhs_k_pack is false (lhs M/2 x K, rhs K x N/2);
///   "e4m3", "e5m2" (fp8): f8e4m3fn / f8e5m2, or their bits as u8 (i8);
///   "bf16", "fp16": bf16 / f16, or their bits as u16 (i16).
/// lhs_scale (M x K/32) and rhs_scale (N x K/32, one row per column of
/// rhs) are e8m0 exponents as u8 (or i8): 2^(s - 127) for the 32
/// consecutive elements along K that group k / 32 holds; 0xFF is NaN. An
/// absent scale (Operand()) scales nothing; bf16 and fp16 take none.
/// The elements are decoded and scaled in f32, exactly (every code and
/// every scale; a scaled value past f32's range is +-inf), then multiplied
/// by dot() in f32 (InputPrecision::ieee: the same bits on every target).
/// `fast_math` skips the NaN of scale 0xFF (it scales by +inf) and rounds
/// the scaled operands to bf16 (to f16 where either format is fp16) for
/// the matrix cores, as Triton's decomposition does.
Value dot_scaled(const Operand &lhs, const Operand &lhs_scale,
                 const std::string &lhs_format, const Operand &rhs,
                 const Operand &rhs_scale, const std::string &rhs_format,
                 const Operand &acc = Operand(std::source_location()),
                 bool fast_math = false, bool lhs_k_pack = true,
                 bool rhs_k_pack = true,
                 std::source_location loc = std::source_location::current());

} // namespace ktc

#endif // KTC_DOTSCALED_H
