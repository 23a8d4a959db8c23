//===- InlineAsm.cpp - inline assembly and device_print in the catalogue --===//
//
// inline_asm_elementwise with each target's own assembly (x86-64 on the
// host, PTX on CUDA, AMDGPU on gfx*): f32 products and sums two elements a
// run (v_mul_f32, v_add_f32), an i32 multiply-add (v_mul_lo_u32,
// v_add_u32) and bytes four to a register (v_and_b32, v_lshlrev_b32), at
// odd sizes, exact against the IEEE/two's complement reference and the
// host. Then device_print: a debug launch's stores must be the same as
// without it, whatever the runtime does with the prints (the gfx942
// stand-in runtime passes no printf buffer: its records are dropped).
//
//===----------------------------------------------------------------------===//

#include "Conformance.h"

#include <bit>
#include <random>

namespace conformance {
namespace {

/// A NaN no operation returns (signalling): an element that keeps these
/// bits was not written.
constexpr uint32_t kPoisonBits = 0x7fa00bad;
float poison() { return std::bit_cast<float>(kPoisonBits); }

/// round(round(a * b) + c) for two elements a run (pack 2): the registers
/// are r0, r1, a0, a1, b0, b1, c0, c1.
const InlineAsmByTarget kMulAdd2 = {
    {"host",
     {"movss $2, $0\n\tmulss $4, $0\n\taddss $6, $0\n\t"
      "movss $3, $1\n\tmulss $5, $1\n\taddss $7, $1",
      "=&x,=&x,x,x,x,x,x,x"}},
    {"nvptx",
     {"mul.rn.f32 $0, $2, $4;\n\tadd.rn.f32 $0, $0, $6;\n\t"
      "mul.rn.f32 $1, $3, $5;\n\tadd.rn.f32 $1, $1, $7;",
      "=f,=f,f,f,f,f,f,f"}},
    {"amdgpu",
     {"v_mul_f32 $0, $2, $4\n\tv_add_f32 $0, $0, $6\n\t"
      "v_mul_f32 $1, $3, $5\n\tv_add_f32 $1, $1, $7",
      "=&v,=&v,v,v,v,v,v,v"}},
};

/// a * b + c in i32, wrapping.
const InlineAsmByTarget kMulAddInt = {
    {"host", {"movl $1, $0\n\timull $2, $0\n\taddl $3, $0", "=&r,r,r,r"}},
    {"nvptx", {"mul.lo.s32 $0, $1, $2;\n\tadd.s32 $0, $0, $3;", "=r,r,r,r"}},
    {"amdgpu",
     {"v_mul_lo_u32 $0, $1, $2\n\tv_add_u32 $0, $0, $3", "=&v,v,v,v"}},
};

/// (x & 0x1f) << 3 on each of four bytes of a register (pack 4).
const InlineAsmByTarget kMaskShift = {
    {"host", {"andl $$0x1f1f1f1f, $0\n\tshll $$3, $0", "=r,0"}},
    {"nvptx", {"and.b32 $0, $1, 0x1F1F1F1F;\n\tshl.b32 $0, $0, 3;", "=r,r"}},
    {"amdgpu",
     {"v_and_b32 $0, 0x1f1f1f1f, $1\n\tv_lshlrev_b32 $0, 3, $0", "=v,v"}},
};

/// Checks each element of `got` against `want` bit for bit (NaN for NaN)
/// and the host's, and adds the row.
template <typename T>
void exactRow(Context &c, Row r, const std::vector<T> &got,
              const std::vector<T> &host, const std::vector<T> &want,
              const std::function<std::string(size_t)> &inputs) {
  int shown = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    bool wrong = !(isNaN(got[i]) && isNaN(want[i])) &&
                 std::memcmp(&got[i], &want[i], sizeof(T)) != 0;
    if constexpr (std::is_same_v<T, float>)
      wrong |= std::bit_cast<uint32_t>(got[i]) == kPoisonBits;
    if (wrong)
      r.maxUlp = INFINITY;
    if (wrong || hostDiffers(got, host, i))
      showElement(c, r, i, inputs(i), got[i], hex(want[i]), host, shown);
  }
  if (c.host)
    r.hostDiffs = bitDiffs(got, host);
  c.rows.push_back(r);
}

void floatRow(Context &c) {
  auto k = Kernel("conf_asm_f32", [](Ptr<float> x, Ptr<float> y, Ptr<float> z,
                                     Ptr<float> out, Int n) {
    KTC_OFFS;
    auto r = inline_asm_elementwise(
        kMulAdd2,
        {load(x + offs, mask), load(y + offs, mask), load(z + offs, mask)},
        DType::f32, true, 2);
    store(out + offs, r, mask);
  });
  std::vector<float> x = floatInputs(11), y = floatInputs(12),
                     z = floatInputs(13);
  std::reverse(y.begin(), y.end());
  std::rotate(z.begin(), z.begin() + 1000, z.end());
  size_t n = x.size();
  Row r = c.row("conf_asm_f32",
                "inline asm a * b + c, two roundings (v_mul_f32, v_add_f32; "
                "pack 2)",
                "f32", n);
  r.exact = true;
  c.entry({r}, k, [&] {
    auto [got, host] =
        runBoth<float>(c, n, poison(), [&](Device &d, Buffer<float> &out) {
          Buffer<float> bx(d, x), by(d, y), bz(d, z);
          k.launch({int(cdiv(n, BLOCK))}, bx, by, bz, out, int(n));
        });
    std::vector<float> want(n);
    for (size_t i = 0; i < n; ++i) // each rounding exact from float64
      want[i] = float(roundTo(
          roundTo(double(x[i]) * y[i], F32) + double(z[i]), F32));
    exactRow<float>(c, r, got, host, want, [&](size_t i) {
      return hex(x[i]) + " " + hex(y[i]) + " " + hex(z[i]);
    });
  });
}

void intRow(Context &c) {
  auto k = Kernel("conf_asm_i32", [](Ptr<int32_t> x, Ptr<int32_t> y,
                                     Ptr<int32_t> z, Ptr<int32_t> out, Int n) {
    KTC_OFFS;
    auto r = inline_asm_elementwise(
        kMulAddInt,
        {load(x + offs, mask), load(y + offs, mask), load(z + offs, mask)},
        DType::i32, true, 1);
    store(out + offs, r, mask);
  });
  std::vector<int32_t> x = intInputs(14), y = intInputs(15), z = intInputs(16);
  std::reverse(y.begin(), y.end());
  size_t n = x.size();
  Row r = c.row("conf_asm_i32",
                "inline asm a * b + c, wrapping (v_mul_lo_u32, v_add_u32)",
                "i32", n);
  r.exact = true;
  c.entry({r}, k, [&] {
    auto [got, host] = runBoth<int32_t>(
        c, n, int32_t(0x5eedbad), [&](Device &d, Buffer<int32_t> &out) {
          Buffer<int32_t> bx(d, x), by(d, y), bz(d, z);
          k.launch({int(cdiv(n, BLOCK))}, bx, by, bz, out, int(n));
        });
    std::vector<int32_t> want(n);
    for (size_t i = 0; i < n; ++i)
      want[i] = int32_t(uint32_t(x[i]) * uint32_t(y[i]) + uint32_t(z[i]));
    exactRow<int32_t>(c, r, got, host, want, [&](size_t i) {
      return hex(x[i]) + " " + hex(y[i]) + " " + hex(z[i]);
    });
  });
}

void byteRow(Context &c) {
  auto k = Kernel("conf_asm_i8", [](Ptr<int8_t> x, Ptr<int8_t> out, Int n) {
    KTC_OFFS;
    store(out + offs,
          inline_asm_elementwise(kMaskShift, {load(x + offs, mask)}, DType::i8,
                                 true, 4),
          mask);
  });
  std::vector<int8_t> x = {0, 1, -1, 127, -128, 31, 32, 0x1f, -0x20};
  std::mt19937 rng(17);
  while (x.size() < 3001)
    x.push_back(int8_t(rng()));
  size_t n = x.size();
  Row r = c.row("conf_asm_i8",
                "inline asm (x & 31) << 3, four bytes a register "
                "(v_and_b32, v_lshlrev_b32; pack 4)",
                "i8", n);
  r.exact = true;
  c.entry({r}, k, [&] {
    auto [got, host] = runBoth<int8_t>(
        c, n, int8_t(0x5a), [&](Device &d, Buffer<int8_t> &out) {
          Buffer<int8_t> bx(d, x);
          k.launch({int(cdiv(n, BLOCK))}, bx, out, int(n));
        });
    std::vector<int8_t> want(n);
    for (size_t i = 0; i < n; ++i)
      want[i] = int8_t((uint8_t(x[i]) & 0x1f) << 3);
    exactRow<int8_t>(c, r, got, host, want,
                     [&](size_t i) { return hex(x[i]); });
  });
}

/// device_print of a block and a scalar in a debug launch (Options::debug)
/// beside stores that must come out as without it: 2 x + 1, exact. The
/// host prints its lines (one per element of 2 programs of 64); what the
/// device's runtime prints is not checked here (DebugTest does on the host
/// and CUDA).
void printRow(Context &c) {
  auto k = Kernel("conf_device_print", [](Ptr<float> x, Ptr<float> out,
                                          Int n) {
    auto offs = program_id(0) * 64 + arange(0, 64);
    auto mask = offs < n;
    auto v = load(x + offs, mask);
    device_print("conf x", v);
    device_print("conf n", n);
    store(out + offs, v * 2.0f + 1.0f, mask);
  });
  std::vector<float> x = floatInputs(18);
  x.resize(77); // the edges (NaN, inf, subnormals, the largest) and more
  size_t n = x.size();
  Row r = c.row("conf_device_print",
                "device_print (debug launch): the kernel's stores, 2 x + 1",
                "f32", n);
  r.exact = true;
  c.entry({r}, k, [&] {
    std::fflush(stdout);
    auto [got, host] =
        runBoth<float>(c, n, poison(), [&](Device &d, Buffer<float> &out) {
          Buffer<float> bx(d, x);
          k.launch({int(cdiv(n, 64))}, bx, out, int(n),
                   Options{.debug = true});
          d.synchronize(); // CUDA prints its buffer here
          std::fflush(stdout);
        });
    std::vector<float> want(n);
    for (size_t i = 0; i < n; ++i)
      want[i] = float(roundTo(roundTo(2.0 * x[i], F32) + 1.0, F32));
    exactRow<float>(c, r, got, host, want,
                    [&](size_t i) { return hex(x[i]); });
  });
}

} // namespace

void inlineAsmRows(Context &c) {
  floatRow(c);
  intRow(c);
  byteRow(c);
  printRow(c);
}

} // namespace conformance
