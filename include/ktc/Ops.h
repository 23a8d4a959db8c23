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

/// Reductions along `axis`; a 1-D block reduces to a scalar.
Value max(const Operand &x, int axis, Loc loc = Loc::current());
Value min(const Operand &x, int axis, Loc loc = Loc::current());
Value sum(const Operand &x, int axis, Loc loc = Loc::current());

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

} // namespace ktc

#endif // KTC_OPS_H
