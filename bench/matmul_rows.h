//===- matmul_rows.h - ktc-bench's matmul rows ---------------------*- C++ -*-===//
//
// The matmul rows of ktc-bench (ktc-bench --matmul), the shapes bench/
// peer.py times Triton's tutorial matmul and torch.matmul (cuBLAS) on, and
// the host dot benchmark's kernel (bench/host_dot.cpp).
//
// The rows run examples/kernels/matmul.h (seeds::matmul, Triton's tutorial
// matmul in ktc) on row-major operands, autotuned by ktc::Autotuner on key
// (M, N, K) over the tutorial's configs for the device
// (examples/kernels/matmul_configs.h; on CUDA all 16 of
// get_cuda_autotune_config, the list bench/peer_matmul.py tunes Triton
// over), and timed through the tuner's launch, as peer.py times Triton's.
//
// Rows: bench matmul_f16 / matmul_bf16, columns M and N of the CSV (K is
// the shape's, kMatmulShapes), block = the chosen BLOCK_M, its num_warps,
// and the rate column (named gbps for the other rows) holds TFLOP/s =
// 2·M·N·K / time.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_BENCH_MATMUL_ROWS_H
#define KTC_BENCH_MATMUL_ROWS_H

#include "ktc/Bench.h"
#include "ktc/ktc.h"

#include <functional>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

namespace ktc::bench {

/// The host dot benchmark's kernel: c (M x N) = a (M x K) @ b (K x N); row
/// strides sam, sbk and scm; c of type C (f32 there). The tutorial's
/// program order, the rows and columns of a and b wrapped modulo M and N
/// (no mask), the K tail masked. One BLOCK_M x BLOCK_N tile of c a program,
/// cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N) programs on axis 0.
template <typename T, typename C = T>
void tiled_matmul(Ptr<T> a, Ptr<T> b, Ptr<C> c, Int M, Int N, Int K, Int sam,
                  Int sbk, Int scm, int BLOCK_M, int BLOCK_N, int BLOCK_K,
                  int GROUP_M) {
  auto pid = program_id(0);
  auto tilesN = cdiv(N, BLOCK_N);
  auto perGroup = tilesN * GROUP_M;
  auto first = pid / perGroup * GROUP_M;
  auto groupRows = minimum(cdiv(M, BLOCK_M) - first, GROUP_M);
  auto pm = first + pid % perGroup % groupRows;
  auto pn = pid % perGroup / groupRows;
  auto rows = pm * BLOCK_M + arange(0, BLOCK_M);
  auto cols = pn * BLOCK_N + arange(0, BLOCK_N);
  auto am = expand_dims(rows % M, 1); // wrapped: every load in bounds
  auto bn = expand_dims(cols % N, 0);
  auto ka = expand_dims(arange(0, BLOCK_K), 0);
  auto kb = expand_dims(arange(0, BLOCK_K), 1);
  Var acc = zeros({BLOCK_M, BLOCK_N}, DType::f32);
  for_range(0, K, BLOCK_K, [&](Value k) {
    auto x = load(a + am * sam + (k + ka), ka < K - k, 0);
    auto y = load(b + (k + kb) * sbk + bn, kb < K - k, 0);
    acc = dot(x, y, acc);
  });
  auto cm = expand_dims(rows, 1), cn = expand_dims(cols, 0);
  store(c + cm * scm + cn, acc, (cm < M) & (cn < N));
}

struct MatmulShape {
  int64_t M, N, K;
};
/// bench/peer.py's and bench/report.py's shapes (the same order).
inline constexpr MatmulShape kMatmulShapes[] = {{1024, 1024, 1024},
                                                {4096, 4096, 4096},
                                                {8192, 8192, 8192},
                                                {1000, 1000, 1000},
                                                {3001, 517, 2049}};

/// A tile and launch options: the config the autotuner chose.
struct MatmulConfig {
  int blockM = 128, blockN = 128, blockK = 32, groupM = 8;
  int warps = 4, stages = 4;
};

/// One measured matmul row: bench is matmul_f16 or matmul_bf16.
struct MatmulRow {
  std::string bench;
  MatmulShape shape;
  MatmulConfig config;
  Result time;
  double tflops = 0, worst = 0; // worst: the largest error / its bound
};

/// The matmul rows on `device`: for each of `shapes` and dtype that `wanted`
/// accepts, the kernel is autotuned and launched on random operands (c
/// poisoned first; the configs are timed with `options`) and checked at
/// 1024 sampled elements and the four corners against float64 (within the
/// f32 summation bound and the rounding to the result's type), then timed
/// with do_bench; `row` gets each measured row, `fail` each error or wrong
/// result (that row is skipped).
void matmulRows(Device &device, const Options &options,
                const std::function<bool(const std::string &bench,
                                         int64_t M, int64_t N)> &wanted,
                const std::function<void(const MatmulRow &)> &row,
                const std::function<void(const std::string &what,
                                         const std::string &why)> &fail,
                const std::vector<MatmulShape> &shapes =
                    {std::begin(kMatmulShapes), std::end(kMatmulShapes)});

/// "matmul_f16 1000x1000x1000 tile=128x128x32 warps=4 stages=4 ms=... ".
std::string describe(const MatmulRow &row);

/// "MxNxK", each from 1 to 2^31 - 1, or nullopt.
std::optional<MatmulShape> parseShape(const std::string &text);

} // namespace ktc::bench

#endif // KTC_BENCH_MATMUL_ROWS_H
