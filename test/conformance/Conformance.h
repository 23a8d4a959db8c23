//===- Conformance.h - the catalogue's rows, inputs and measures -*- C++ -*-===//
//
// Shared by the files of ktc-conformance (docs/numerics.md): a Row of the
// table, the Context a catalogue entry runs in (the device, the host to
// compare with, which rows are selected), the inputs (edges and random
// data per element type), the error measures, and runBoth, which runs one
// kernel on the device and the host with poisoned outputs.
//
//   Inputs.cpp     inputs, references rounded to f16/bf16, ulp measures
//   Float32.cpp    f32 arithmetic, math, comparisons, conversions
//   Integer.cpp    i32 and i64 arithmetic, division by 0 and MIN / -1
//   Half.cpp       f16 and bf16 arithmetic and comparisons
//   Memory.cpp     loads with `other`, `where` on every type, reductions
//   InlineAsm.cpp  inline_asm_elementwise per target, device_print
//   BlockPtr.cpp   block pointers, tensor descriptors, block-pointer dots
//   DotScaled.cpp  dot_scaled of e2m1, e4m3 and e5m2 (ieee, fast_math)
//   Main.cpp       the driver: options, selection, the table
//
//===----------------------------------------------------------------------===//

#ifndef KTC_TEST_CONFORMANCE_H
#define KTC_TEST_CONFORMANCE_H

#include "ktc/ktc.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <regex>
#include <string>
#include <type_traits>
#include <vector>

namespace conformance {

using namespace ktc;

constexpr int BLOCK = 256;

struct Row {
  std::string id; // the kernel's name: what --filter matches
  std::string op, type, target;
  size_t n = 0;
  double maxUlp = 0;
  double bound = 0;
  size_t hostDiffs = 0; // elements whose bits differ from the host's
  bool exact = false;   // must equal the host bit for bit
  std::string known;    // a documented open item this row may fail
  std::string error;    // the row could not run (compile or launch failed)
  bool hasHost = false;
  bool ok() const {
    return error.empty() && maxUlp <= bound &&
           (!exact || !hasHost || hostDiffs == 0);
  }
};

struct Context {
  Device *device = nullptr;
  Device *host = nullptr; // --against=cpu
  std::regex filter{""};  // --filter: rows whose id it finds
  bool list = false;      // --list: print the ids, run nothing
  std::string compile;    // --compile=TARGET: emit asm only
  int show = 0;           // --show=N: print N mismatching elements a row
  std::vector<Row> rows;

  /// A row with the device's name, or the compile target's.
  Row row(const std::string &id, const std::string &op,
          const std::string &type, size_t n) const {
    Row r{id, op, type, device ? device->name() : "compile " + compile, n};
    r.hasHost = host != nullptr;
    return r;
  }

  /// Runs `body` for the rows `id` stands for (one `skeleton` each), or
  /// lists them, compiles the kernel only, or skips it (--filter). A
  /// ktc::Error (a kernel that does not compile or launch) becomes the
  /// row's verdict instead of ending the program.
  template <typename K>
  void entry(const std::vector<Row> &skeletons, const K &kernel,
             const std::function<void()> &body) {
    const std::string &id = skeletons.front().id;
    if (!std::regex_search(id, filter))
      return;
    if (list) {
      for (const Row &r : skeletons)
        std::printf("%s\t%s\t%s\n", id.c_str(), r.op.c_str(), r.type.c_str());
      return;
    }
    try {
      if (!compile.empty()) {
        size_t bytes = kernel.emit("asm", compile).size();
        for (Row r : skeletons) {
          r.n = bytes, r.hasHost = false;
          rows.push_back(r);
        }
        return;
      }
      body();
    } catch (const Error &e) {
      for (Row r : skeletons) {
        r.error = e.what();
        if (size_t nl = r.error.find('\n'); nl != std::string::npos)
          r.error.resize(nl);
        rows.push_back(r);
      }
    }
  }
};

/// Whether an element's bits are a NaN (their payloads and signs differ
/// between hardware, so NaNs are the same for bitDiffs).
inline bool isNaN(float x) { return std::isnan(x); }
inline bool isNaN(half x) { return (x.bits & 0x7fff) > 0x7c00; }
inline bool isNaN(bfloat16 x) { return (x.bits & 0x7fff) > 0x7f80; }
template <typename T> bool isNaN(T) { return false; }

/// An element's bits in hex.
template <typename T> std::string hex(const T &x) {
  uint64_t u = 0;
  std::memcpy(&u, &x, sizeof(T));
  char s[24];
  std::snprintf(s, sizeof s, "0x%0*llx", int(2 * sizeof(T)),
                (unsigned long long)u);
  return s;
}

/// With --show, prints element i of a row that is out of its bound or
/// differs from the host where it must not: inputs, result, reference and
/// the host's result, in bits.
template <typename T>
void showElement(Context &c, const Row &r, size_t i, const std::string &in,
                 const T &got, const std::string &want,
                 const std::vector<T> &host, int &shown) {
  if (shown++ >= c.show)
    return;
  std::fprintf(stderr, "%s [%zu]: inputs %s: got %s, want %s%s%s\n",
               r.id.c_str(), i, in.c_str(), hex(got).c_str(), want.c_str(),
               host.empty() ? "" : ", host ",
               host.empty() ? "" : hex(host[i]).c_str());
}
/// A real number, exactly (hex float).
inline std::string exactly(double x) {
  char s[40];
  std::snprintf(s, sizeof s, "%a", x);
  return s;
}
/// Whether element i differs from the host where NaNs are not the same.
template <typename T>
bool hostDiffers(const std::vector<T> &got, const std::vector<T> &host,
                 size_t i) {
  return !host.empty() && !(isNaN(got[i]) && isNaN(host[i])) &&
         std::memcmp(&got[i], &host[i], sizeof(T)) != 0;
}

//===----------------------------------------------------------------------===//
// Inputs (Inputs.cpp)
//===----------------------------------------------------------------------===//

/// Edges (+-0, +-inf, NaNs, subnormals, the largest finite values, ties)
/// then random values over many exponents and random bit patterns; odd
/// sizes.
std::vector<float> floatInputs(uint32_t seed);
std::vector<half> halfInputs(uint32_t seed);
std::vector<bfloat16> bf16Inputs(uint32_t seed);
/// 0, +-1, +-2, +-7, MIN, MAX, MIN + 1, then random values of every width.
std::vector<int32_t> intInputs(uint32_t seed);
std::vector<int64_t> int64Inputs(uint32_t seed);

//===----------------------------------------------------------------------===//
// Formats and error measures (Inputs.cpp)
//===----------------------------------------------------------------------===//

/// A floating-point format: fraction bits, smallest normal exponent.
struct Format {
  int fraction, emin, emax;
};
constexpr Format F32{23, -126, 127}, F16{10, -14, 15}, BF16{7, -126, 127};

/// The value of an element, exactly.
inline double value(float x) { return x; }
double value(half x);
double value(bfloat16 x);
template <typename T> constexpr Format formatOf() {
  if constexpr (std::is_same_v<T, half>)
    return F16;
  else if constexpr (std::is_same_v<T, bfloat16>)
    return BF16;
  else
    return F32;
}

/// `want` rounded to the format (nearest even, subnormals kept, overflow to
/// infinity, NaN stays NaN): a correctly rounded operation's exact result.
double roundTo(double want, Format f);

/// The distance from `got` to the real number `want`, in units of the
/// format's ulp at `want` (subnormals included). 0 when both are NaN or
/// the same infinity; infinite when one is NaN/inf and the other is not;
/// 0.5 for zeros of opposite signs.
double ulpError(double got, double want, Format f);

template <typename T>
size_t bitDiffs(const std::vector<T> &a, const std::vector<T> &b) {
  size_t d = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    if (!(isNaN(a[i]) && isNaN(b[i])))
      d += std::memcmp(&a[i], &b[i], sizeof(T)) != 0;
  return d;
}

/// Runs `launch` on the device (and the host) with poisoned outputs and
/// returns both outputs; a write past the end is an error.
template <typename T, typename L>
std::pair<std::vector<T>, std::vector<T>> runBoth(Context &c, size_t n,
                                                  T poison, L launch) {
  auto once = [&](Device &d) {
    Buffer<T> out(d, std::vector<T>(n + 5, poison));
    launch(d, out);
    std::vector<T> got = out.to_host();
    for (size_t i = n; i < n + 5; ++i) // nothing written past the end
      if (std::memcmp(&got[i], &poison, sizeof(T)) != 0)
        throw Error("wrote past the end at " + std::to_string(i));
    got.resize(n);
    return got;
  };
  std::vector<T> dev = once(*c.device);
  std::vector<T> host = c.host ? once(*c.host) : std::vector<T>();
  return {dev, host};
}

/// IEEE maxNum/minNum (a NaN operand is ignored).
inline double fmaxNum(double a, double b) {
  return std::isnan(a) ? b : std::isnan(b) ? a : std::max(a, b);
}
inline double fminNum(double a, double b) {
  return std::isnan(a) ? b : std::isnan(b) ? a : std::min(a, b);
}

/// The catalogue, by file.
void float32Rows(Context &c);
void integerRows(Context &c);
void halfRows(Context &c);
void memoryRows(Context &c);
void reductionRows(Context &c);
void sharedMemoryRows(Context &c);
void inlineAsmRows(Context &c);
void blockPtrRows(Context &c);
void dotScaledRows(Context &c);

} // namespace conformance

/// The offsets and mask of a 1-D kernel over n elements in blocks of BLOCK.
#define KTC_OFFS                                                               \
  auto offs = program_id(0) * conformance::BLOCK +                             \
              arange(0, conformance::BLOCK);                                   \
  auto mask = offs < n

#endif // KTC_TEST_CONFORMANCE_H
