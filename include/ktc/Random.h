//===- ktc/Random.h - Philox random numbers (Triton's tl.rand*) -*- C++ -*-===//
//
// Counter-based random numbers, as Triton's triton/language/random.py (3.6)
// computes them: Philox 4x32 with `n_rounds` rounds (10 by default), the
// key from the seed (its low and high 32 bits, an i32 seed sign-extended),
// the counter from the offsets (low 32 bits, high 32 bits of an i64 offset,
// 0, 0). The same (seed, offsets) give the same bits as Triton, on every
// ktc target: everything is integer arithmetic plus, for rand, one exact
// conversion and one rounded multiply, so the dropout mask a kernel draws
// in its forward pass can be drawn again in the backward.
// Defined in lib/Builder/Random.cpp; docs/builder.md#random-numbers.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_RANDOM_H
#define KTC_RANDOM_H

#include "ktc/Value.h"

#include <array>
#include <source_location>

namespace ktc {

/// Triton's default number of Philox rounds.
inline constexpr int philox_rounds = 10;

/// `n_rounds` rounds of Philox 4x32 on the counter (c0, c1, c2, c3), i32
/// blocks or scalars read as uint32 bits, with the key (low 32 bits of
/// `seed`, high 32 bits): Triton's tl.philox. Returns the four i32 blocks
/// (uint32 bits) in the counters' broadcast shape.
std::array<Value, 4>
philox(const Operand &seed, const Operand &c0, const Operand &c1,
       const Operand &c2, const Operand &c3, int n_rounds = philox_rounds,
       std::source_location loc = std::source_location::current());

/// Four blocks of random 32-bit integers (i32 holding uint32 bits) for an
/// integer `seed` (i32 or i64 scalar) and a block of i32 or i64 `offset`s:
/// Triton's tl.randint4x. randint is the first of the four.
std::array<Value, 4>
randint4x(const Operand &seed, const Operand &offset,
          int n_rounds = philox_rounds,
          std::source_location loc = std::source_location::current());
Value randint(const Operand &seed, const Operand &offset,
              int n_rounds = philox_rounds,
              std::source_location loc = std::source_location::current());

/// Uniform f32 in [0, 1): Triton's uint_to_uniform_float of randint, i.e.
/// x = bits as i32, x < 0 ? -x - 1 : x, converted to f32 and multiplied by
/// the f32 nearest 4.6566127342e-10 (so 2^31 - 1 maps below 1).
Value rand(const Operand &seed, const Operand &offset,
           int n_rounds = philox_rounds,
           std::source_location loc = std::source_location::current());
std::array<Value, 4>
rand4x(const Operand &seed, const Operand &offset,
       int n_rounds = philox_rounds,
       std::source_location loc = std::source_location::current());
/// The conversion itself, of an i32 block of random bits.
Value uint_to_uniform_float(
    const Operand &x,
    std::source_location loc = std::source_location::current());

/// Standard normal f32: Box-Muller on the first two of randint4x, as
/// Triton does (u1 = max(1e-7, u1), r = sqrt(-2 log u1), r cos(2 pi u2)),
/// with ktc's log, sqrt and cos, so the bits agree between ktc's targets
/// (not with Triton's, whose log/cos are each target's approximations).
Value randn(const Operand &seed, const Operand &offset,
            int n_rounds = philox_rounds,
            std::source_location loc = std::source_location::current());
std::array<Value, 4>
randn4x(const Operand &seed, const Operand &offset,
        int n_rounds = philox_rounds,
        std::source_location loc = std::source_location::current());
/// Box-Muller of two uniform f32 blocks: r cos(th) and r sin(th).
std::array<Value, 2> pair_uniform_to_normal(
    const Operand &u1, const Operand &u2,
    std::source_location loc = std::source_location::current());

} // namespace ktc

#endif // KTC_RANDOM_H
