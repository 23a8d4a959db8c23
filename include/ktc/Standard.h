//===- ktc/Standard.h - histogram, sort, gather, softmax --------*- C++ -*-===//
//
// Triton's tl.histogram, tl.sort, tl.gather and tl.softmax (issue 19),
// written with ktc's own block operations (compares, where, xor_sum and
// sum, reshape, permute, min/max), so every target lowers the same ops and
// gives the same bits. Defined in lib/Builder/Sort.cpp and
// lib/Builder/Standard.cpp; docs/builder.md#histogram-sort-gather-softmax.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_STANDARD_H
#define KTC_STANDARD_H

#include "ktc/Value.h"

#include <optional>
#include <source_location>

namespace ktc {

/// The number of elements of the 1-D integer block `x` equal to each of
/// 0, 1, ..., num_bins - 1 (Triton's tl.histogram): an i32 block of
/// `num_bins` (a power of two). Elements where `mask` (a block of x's shape)
/// is false, and values outside [0, num_bins), are not counted. Costs
/// num_bins x numel compares.
Value histogram(const Operand &x, int64_t num_bins,
                const Operand &mask = Operand(std::source_location()),
                std::source_location loc = std::source_location::current());

/// x sorted along `dim` (the last dimension when absent; negative counts
/// from the end), ascending or `descending` (Triton's tl.sort): a bitonic
/// network of log2(n) (log2(n) + 1) / 2 compare-and-swap rounds. Numbers,
/// booleans; floats sort in IEEE 754's total order -- -inf < ... < -0.0 <
/// +0.0 < ... < +inf < NaN (every NaN, of either sign, as the quiet NaN
/// 0x7fc00000 of its type) -- on every target.
Value sort(const Operand &x, std::optional<int> dim = std::nullopt,
           bool descending = false,
           std::source_location loc = std::source_location::current());

/// src's elements picked along `axis` by `index` (Triton's tl.gather):
/// out[i][j] = src[index[i][j]][j] for axis 0. index is an integer block of
/// src's rank whose other dimensions equal src's; the result has index's
/// shape and src's type. An index outside [0, src.shape[axis]) gives 0
/// (all bits zero). Costs index.numel x src.shape[axis] compares.
Value gather(const Operand &src, const Operand &index, int axis,
             std::source_location loc = std::source_location::current());

/// exp(x - max) / sum(exp(x - max)) along `dim` (Triton's tl.softmax; dim
/// 0 when absent, as Triton's), of a float block; the result has x's shape.
/// The division is fdiv (the target's fast division) unless
/// `ieee_rounding`, then correctly rounded.
Value softmax(const Operand &x, std::optional<int> dim = std::nullopt,
              bool ieee_rounding = false,
              std::source_location loc = std::source_location::current());

} // namespace ktc

#endif // KTC_STANDARD_H
