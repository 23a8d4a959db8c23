//===- ktc/Ops.h - what a kernel body can do --------------------*- C++ -*-===//
//
// The counterparts of Triton's tl.* functions. Every function records the
// caller's source location for diagnostics and for errors.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_OPS_H
#define KTC_OPS_H

#include "ktc/Value.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ktc {

using Loc = std::source_location;

/// The program's index and the grid's size along `axis` (0, 1 or 2): i32.
Value program_id(int axis, Loc loc = Loc::current());
Value num_programs(int axis, Loc loc = Loc::current());

/// The i32 block start, start + 1, ..., end - 1 (end - start a power of two).
Value arange(int64_t start, int64_t end, Loc loc = Loc::current());
/// A block of `shape` filled with `value` (of type `dtype`).
Value full(const std::vector<int64_t> &shape, const Operand &value,
           DType dtype, Loc loc = Loc::current());
Value zeros(const std::vector<int64_t> &shape, DType dtype,
            Loc loc = Loc::current());

/// x[None, :] is expand_dims(x, 0); x[:, None] is expand_dims(x, 1).
Value expand_dims(const Operand &x, int axis, Loc loc = Loc::current());
Value broadcast_to(const Operand &x, const std::vector<int64_t> &shape,
                   Loc loc = Loc::current());
/// The transpose of a 2-D block: permute(x, {1, 0}).
Value trans(const Operand &x, Loc loc = Loc::current());
/// Reorders the dimensions of a block: dimension i of the result is
/// dimension dims[i] of x (dims a permutation of 0 .. rank - 1).
Value permute(const Operand &x, const std::vector<int> &dims,
              Loc loc = Loc::current());
/// The elements of x, in row-major order, as a block of `shape` (the same
/// number of elements).
Value reshape(const Operand &x, const std::vector<int64_t> &shape,
              Loc loc = Loc::current());

/// Loads through a pointer or a block of pointers. Where `mask` is false
/// nothing is read and the element is `other` (undefined if absent).
Value load(const Operand &ptr, const Operand &mask = Operand(Loc()),
           const Operand &other = Operand(Loc()), Loc loc = Loc::current());
/// Stores `value` (converted to the pointee type) where `mask` is true.
void store(const Operand &ptr, const Operand &value,
           const Operand &mask = Operand(Loc()), Loc loc = Loc::current());

/// Reductions along `axis`, or along every axis when it is `all_axes`
/// (the default: a scalar); a 1-D block reduces to a scalar. `keep_dims`
/// keeps each reduced axis as a dimension of size 1 (Triton's keep_dims).
/// Defined in lib/Builder/Reductions.cpp, with the others below.
inline constexpr std::nullopt_t all_axes = std::nullopt;
Value max(const Operand &x, std::optional<int> axis = all_axes,
          bool keep_dims = false, Loc loc = Loc::current());
Value min(const Operand &x, std::optional<int> axis = all_axes,
          bool keep_dims = false, Loc loc = Loc::current());
Value sum(const Operand &x, std::optional<int> axis = all_axes,
          bool keep_dims = false, Loc loc = Loc::current());

/// How dot() multiplies f32 operands (Triton's input_precision): exactly
/// (ieee), or rounded to tf32 first (10 mantissa bits, to nearest with ties
/// away from zero), which lets NVIDIA's tensor cores and AMD's xf32 matrix
/// instructions take them.
enum class InputPrecision { ieee, tf32 };
/// acc + a x b for a (M x K) and b (K x N) blocks of one element type --
/// f16, bf16 or f32 -- and an f32 accumulator (M x N; f32 zeros when
/// absent, a scalar is broadcast): Triton's tl.dot. On GPUs it runs on the
/// matrix cores (mma/wgmma, MFMA, WMMA) where the shape and types allow.
Value dot(const Operand &a, const Operand &b,
          const Operand &acc = Operand(Loc()),
          InputPrecision precision = InputPrecision::ieee,
          Loc loc = Loc::current());

/// Elementwise. Float max/min ignore a NaN operand (like fmax).
Value maximum(const Operand &a, const Operand &b, Loc loc = Loc::current());
Value minimum(const Operand &a, const Operand &b, Loc loc = Loc::current());
/// Float division. `a / b` and div_rn(a, b) are correctly rounded on every
/// target; fdiv(a, b) is the target's fast division (NVPTX div.full.f32,
/// AMDGPU a reciprocal and a multiply; the host divides exactly): at most
/// 2 ulp from the exact quotient for quotients and divisors in the normal
/// range (docs/builder.md).
Value div_rn(const Operand &a, const Operand &b, Loc loc = Loc::current());
Value fdiv(const Operand &a, const Operand &b, Loc loc = Loc::current());
Value where(const Operand &cond, const Operand &a, const Operand &b,
            Loc loc = Loc::current());
Value exp(const Operand &x, Loc loc = Loc::current());
Value exp2(const Operand &x, Loc loc = Loc::current());
Value log(const Operand &x, Loc loc = Loc::current());
Value log2(const Operand &x, Loc loc = Loc::current());
Value sqrt(const Operand &x, Loc loc = Loc::current());
Value abs(const Operand &x, Loc loc = Loc::current());
Value cast(const Operand &x, DType dtype, Loc loc = Loc::current());
/// exp, exp2, log and log2 are within 2 ulp and give the same bits on every
/// target (docs/numerics.md). The fast_ forms are the target's hardware
/// approximations (NVPTX ex2.approx.ftz / lg2.approx, AMDGPU v_exp_f32 /
/// v_log_f32; the host's libm): quicker on GPUs, looser, and not the same
/// bits everywhere.
Value fast_exp(const Operand &x, Loc loc = Loc::current());
Value fast_exp2(const Operand &x, Loc loc = Loc::current());
Value fast_log(const Operand &x, Loc loc = Loc::current());
Value fast_log2(const Operand &x, Loc loc = Loc::current());

namespace detail {
/// Throws the ktc::Error of a cdiv by zero (or of MIN by -1) at `loc`.
[[noreturn]] void cdivFails(int64_t a, int64_t b, Loc loc);
/// Throws the ktc::Error of a next_pow2 beyond 2^62 at `loc`.
[[noreturn]] void nextPow2Fails(int64_t n, Loc loc);
} // namespace detail

/// Ceiling division: of two C++ integers (a constexpr; ceil(a / b) exactly,
/// for any signs, and a ktc::Error for b = 0 or a result beyond int64), or
/// of kernel values (never a trap: cdiv(x, 0) = -1, see docs/builder.md).
constexpr int64_t cdiv(int64_t a, int64_t b, Loc loc = Loc::current()) {
  if (b == 0 || (a == INT64_MIN && b == -1))
    detail::cdivFails(a, b, loc);
  int64_t q = a / b;
  return q + (a % b != 0 && (a < 0) == (b < 0) ? 1 : 0);
}
Value cdiv(const Operand &a, const Operand &b, Loc loc = Loc::current());
/// Smallest power of two >= n (1 for n <= 1); a ktc::Error above 2^62.
constexpr int64_t next_pow2(int64_t n, Loc loc = Loc::current()) {
  if (n > (int64_t(1) << 62))
    detail::nextPow2Fails(n, loc);
  int64_t p = 1;
  while (p < n)
    p <<= 1;
  return p;
}

/// body(i) for each i of Python's range(start, end, step), as an scf.for:
/// any step but a literal 0 (a runtime 0 runs no iteration), and bounds up
/// to the limits of their type (docs/builder.md#loops). Vars assigned in
/// the body are carried from one iteration to the next.
void for_range(const Operand &start, const Operand &end, const Operand &step,
               const std::function<void(Value)> &body,
               Loc loc = Loc::current());
/// if (cond) then(); else otherwise(); as an scf.if on a scalar i1. Vars
/// assigned in either branch hold the branch's value afterwards.
void if_(const Operand &cond, const std::function<void()> &then,
         const std::function<void()> &otherwise = nullptr,
         Loc loc = Loc::current());

//===----------------------------------------------------------------------===//
// Math (issue 19): lib/Builder/Math.cpp; accuracy in docs/numerics.md.
//===----------------------------------------------------------------------===//

/// Elementwise functions of floats (f16/bf16 computed in f32, rounded once),
/// the same bits on every target: tanh, erf, sin, cos and pow as exactly
/// rounded f32 arithmetic within the documented ulp bounds (sin/cos for
/// |x| <= 105615); floor, ceil, rint (to nearest, ties to even), round
/// (ties away from zero) and fma exact; rsqrt is 1 / sqrt(x), each rounded.
Value tanh(const Operand &x, Loc loc = Loc::current());
Value erf(const Operand &x, Loc loc = Loc::current());
Value sin(const Operand &x, Loc loc = Loc::current());
Value cos(const Operand &x, Loc loc = Loc::current());
Value floor(const Operand &x, Loc loc = Loc::current());
Value ceil(const Operand &x, Loc loc = Loc::current());
Value rint(const Operand &x, Loc loc = Loc::current());
Value round(const Operand &x, Loc loc = Loc::current());
Value rsqrt(const Operand &x, Loc loc = Loc::current());
/// a * b + c rounded once.
Value fma(const Operand &a, const Operand &b, const Operand &c,
          Loc loc = Loc::current());
/// x^y with C's special cases (pow(x, 0) = 1, pow(-8, 1/3) = NaN, ...).
Value pow(const Operand &x, const Operand &y, Loc loc = Loc::current());

/// Triton's tl.PropagateNan: whether a float maximum/minimum/clamp gives NaN
/// when an operand is NaN (all), or ignores it (none, like fmax).
enum class PropagateNan { none, all };
/// With PropagateNan::all: NaN (that operand's bits) if either is NaN, and
/// -0 < +0 (IEEE 754-2019 maximum/minimum).
Value maximum(const Operand &a, const Operand &b, PropagateNan nan,
              Loc loc = Loc::current());
Value minimum(const Operand &a, const Operand &b, PropagateNan nan,
              Loc loc = Loc::current());
/// minimum(maximum(x, lo), hi): numbers; for floats `nan` says what a NaN x
/// gives (none: lo's side is taken, as fmax(NaN, lo) = lo; all: NaN).
Value clamp(const Operand &x, const Operand &lo, const Operand &hi,
            PropagateNan nan = PropagateNan::none, Loc loc = Loc::current());
/// The high 32 (i32) or 64 (i64) bits of the unsigned product of a and b.
Value umulhi(const Operand &a, const Operand &b, Loc loc = Loc::current());
/// The same bits as another type of the same width (i32 <-> f32,
/// f16 <-> bf16).
Value bitcast(const Operand &x, DType dtype, Loc loc = Loc::current());
// Reductions (issue 19): argmax/argmin, xor_sum, reductions with a user's
// combine function (docs/builder.md#reductions).

/// The index (i32) of the largest / smallest element along `axis`, or of
/// all the elements in row-major order (`all_axes`); the first such index
/// on ties. A NaN counts as larger than every number for argmax and
/// smaller for argmin (the first NaN wins in both, as in torch).
Value argmax(const Operand &x, std::optional<int> axis = all_axes,
             bool keep_dims = false, Loc loc = Loc::current());
Value argmin(const Operand &x, std::optional<int> axis = all_axes,
             bool keep_dims = false, Loc loc = Loc::current());
/// The bitwise xor of an integer block's elements (Triton's xor_sum).
Value xor_sum(const Operand &x, std::optional<int> axis = all_axes,
              bool keep_dims = false, Loc loc = Loc::current());
/// A combine function: two partial results to one. It is called once, to
/// trace the op's combine region, with scalars of the block's element type,
/// and must return a scalar of that type computed from its arguments only.
/// It is assumed associative and commutative (targets combine in any order).
using Combine = std::function<Value(Value, Value)>;
/// The same for several blocks reduced together: a[i] and b[i] are two
/// partials of block i; it returns one value per block.
using CombineN = std::function<std::vector<Value>(const std::vector<Value> &,
                                                  const std::vector<Value> &)>;
/// Reduces `x` along `axis` (or all axes) with `combine` (Triton's
/// tl.reduce(x, axis, combine_fn)).
Value reduce(const Operand &x, std::optional<int> axis, const Combine &combine,
             bool keep_dims = false, Loc loc = Loc::current());
/// Reduces blocks of one shape together (e.g. values and their indices),
/// giving one result per block.
std::vector<Value> reduce(const std::vector<Value> &xs,
                          std::optional<int> axis, const CombineN &combine,
                          bool keep_dims = false, Loc loc = Loc::current());
// Scans (cumsum, cumprod, associative_scan; lib/Builder/Scans.cpp).
/// Inclusive scans of a block along `axis` (Triton's tl.cumsum and
/// tl.cumprod): element i is x[0] + ... + x[i] (x[i] + ... + x[n-1] with
/// `reverse`). i1 blocks scan in i32; i32 and i64 wrap; f16 and bf16 scan
/// in f32, each element rounded once to the element type. Every target
/// associates the same way (docs/builder.md#scans), so the bits agree.
Value cumsum(const Operand &x, int axis = 0, bool reverse = false,
             Loc loc = Loc::current());
Value cumprod(const Operand &x, int axis = 0, bool reverse = false,
              Loc loc = Loc::current());
/// Inclusive scan of a block with `combine`, an associative function of an
/// earlier scalar and a later one returning a scalar of the element type
/// (Triton's tl.associative_scan). It is traced once, into the scan's
/// region, and may use only its arguments and literals.
Value associative_scan(const Operand &x, int axis,
                       const std::function<Value(Value, Value)> &combine,
                       bool reverse = false, Loc loc = Loc::current());
/// The same over several blocks of one shape scanned together: `combine`
/// takes the earlier elements (one per block) and the later ones, and
/// returns one scalar per block, of its element type.
std::vector<Value> associative_scan(
    const std::vector<Value> &xs, int axis,
    const std::function<std::vector<Value>(const std::vector<Value> &,
                                           const std::vector<Value> &)>
        &combine,
    bool reverse = false, Loc loc = Loc::current());
// Atomics on global memory (Triton's tl.atomic_*; docs/builder.md#atomics).
/// The ordering of an atomic with the thread's other memory accesses.
enum class MemSem { relaxed, acquire, release, acq_rel };
/// The threads that ordering is with: the program's (cta), the device's
/// (gpu), or the device's and the host's (sys).
enum class MemScope { gpu, cta, sys };
/// Each element: old = *ptr; *ptr = old <op> val; returns old, atomically
/// and exactly once per element (replicated copies of a block do not
/// repeat it). `val` is converted to the pointee type and broadcast with
/// the pointers and the mask; where `mask` is false memory is untouched
/// and the returned element is undefined. add, max, min, xchg take i32,
/// i64 and f32 pointees; and, or, xor i32 and i64. Float max/min order the
/// bits as Triton does: -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN.
Value atomic_add(const Operand &ptr, const Operand &val,
                 const Operand &mask = Operand(Loc()),
                 MemSem sem = MemSem::acq_rel, MemScope scope = MemScope::gpu,
                 Loc loc = Loc::current());
Value atomic_max(const Operand &ptr, const Operand &val,
                 const Operand &mask = Operand(Loc()),
                 MemSem sem = MemSem::acq_rel, MemScope scope = MemScope::gpu,
                 Loc loc = Loc::current());
Value atomic_min(const Operand &ptr, const Operand &val,
                 const Operand &mask = Operand(Loc()),
                 MemSem sem = MemSem::acq_rel, MemScope scope = MemScope::gpu,
                 Loc loc = Loc::current());
Value atomic_xchg(const Operand &ptr, const Operand &val,
                  const Operand &mask = Operand(Loc()),
                  MemSem sem = MemSem::acq_rel, MemScope scope = MemScope::gpu,
                  Loc loc = Loc::current());
Value atomic_and(const Operand &ptr, const Operand &val,
                 const Operand &mask = Operand(Loc()),
                 MemSem sem = MemSem::acq_rel, MemScope scope = MemScope::gpu,
                 Loc loc = Loc::current());
Value atomic_or(const Operand &ptr, const Operand &val,
                const Operand &mask = Operand(Loc()),
                MemSem sem = MemSem::acq_rel, MemScope scope = MemScope::gpu,
                Loc loc = Loc::current());
Value atomic_xor(const Operand &ptr, const Operand &val,
                 const Operand &mask = Operand(Loc()),
                 MemSem sem = MemSem::acq_rel, MemScope scope = MemScope::gpu,
                 Loc loc = Loc::current());
/// Each element: old = *ptr; if (old == cmp) *ptr = val; returns old
/// (bits compared for f32; i32, i64, f32 pointees).
Value atomic_cas(const Operand &ptr, const Operand &cmp, const Operand &val,
                 const Operand &mask = Operand(Loc()),
                 MemSem sem = MemSem::acq_rel, MemScope scope = MemScope::gpu,
                 Loc loc = Loc::current());

//===----------------------------------------------------------------------===//
// Control and debugging (issue 19 items 6, 7): lib/Builder/Control.cpp,
// lib/Builder/Debug.cpp; docs/builder.md#loops, #early-exit, #debugging.
//===----------------------------------------------------------------------===//

/// while (cond()) body(); as an scf.while. `cond` returns a scalar i1 and
/// is traced once, like `body`; Vars assigned in either are carried from
/// one iteration to the next and hold their last values afterwards.
void while_(const std::function<Value()> &cond,
            const std::function<void()> &body, Loc loc = Loc::current());
/// `if (cond) return;` for the whole program: the rest of the kernel runs
/// only where the scalar (program-uniform) `cond` is false. Only at the
/// top level of the kernel's body; a block condition is an error (every
/// thread of a program leaves together, so later barriers cannot hang).
void return_if(const Operand &cond, Loc loc = Loc::current());
/// A ktc::Error "static assertion failed: <message>" at the caller's line
/// when `cond`, known at trace time (a C++ value, a constexpr parameter,
/// a folded constant), is false; a runtime value is an error.
void static_assert_(const Operand &cond, const std::string &message,
                    Loc loc = Loc::current());

/// device_print's prefix: its text and the caller's location.
struct PrintPrefix {
  PrintPrefix(const char *text, Loc loc = Loc::current())
      : text(text), loc(loc) {}
  PrintPrefix(std::string text, Loc loc = Loc::current())
      : text(std::move(text)), loc(loc) {}
  std::string text;
  Loc loc;
};
namespace detail {
void devicePrint(const std::string &prefix, const std::vector<Operand> &values,
                 Loc loc);
} // namespace detail
/// Triton's device_print: one line per element of each value (scalars or
/// blocks of integers or floats), "pid (X, Y, Z) idx (I) PREFIX: VALUE".
/// Only with Options::debug or KTC_DEBUG=1, else compiled out. On AMD GPUs
/// the records go to ROCm's printf buffer (docs/builder.md#debugging).
template <typename... V>
void device_print(const PrintPrefix &prefix, const V &...values) {
  detail::devicePrint(prefix.text, {Operand(values, prefix.loc)...},
                      prefix.loc);
}
/// Triton's device_assert: every element of `cond` (a boolean scalar or
/// block) must be true; only with Options::debug or KTC_DEBUG=1. On the
/// host a failure makes the launch throw a ktc::Error at this line naming
/// the program and element; on CUDA it traps (__assertfail), on AMDGPU
/// s_trap.
void device_assert(const Operand &cond, const std::string &message,
                   Loc loc = Loc::current());

//===----------------------------------------------------------------------===//
// Hints and cache modifiers (issue 19; lib/Builder/Hints.cpp,
// docs/builder.md#hints-and-cache-modifiers).
//===----------------------------------------------------------------------===//

/// Triton's tl.multiple_of and tl.max_contiguous: promises that the values
/// of x (an i32/i64 or pointer block or scalar computed in the kernel, or a
/// scalar argument for multiple_of) start runs divisible by `value` (for
/// pointers, in bytes) and run in steps of one for `value` elements,
/// along each dimension (one value per dimension; a single one for a
/// scalar or a 1-D block). The axis analysis believes them, so loads and
/// stores through such offsets vectorize; a false promise reads the wrong
/// memory. Each value must be a positive power of two. Returns x.
Value multiple_of(const Operand &x, const std::vector<int64_t> &values,
                  Loc loc = Loc::current());
Value multiple_of(const Operand &x, int64_t value, Loc loc = Loc::current());
Value max_contiguous(const Operand &x, const std::vector<int64_t> &values,
                     Loc loc = Loc::current());
Value max_contiguous(const Operand &x, int64_t value,
                     Loc loc = Loc::current());

/// Triton's cache_modifier and eviction_policy of tl.load / tl.store
/// (empty: none; one or the other): loads ".ca", ".cg", ".cv"; stores
/// ".wb", ".cg", ".cs", ".wt"; both "evict_first", "evict_last". NVPTX
/// emits them as PTX's ld/st qualifiers (ld.global.cg, .L1::evict_first);
/// AMDGPU sets `nt` for the streaming ones; the host ignores them.
struct CacheHints {
  std::string cache_modifier;
  std::string eviction_policy;
};
Value load(const Operand &ptr, const Operand &mask, const Operand &other,
           const CacheHints &hints, Loc loc = Loc::current());
void store(const Operand &ptr, const Operand &value, const Operand &mask,
           const CacheHints &hints, Loc loc = Loc::current());

// join, split, interleave, cat (issue 17; lib/Builder/JoinSplit.cpp):
// written with expand_dims, broadcast, where, reduce, permute and reshape,
// free in registers where the layout keeps the pair in one thread.
/// a and b (broadcast to one shape S, of one element type) side by side
/// along a new last dimension of size 2 (Triton's tl.join): shape S + [2],
/// [..., 0] from a and [..., 1] from b; two scalars give a block of 2.
Value join(const Operand &a, const Operand &b, Loc loc = Loc::current());
/// The inverse of join (Triton's tl.split): x[..., 0] and x[..., 1] of a
/// block whose last dimension has size 2 (scalars for a block of 2).
std::pair<Value, Value> split(const Operand &x, Loc loc = Loc::current());
/// a[0], b[0], a[1], b[1], ... along the last dimension (Triton's
/// tl.interleave): join with its last two dimensions merged.
Value interleave(const Operand &a, const Operand &b,
                 Loc loc = Loc::current());
/// a then b along dimension 0 (two blocks of one shape: [2 s0, s1, ...]),
/// in order (Triton's tl.cat, which needs can_reorder=True, may reorder).
Value cat(const Operand &a, const Operand &b, Loc loc = Loc::current());
// The rest of Triton's language (issue 19, wt-c): tl.sigmoid, tl.flip,
// tl.swizzle2d, tl.assume, tl.max_constancy, tl.debug_barrier
// (docs/builder.md#the-rest-of-tritons-language).

/// 1 / (1 + exp(-x)) of a float block or scalar, in its type.
Value sigmoid(const Operand &x, Loc loc = Loc::current());
/// x with the order of its elements along `dim` reversed (the last
/// dimension when absent; negative counts from the end).
Value flip(const Operand &x, std::optional<int> dim = std::nullopt,
           Loc loc = Loc::current());
/// Triton's swizzle2d: the (row, column) that (i, j) of a size_i x size_j
/// grid maps to when its rows are visited in groups of size_g (the grouped
/// tile order of a matmul). Integers (scalars or blocks); returns
/// {new_i, new_j}.
std::pair<Value, Value> swizzle2d(const Operand &i, const Operand &j,
                                  const Operand &size_i, const Operand &size_j,
                                  const Operand &size_g,
                                  Loc loc = Loc::current());
/// Tells the compiler that a scalar condition holds (llvm.assume); a false
/// one is undefined behaviour, as in Triton.
void assume(const Operand &cond, Loc loc = Loc::current());
/// Hint: x's values are constant in runs of `value` elements along each
/// dimension (one value per dimension), as multiple_of and max_contiguous.
Value max_constancy(const Operand &x, const std::vector<int64_t> &values,
                    Loc loc = Loc::current());
Value max_constancy(const Operand &x, int64_t value, Loc loc = Loc::current());
/// A barrier among the threads of a program (bar.sync, s_barrier); nothing
/// on the host, where one thread runs a program.
void debug_barrier(Loc loc = Loc::current());

// Inline assembly (issue 19; lib/Builder/InlineAsm.cpp,
// docs/builder.md#inline-assembly).

/// One target's inline assembly: its text and its constraints, in LLVM's
/// inline-assembly syntax ("$0", "$1" name the registers; "=r,r,r").
struct InlineAsm {
  std::string asm_string;
  std::string constraints;
};
/// Inline assembly for each target a kernel may be compiled for: "host"
/// (x86-64, AT&T syntax), "nvptx" (PTX), "amdgpu" (AMDGPU assembly), and
/// "any" for a target without an entry of its own. Compiling for a target
/// with neither is a ktc::Error at the call's line.
using InlineAsmByTarget = std::map<std::string, InlineAsm>;
/// Triton's tl.inline_asm_elementwise: `args` (blocks or scalars of
/// integers of 8 to 64 bits or f16/bf16/f32/f64; literals are i32 or f32)
/// are broadcast to one shape; the assembly runs once per group of `pack`
/// elements (a power of two dividing the block's size) and gives that
/// group's elements of each result, of type `dtype` (one result) or
/// `dtypes` (several), in the broadcast shape. Elements narrower than 32
/// bits share a 32-bit register, min(32 / width, pack) of them, the first
/// in the low bits; the constraints name the result registers, then the
/// argument registers. `is_pure`: no effect besides the results (it may be
/// removed or merged). The string forms use one assembly for every target,
/// as Triton does: it must be written for the target the kernel is
/// compiled for, and LLVM's assembler errors name the call's line.
Value inline_asm_elementwise(const std::string &asm_string,
                             const std::string &constraints,
                             const std::vector<Operand> &args, DType dtype,
                             bool is_pure, int pack, Loc loc = Loc::current());
std::vector<Value>
inline_asm_elementwise(const std::string &asm_string,
                       const std::string &constraints,
                       const std::vector<Operand> &args,
                       const std::vector<DType> &dtypes, bool is_pure,
                       int pack, Loc loc = Loc::current());
Value inline_asm_elementwise(const InlineAsmByTarget &asm_by_target,
                             const std::vector<Operand> &args, DType dtype,
                             bool is_pure, int pack, Loc loc = Loc::current());
std::vector<Value>
inline_asm_elementwise(const InlineAsmByTarget &asm_by_target,
                       const std::vector<Operand> &args,
                       const std::vector<DType> &dtypes, bool is_pure,
                       int pack, Loc loc = Loc::current());

} // namespace ktc

#endif // KTC_OPS_H
