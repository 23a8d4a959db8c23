//===- multi_gpu - work split across every device found -------------------===//
//
// One host thread per device of a kind (every GPU of the box, or the host's
// KTC_HOST_DEVICES logical devices). --workload=softmax (the default): each
// copies its share of the rows to its own device, runs the online softmax
// there and copies them back. The kernel is compiled once per arch and
// loaded once per device; the threads launch at once. Checked against a
// float64 reference, the output poisoned first. --repeat=N times N launches
// per device, all devices at once, so that a run with --devices=1 and one
// with every device can be compared. --workload=matmul is the compute-bound
// one (matmul.cpp): bands of the matmul's tiles, --speedup comparing one
// device with all in TFLOP/s.
//
//   multi_gpu --device=cuda --rows=65536 --cols=4096 --repeat=200
//   multi_gpu --device=cuda --workload=matmul --m=16384 --n=8192 --k=8192 \
//     --block-m=128 --block-n=256 --block-k=64 --warps=8 --stages=3 \
//     --repeat=51 --speedup --check-rows=64
//
//===----------------------------------------------------------------------===//

#include "examples/common/example.h"
#include "examples/kernels/matmul.h"
#include "examples/kernels/seeds.h"
#include "examples/multi_gpu/multi_gpu.h"

#include <chrono>
#include <mutex>
#include <thread>
#include <tuple>

using namespace ktc;

namespace {
namespace cl = llvm::cl;
cl::OptionCategory category("multi_gpu flags");
namespace flag {
cl::opt<std::string> device(
    "device",
    cl::desc("The kind of device to split over (default auto: KTC_DEVICE's "
             "kind, else\nCUDA GPUs, else AMD GPUs, else the host)"),
    cl::value_desc("auto|cpu|cuda|hip"), cl::init("auto"), cl::cat(category));
cl::opt<long long, false, example::Int<0, 64>>
    devices("devices", cl::desc("Use the first N devices (default 0: all)"),
            cl::init(0), cl::cat(category));
cl::opt<long long, false, example::Int<1, INT32_MAX>>
    rows("rows", cl::desc("The matrix's rows (default 1823)"), cl::init(1823),
         cl::cat(category));
cl::opt<long long, false, example::Int<1, INT32_MAX>>
    cols("cols", cl::desc("The matrix's columns (default 781)"), cl::init(781),
         cl::cat(category));
cl::opt<long long, false, example::Int<1, 100000>>
    repeat("repeat", cl::desc("Launches per device, timed (default 1)"),
           cl::init(1), cl::cat(category));
cl::opt<long long, false, example::Int<>>
    seed("seed", cl::desc("Random seed (default 0)"), cl::init(0),
         cl::cat(category));
cl::opt<std::string> workload(
    "workload",
    cl::desc("What to split (default softmax: rows of a softmax; matmul: "
             "bands of\nthe tiles of C = A x B)"),
    cl::value_desc("softmax|matmul"), cl::init("softmax"), cl::cat(category));
// The matmul's (--workload=matmul).
using Size = example::Int<1, INT32_MAX>;
using Block = example::Int<1, 1024>;
cl::opt<long long, false, Size> m("m", cl::desc("matmul: A's rows, M (default "
                                                "333)"),
                                  cl::init(333), cl::cat(category));
cl::opt<long long, false, Size> n("n", cl::desc("matmul: B's columns, N "
                                                "(default 271)"),
                                  cl::init(271), cl::cat(category));
cl::opt<long long, false, Size> k("k", cl::desc("matmul: A's columns, K "
                                                "(default 129)"),
                                  cl::init(129), cl::cat(category));
cl::opt<std::string> dtype("dtype",
                           cl::desc("matmul: the inputs' and the output's "
                                    "type (default f16)"),
                           cl::value_desc("f16|bf16"), cl::init("f16"),
                           cl::cat(category));
cl::opt<long long, false, Block>
    blockM("block-m", cl::desc("matmul: BLOCK_M, a power of two (default 32)"),
           cl::init(32), cl::cat(category));
cl::opt<long long, false, Block>
    blockN("block-n", cl::desc("matmul: BLOCK_N, a power of two (default 32)"),
           cl::init(32), cl::cat(category));
cl::opt<long long, false, Block>
    blockK("block-k", cl::desc("matmul: BLOCK_K, a power of two (default 32)"),
           cl::init(32), cl::cat(category));
cl::opt<long long, false, example::Int<1, 1024>>
    groupM("group-m", cl::desc("matmul: GROUP_M (default 8)"),
           cl::init(seeds::kMatmulGroupM), cl::cat(category));
cl::opt<long long, false, example::Int<1, 32>>
    warps("warps", cl::desc("matmul: warps per program (default 4)"),
          cl::init(seeds::kMatmulWarps), cl::cat(category));
cl::opt<long long, false, example::Int<1, 8>>
    stages("stages", cl::desc("matmul: pipeline stages (default 1)"),
           cl::init(1), cl::cat(category));
cl::opt<bool> speedup("speedup",
                      cl::desc("matmul, with --repeat: time the whole "
                               "matmul on the first device\nalone, then "
                               "split over all, and print the ratio"),
                      cl::cat(category));
cl::opt<long long, false, example::Int<0, INT32_MAX>>
    checkRows("check-rows",
              cl::desc("matmul: check this many rows of C against float64, "
                       "each band's\nfirst and last among them (default 0: "
                       "all)"),
              cl::init(0), cl::cat(category));
} // namespace flag

/// The kind named by --device ("auto": KTC_DEVICE's kind, else the first
/// kind with a device).
DeviceKind kindOf(const std::string &spec) {
  if (spec == "auto")
    return Device::get("auto").kind();
  return Device::get(spec).kind();
}
} // namespace

int main(int argc, char **argv) {
  example::parseFlags(argc, argv, category,
                      "softmax rows split over every device, one thread each");
  try {
    const int64_t rows = flag::rows, cols = flag::cols;
    const int repeat = int(flag::repeat);
    const std::string workload = flag::workload;
    const multi_gpu::MatmulFlags mm{
        .M = flag::m, .N = flag::n, .K = flag::k, .dtype = flag::dtype,
        .blockM = int(flag::blockM), .blockN = int(flag::blockN),
        .blockK = int(flag::blockK), .groupM = int(flag::groupM),
        .warps = int(flag::warps), .stages = int(flag::stages),
        .repeat = repeat, .speedup = flag::speedup,
        .checkRows = flag::checkRows, .seed = uint64_t(flag::seed)};
    if (workload != "softmax" && workload != "matmul")
      example::fail("--workload must be softmax or matmul, not '" + workload +
                    "'");
    if (mm.dtype != "f16" && mm.dtype != "bf16")
      example::fail("--dtype must be f16 or bf16, not '" + mm.dtype + "'");
    for (auto [name, block] : {std::pair{"--block-m", mm.blockM},
                               std::pair{"--block-n", mm.blockN},
                               std::pair{"--block-k", mm.blockK}})
      if (block & (block - 1))
        example::fail(std::string(name) + " must be a power of two, got " +
                      std::to_string(block));
    for (auto [name, r, c] : {std::tuple{"--m x --k", mm.M, mm.K},
                              std::tuple{"--k x --n", mm.K, mm.N},
                              std::tuple{"--m x --n", mm.M, mm.N}})
      if (workload == "matmul" && r * c >= (int64_t(1) << 31))
        example::fail(std::string(name) + " must be fewer than 2^31 " +
                      "elements (got " + std::to_string(r) + " x " +
                      std::to_string(c) + ")");
    // [list]
    std::vector<DeviceInfo> found = Device::list(kindOf(flag::device));
    // [end list]
    size_t n = found.size();
    if (flag::devices > 0)
      n = std::min<size_t>(n, flag::devices);
    if (workload == "matmul")
      return multi_gpu::runMatmul(mm, found, n);
    std::printf("multi_gpu: %lld x %lld over %zu device%s\n", (long long)rows,
                (long long)cols, n, n == 1 ? "" : "s");

    auto softmax = Kernel("softmax_online", seeds::softmax_online);
    auto hin = example::randomVector(rows * cols, flag::seed);
    std::vector<float> got(hin.size(), NAN); // poisoned
    std::vector<std::string> errors(n);
    std::vector<double> ms(n);
    std::mutex print;
    // [threads]
    std::vector<std::thread> threads;
    for (size_t i = 0; i < n; ++i)
      threads.emplace_back([&, i] {
        try {
          // Rows [begin, end) on device i, opened by its index.
          Device &device = Device::get(found[i].spec());
          int64_t begin = rows * int64_t(i) / int64_t(n),
                  end = rows * int64_t(i + 1) / int64_t(n), mine = end - begin;
          if (mine == 0)
            return;
          std::vector<float> part(hin.begin() + begin * cols,
                                  hin.begin() + end * cols);
          Buffer<float> in(device, part);
          Buffer<float> out(device, std::vector<float>(part.size(), NAN));
          softmax.launch({mine}, in, out, cols, cols, 256); // compile, load
          device.synchronize();
          // [end threads]
          auto start = std::chrono::steady_clock::now();
          for (int r = 1; r < repeat; ++r)
            softmax.launch({mine}, in, out, cols, cols, 256);
          device.synchronize();
          ms[i] = std::chrono::duration<double, std::milli>(
                      std::chrono::steady_clock::now() - start)
                      .count();
          std::vector<float> back = out.to_host();
          std::copy(back.begin(), back.end(), got.begin() + begin * cols);
          std::lock_guard<std::mutex> lock(print);
          std::printf("  %s: rows %lld to %lld on %s\n", device.spec().c_str(),
                      (long long)begin, (long long)end - 1,
                      device.name().c_str());
        } catch (const Error &e) {
          errors[i] = e.what();
        }
      });
    for (std::thread &t : threads)
      t.join();
    for (const std::string &e : errors)
      if (!e.empty()) {
        std::fprintf(stderr, "%s\n", e.c_str());
        return 2;
      }
    std::printf("compiled %zu time%s, loaded on %zu device%s\n",
                softmax.num_compiled(), softmax.num_compiled() == 1 ? "" : "s",
                softmax.num_loaded(), softmax.num_loaded() == 1 ? "" : "s");
    if (repeat > 1) {
      double slowest = *std::max_element(ms.begin(), ms.end());
      double bytes = 8.0 * rows * cols * (repeat - 1);
      std::printf("bench: %d launches per device in %.3f ms, %.1f GB/s over "
                  "%zu device%s\n",
                  repeat - 1, slowest, bytes / (slowest * 1e6), n,
                  n == 1 ? "" : "s");
    }
    return example::report(got, example::softmaxReference(hin, rows, cols),
                           1e-4,
                           "multi_gpu softmax " + std::to_string(rows) + "x" +
                               std::to_string(cols) + " on " +
                               std::to_string(n) + " devices");
  } catch (const Error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
