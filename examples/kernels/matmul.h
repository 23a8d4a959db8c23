//===- matmul.h - Triton's tutorial matmul, in C++ ---------------*- C++ -*-===//
//
// C = A x B for f16 or bf16 matrices of any shape and strides, accumulated
// in f32 with dot() and written in the inputs' type, with an optional fused
// leaky ReLU: Triton's tutorial "03-matrix-multiplication", line for line.
// Shared by examples/matmul, the tutorial (docs/tutorial.md, step 10) and
// the tests.
//
// Each program computes one BLOCK_M x BLOCK_N tile of C, walking K in
// BLOCK_K steps. The programs are numbered in groups of GROUP_M tile rows
// (the tutorial's "grouped ordering"): consecutive programs, running at the
// same time, share the same few tiles of A and sweep across B, so more of
// what they load is still in the L2 cache. An edge tile's rows and columns
// wrap around (% M, % N) and its store is masked; the loads are masked
// along K only (other = 0, which adds nothing to the dot), so M, N and K
// need not be multiples of the blocks. Triton's tutorial carries a_ptrs
// and b_ptrs through the loop and advances them; ktc compiles that spelling
// too (the axis analysis and the pipeliners follow carried pointers), but
// where the loads go element by element (K or a stride not a multiple of
// 8) every element's 64-bit pointer is then carried in registers, so here
// the loop computes its offsets from k. Offsets are i32: each matrix
// must span fewer than 2^31 elements.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_EXAMPLES_KERNELS_MATMUL_H
#define KTC_EXAMPLES_KERNELS_MATMUL_H

#include "ktc/ktc.h"

namespace ktc::seeds {

/// The epilogues matmul's ACTIVATION constexpr selects.
constexpr int kMatmulNone = 0, kMatmulLeakyRelu = 1;

/// The tile the example uses by default, and its launch options: one of
/// Triton's tutorial configs for CUDA (get_cuda_autotune_config).
constexpr int kMatmulBlockM = 128, kMatmulBlockN = 64, kMatmulBlockK = 32;
constexpr int kMatmulGroupM = 8, kMatmulWarps = 4, kMatmulStages = 4;

// [matmul]
/// x where x >= 0, else 0.01 x (the tutorial's leaky_relu).
inline Value leaky_relu(const Operand &x) {
  return where(x >= 0, x, 0.01f * x);
}

/// c (M x N) = a (M x K) @ b (K x N), element (i, j) of a matrix at
/// i * stride_0 + j * stride_1: a transposed input is only other strides.
/// The grid is cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N) programs, in one
/// dimension.
template <typename T>
void matmul(Ptr<T> a, Ptr<T> b, Ptr<T> c, Int M, Int N, Int K, Int stride_am,
            Int stride_ak, Int stride_bk, Int stride_bn, Int stride_cm,
            Int stride_cn, int BLOCK_M, int BLOCK_N, int BLOCK_K, int GROUP_M,
            int ACTIVATION) {
  // The program's tile (pid_m, pid_n), in groups of GROUP_M tile rows.
  auto pid = program_id(0);
  auto num_pid_m = cdiv(M, BLOCK_M);
  auto num_pid_n = cdiv(N, BLOCK_N);
  auto num_pid_in_group = GROUP_M * num_pid_n;
  auto group_id = pid / num_pid_in_group;
  auto first_pid_m = group_id * GROUP_M;
  auto group_size_m = minimum(num_pid_m - first_pid_m, GROUP_M);
  auto pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m;
  auto pid_n = (pid % num_pid_in_group) / group_size_m;

  // The tile's rows and columns, wrapped (% M, % N) as the tutorial does:
  // an edge tile then reads valid rows and columns again instead of
  // masking them, and only K is masked in the loop.
  auto offs_m = pid_m * BLOCK_M + arange(0, BLOCK_M);
  auto offs_n = pid_n * BLOCK_N + arange(0, BLOCK_N);
  // (Unsigned, as offsets are never negative: the compiler then knows the
  // wrapped columns still come in runs it can load 16 bytes at a time.)
  auto wrap = [](const Value &x, const Int &n) {
    return cast(cast(x, DType::u32) % cast(n, DType::u32), DType::i32);
  };
  auto am = expand_dims(wrap(offs_m, M), 1); // [:, None]
  auto bn = expand_dims(wrap(offs_n, N), 0); // [None, :]
  Var acc = zeros({BLOCK_M, BLOCK_N}, DType::f32);
  for_range(0, K, BLOCK_K, [&](Value k) {
    auto offs_k = k + arange(0, BLOCK_K);
    auto ka = expand_dims(offs_k, 0); // a's columns
    auto kb = expand_dims(offs_k, 1); // b's rows
    auto x = load(a + (am * stride_am + ka * stride_ak), ka < K, 0);
    auto y = load(b + (kb * stride_bk + bn * stride_bn), kb < K, 0);
    acc = dot(x, y, acc); // f32 += x @ y
  });
  auto rows = expand_dims(offs_m, 1);
  auto cols = expand_dims(offs_n, 0);
  Value result = acc;
  if (ACTIVATION == kMatmulLeakyRelu) // a constexpr: decided when tracing
    result = leaky_relu(result);
  store(c + rows * stride_cm + cols * stride_cn,
        cast(result, dtype_of<T>::value), (rows < M) & (cols < N));
}
// [end matmul]

/// The same product and grid with block pointers (Triton's make_block_ptr
/// and advance, ktc/BlockPtr.h): each tile of A, B and C is named by its
/// offsets, A's and B's are walked along K by advance(), and every load
/// and store is checked at the matrices' edges (zeros read past them)
/// instead of wrapping the rows and masking K. The grouped order is
/// swizzle2d's, which is the tutorial's formula. Its addresses are i64:
/// any matrix size.
template <typename T>
void matmul_block_ptr(Ptr<T> a, Ptr<T> b, Ptr<T> c, Int M, Int N, Int K,
                      Int stride_am, Int stride_ak, Int stride_bk,
                      Int stride_bn, Int stride_cm, Int stride_cn, int BLOCK_M,
                      int BLOCK_N, int BLOCK_K, int GROUP_M, int ACTIVATION) {
  auto pid = program_id(0);
  auto num_pid_n = cdiv(N, BLOCK_N);
  auto [pid_m, pid_n] = swizzle2d(pid / num_pid_n, pid % num_pid_n,
                                  cdiv(M, BLOCK_M), num_pid_n, GROUP_M);
  auto a_tile = make_block_ptr(a, {M, K}, {stride_am, stride_ak},
                               {pid_m * BLOCK_M, 0}, {BLOCK_M, BLOCK_K},
                               {1, 0});
  auto b_tile = make_block_ptr(b, {K, N}, {stride_bk, stride_bn},
                               {0, pid_n * BLOCK_N}, {BLOCK_K, BLOCK_N},
                               {1, 0});
  Var acc = zeros({BLOCK_M, BLOCK_N}, DType::f32);
  for_range(0, K, BLOCK_K, [&](Value) {
    acc = dot(load(a_tile, {0, 1}), load(b_tile, {0, 1}), acc);
    a_tile = advance(a_tile, {0, BLOCK_K});
    b_tile = advance(b_tile, {BLOCK_K, 0});
  });
  Value result = acc;
  if (ACTIVATION == kMatmulLeakyRelu)
    result = leaky_relu(result);
  auto c_tile = make_block_ptr(c, {M, N}, {stride_cm, stride_cn},
                               {pid_m * BLOCK_M, pid_n * BLOCK_N},
                               {BLOCK_M, BLOCK_N}, {1, 0});
  store(c_tile, cast(result, dtype_of<T>::value), {0, 1});
}

} // namespace ktc::seeds

#endif // KTC_EXAMPLES_KERNELS_MATMUL_H
