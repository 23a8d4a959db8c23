#!/usr/bin/env python3
"""An independent reference for ktc's Philox random numbers (Random.h).

Written from Triton 3.6's triton/language/random.py: Philox 4x32 with
n_rounds rounds, key = (seed & 0xffffffff, seed >> 32) after the seed is
sign-extended to 64 bits, counter = (offset low 32 bits, offset high 32 bits
for an i64 offset else 0, 0, 0); rand = uint_to_uniform_float(randint): the
bits as an int32 x, x < 0 ? -x - 1 : x, to f32, times f32(4.6566127342e-10),
each rounded to f32. Python integers and struct's f32 rounding only.

Prints the known answers that test/unit/RandomTest.cpp writes down:

    python3 test/unit/philox_reference.py
"""
import struct

M32 = 0xFFFFFFFF


def philox(seed, counter, n_rounds=10):
    """Philox 4x32: seed is the 64-bit key, counter four uint32s."""
    seed &= (1 << 64) - 1
    k0, k1 = seed & M32, seed >> 32
    c0, c1, c2, c3 = counter
    for _ in range(n_rounds):
        p0, p2 = 0xD2511F53 * c0, 0xCD9E8D57 * c2
        c0, c1, c2, c3 = ((p2 >> 32) ^ c1 ^ k0, p2 & M32,
                          (p0 >> 32) ^ c3 ^ k1, p0 & M32)
        k0, k1 = (k0 + 0x9E3779B9) & M32, (k1 + 0xBB67AE85) & M32
    return c0, c1, c2, c3


def randint4x(seed, offset, offset_bits=32, n_rounds=10):
    off = offset & ((1 << offset_bits) - 1)
    hi = (off >> 32) & M32 if offset_bits == 64 else 0
    return philox(seed, (off & M32, hi, 0, 0), n_rounds)


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def f32_bits(x):
    return struct.unpack("I", struct.pack("f", x))[0]


def uniform(u):
    x = u - (1 << 32) if u >= 1 << 31 else u
    if x < 0:
        x = -x - 1
    # f32 * f32 is exact in a double: one rounding, as in f32 arithmetic.
    return f32(f32(float(x)) * f32(4.6566127342e-10))


if __name__ == "__main__":
    def show(name, vals):
        print(name, ", ".join(f"0x{v:08x}u" for v in vals))
    # Random123's known answers for philox4x32_10 (kat_vectors).
    show("kat zero", philox(0, (0, 0, 0, 0)))
    show("kat ones", philox((1 << 64) - 1, (M32,) * 4))
    show("kat pi", philox(0x299F31D0A4093822,
                          (0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344)))
    for seed, off, bits in [(42, 0, 32), (42, 1, 32), (-1, 7, 32),
                            (0x123456789, 1000, 32), (42, 0x100000005, 64),
                            (-7, -3, 32), (-7, -3, 64)]:
        show(f"randint4x seed={seed} offset={off} i{bits}",
             randint4x(seed, off, bits))
    show("randint4x seed=42 offset=3 rounds=7", randint4x(42, 3, 32, 7))
    for seed, off in [(42, 0), (42, 1), (-1, 7), (1234, 99)]:
        u = randint4x(seed, off)[0]
        print(f"rand seed={seed} offset={off}: bits 0x{u:08x}u -> "
              f"0x{f32_bits(uniform(u)):08x}u ({uniform(u)!r})")
    # The extremes of the conversion: 0 -> 0, INT_MAX and INT_MIN -> < 1.
    for u in [0, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF]:
        print(f"uniform 0x{u:08x} -> 0x{f32_bits(uniform(u)):08x}u "
              f"({uniform(u)!r})")
