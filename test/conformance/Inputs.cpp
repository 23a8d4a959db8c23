//===- Inputs.cpp - the catalogue's inputs and error measures -------------===//
//
// The edges of each element type followed by random data, the references
// rounded to f16/bf16, and the ulp distance in a given format.
//
//===----------------------------------------------------------------------===//

#include "Conformance.h"

#include <bit>
#include <random>

namespace conformance {

std::vector<float> floatInputs(uint32_t seed) {
  std::vector<uint32_t> bits = {
      0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
      0x00000001, 0x80000001, 0x007fffff, 0x00400000, 0x00800000, 0x80800000,
      0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000, 0x3f000000, 0x40000000,
      0x42f00000, 0x428fcccd /*71.9*/, 0x3f851eb8 /*1.04*/, 0xc2b00000,
      0x477fe000, 0x477ff000, 0x38800000, 0x33800000, 0x3f7fffff, 0x3f800001};
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(-4.0f, 4.0f);
  std::uniform_int_distribution<int> scale(-60, 60);
  for (int i = 0; i < 3000; ++i)
    bits.push_back(std::bit_cast<uint32_t>(std::ldexp(unit(rng), scale(rng))));
  for (int i = 0; i < 1000; ++i)
    bits.push_back(rng()); // any pattern: NaNs, subnormals, huge values
  std::vector<float> out;
  for (uint32_t b : bits)
    out.push_back(std::bit_cast<float>(b));
  if (out.size() % 2 == 0)
    out.push_back(1.5f); // odd sizes
  return out;
}

/// 16-bit inputs: the edges, then random patterns whose exponent lies near
/// 1.0 (sums and differences that cancel or round at ties), then any
/// pattern.
static std::vector<uint16_t> bits16(std::vector<uint16_t> edges,
                                    int exponentShift, int bias,
                                    uint32_t seed) {
  std::mt19937 rng(seed);
  for (int i = 0; i < 2000; ++i) {
    uint16_t b = uint16_t(rng());
    uint16_t expMask = uint16_t(0x7fff & ~((1u << exponentShift) - 1));
    int e = bias + int(rng() % 7) - 3;
    edges.push_back(uint16_t((b & ~expMask) | (e << exponentShift)));
  }
  for (int i = 0; i < 2000; ++i)
    edges.push_back(uint16_t(rng()));
  if (edges.size() % 2 == 0)
    edges.push_back(0x3e00); // odd sizes (1.5 in f16, 0.125 in bf16)
  return edges;
}

std::vector<half> halfInputs(uint32_t seed) {
  std::vector<half> out;
  for (uint16_t b : bits16({0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00,
                            0x0001, 0x8001, 0x03ff, 0x0200, 0x0400, 0x8400,
                            0x7bff, 0xfbff, 0x3c00, 0xbc00, 0x3800, 0x4000,
                            0x3bff, 0x3c01, 0x7bfe, 0x1400, 0x0c00},
                           10, 15, seed))
    out.push_back(half{b});
  return out;
}

std::vector<bfloat16> bf16Inputs(uint32_t seed) {
  std::vector<bfloat16> out;
  for (uint16_t b : bits16({0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0xffc0,
                            0x0001, 0x8001, 0x007f, 0x0040, 0x0080, 0x8080,
                            0x7f7f, 0xff7f, 0x3f80, 0xbf80, 0x3f00, 0x4000,
                            0x3f7f, 0x3f81, 0x7f7e, 0x0100, 0x3380},
                           7, 127, seed))
    out.push_back(bfloat16{b});
  return out;
}

std::vector<int32_t> intInputs(uint32_t seed) {
  std::vector<int32_t> v = {0,  1,  -1, 2,  -2, 7,  -7,
                            INT32_MIN, INT32_MAX, INT32_MIN + 1, 1 << 30};
  std::mt19937 rng(seed);
  for (int i = 0; i < 2000; ++i)
    v.push_back(int32_t(rng()) >> (rng() % 31));
  if (v.size() % 2 == 0)
    v.push_back(3);
  return v;
}

std::vector<int64_t> int64Inputs(uint32_t seed) {
  std::vector<int64_t> v = {0,
                            1,
                            -1,
                            2,
                            -2,
                            7,
                            -7,
                            INT64_MIN,
                            INT64_MAX,
                            INT64_MIN + 1,
                            int64_t(1) << 62,
                            INT32_MIN,
                            INT32_MAX,
                            int64_t(1) << 32,
                            -(int64_t(1) << 32),
                            int64_t(0xffffffff)};
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 2000; ++i)
    v.push_back(int64_t(rng()) >> (rng() % 63));
  if (v.size() % 2 == 0)
    v.push_back(3);
  return v;
}

double value(half x) {
  int e = (x.bits >> 10) & 31, m = x.bits & 1023;
  double v = e == 0    ? std::ldexp(m, -24)
             : e == 31 ? (m ? NAN : INFINITY)
                       : std::ldexp(m + 1024, e - 25);
  return x.bits & 0x8000 ? -v : v;
}

double value(bfloat16 x) {
  return std::bit_cast<float>(uint32_t(x.bits) << 16);
}

double roundTo(double want, Format f) {
  if (std::isnan(want) || std::isinf(want) || want == 0)
    return want;
  double m = std::fabs(want);
  // Half an ulp past the largest finite value rounds (to even) to inf.
  if (m >= std::ldexp(2.0 - std::ldexp(1.0, -f.fraction - 1), f.emax))
    return std::copysign(INFINITY, want);
  int e = std::max(std::ilogb(m), f.emin);
  double q = std::ldexp(1.0, e - f.fraction);
  return std::copysign(std::nearbyint(m / q) * q, want);
}

double ulpError(double got, double want, Format f) {
  if (std::isnan(want) || std::isnan(got))
    return std::isnan(want) && std::isnan(got) ? 0 : INFINITY;
  if (std::isinf(want) || std::isinf(got))
    return std::isinf(got) && roundTo(want, f) == got ? 0 : INFINITY;
  if (got == 0 && want == 0)
    return std::signbit(got) == std::signbit(want) ? 0 : 0.5;
  double w = std::fabs(want);
  int e = w < std::ldexp(1.0, f.emin) ? f.emin : std::ilogb(w);
  return std::fabs(got - want) / std::ldexp(1.0, e - f.fraction);
}

} // namespace conformance
