//===- HostMoveBitsTest.cpp - moved f16/bf16 keep their bits on any host --===//
//
// `where(c, a, b)` and `load(p, mask, other)` move 16-bit floats without
// computing on them: every one of the 65536 bit patterns of bf16 and of f16
// (subnormals, ±0, signalling NaNs, NaN payloads) must come out unchanged,
// whatever the host CPU. LLVM's x86 backend carried a bfloat select or phi
// in an f32 register on CPUs with AVX512-BF16 and stored it with
// vcvtneps2bf16, which flushed subnormals and quieted signalling NaNs
// (issue 22): the host pipeline now moves them as i16
// (ktc-host-half-floats-as-i16). Each kernel is compiled for this CPU
// through the public API, and through the host target's CPU seam for named
// CPUs with and without AVX512-BF16/FP16 and for this CPU without them.
//
//===----------------------------------------------------------------------===//

#include "ktc/ktc.h"
#include "lib/Target/CPU/HostTarget.h"
#include "HostCpus.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using namespace ktc;

namespace {

constexpr int BLOCK = 256;
constexpr int N = 1 << 16;

/// Odd lanes take x, even lanes y: through where, and through a load whose
/// masked-off lanes are `other` = y.
void move16(Ptr<bfloat16> xb, Ptr<bfloat16> yb, Ptr<half> xh, Ptr<half> yh,
            Ptr<bfloat16> wb, Ptr<bfloat16> lb, Ptr<half> wh, Ptr<half> lh,
            Int n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  auto odd = mask & ((offs & 1) != 0);
  auto ab = load(xb + offs, mask), bb = load(yb + offs, mask);
  auto ah = load(xh + offs, mask), bh = load(yh + offs, mask);
  store(wb + offs, where(odd, ab, bb), mask);
  store(lb + offs, load(xb + offs, odd, bb), mask);
  store(wh + offs, where(odd, ah, bh), mask);
  store(lh + offs, load(xh + offs, odd, bh), mask);
}

/// x: every pattern; y: every pattern in another order, so that each
/// pattern reaches both lanes.
std::vector<uint16_t> xs() {
  std::vector<uint16_t> v(N);
  for (int i = 0; i < N; ++i)
    v[i] = uint16_t(i);
  return v;
}
std::vector<uint16_t> ys() {
  std::vector<uint16_t> v(N);
  for (int i = 0; i < N; ++i)
    v[i] = uint16_t(i * 40503u + 7u); // odd multiplier: a permutation
  return v;
}

/// The four outputs (wb, lb, wh, lh) must be x in odd lanes, y in even.
void check(const std::vector<std::vector<uint16_t>> &outs) {
  static const char *names[] = {"bf16 where", "bf16 load other", "f16 where",
                                "f16 load other"};
  std::vector<uint16_t> x = xs(), y = ys();
  for (size_t k = 0; k < outs.size(); ++k) {
    int failures = 0;
    for (int i = 0; i < N; ++i) {
      uint16_t want = i & 1 ? x[i] : y[i];
      if (outs[k][i] != want && ++failures <= 5)
        ADD_FAILURE() << names[k] << " lane " << i << ": got 0x" << std::hex
                      << outs[k][i] << ", want 0x" << want;
    }
    EXPECT_EQ(failures, 0) << names[k];
  }
}

template <typename T> std::vector<T> as(const std::vector<uint16_t> &bits) {
  std::vector<T> out;
  for (uint16_t b : bits)
    out.push_back(T{b});
  return out;
}

template <typename T> std::vector<uint16_t> bitsOf(const std::vector<T> &v) {
  std::vector<uint16_t> out;
  for (T t : v)
    out.push_back(t.bits);
  return out;
}

TEST(HostMoveBits, WhereAndLoadOtherKeepEveryPatternOnThisCpu) {
  Device &cpu = Device::get("cpu");
  auto kernel = Kernel("move16", move16);
  Buffer<bfloat16> xb(cpu, as<bfloat16>(xs())), yb(cpu, as<bfloat16>(ys())),
      wb(cpu, std::vector<bfloat16>(N, {0x1234})),
      lb(cpu, std::vector<bfloat16>(N, {0x1234}));
  Buffer<half> xh(cpu, as<half>(xs())), yh(cpu, as<half>(ys())),
      wh(cpu, std::vector<half>(N, {0x1234})),
      lh(cpu, std::vector<half>(N, {0x1234}));
  kernel.launch({N / BLOCK}, xb, yb, xh, yh, wb, lb, wh, lh, N);
  check({bitsOf(wb.to_host()), bitsOf(lb.to_host()), bitsOf(wh.to_host()),
         bitsOf(lh.to_host())});
}

using ktc::test::canRun;

TEST(HostMoveBits, NoCpuFeatureDecidesTheBits) {
#if !defined(__x86_64__)
  GTEST_SKIP() << "the CPUs named here are x86-64 ones";
#endif
  std::string text = Kernel("move16", move16).mlir();
  std::string here = llvm::sys::getHostCPUName().str();
  for (host::HostCpu target :
       {host::HostCpu{"x86-64", ""}, host::HostCpu{"x86-64-v3", ""},
        host::HostCpu{"sapphirerapids", ""},
        host::HostCpu{here, "-avx512bf16,-avx512fp16"}}) {
    SCOPED_TRACE(target.cpu + " " + target.features);
    mlir::MLIRContext ctx;
    mlir::DialectRegistry registry;
    host::registerHostDialects(registry);
    ctx.appendDialectRegistry(registry);
    // The code: no conversion instruction moves the bits.
    auto module = mlir::parseSourceString<mlir::ModuleOp>(text, &ctx);
    ASSERT_TRUE(module);
    auto assembly = host::emitAssembly(*module, nullptr, &target);
    ASSERT_TRUE(bool(assembly)) << llvm::toString(assembly.takeError());
    EXPECT_EQ(assembly->find("cvtneps2bf16"), std::string::npos);
    EXPECT_EQ(assembly->find("cvtps2ph"), std::string::npos);
    EXPECT_EQ(assembly->find("__trunc"), std::string::npos); // __truncsfbf2
    EXPECT_EQ(assembly->find("__extend"), std::string::npos);
    module = mlir::parseSourceString<mlir::ModuleOp>(text, &ctx);
    ASSERT_TRUE(module);
    auto object = host::compileObject(*module, "move16", nullptr, &target);
    ASSERT_TRUE(bool(object)) << llvm::toString(object.takeError());
    if (!canRun(target))
      continue; // compiled cleanly; this CPU cannot run it
    auto loaded = host::HostKernel::load(*object, "move16");
    if (!loaded) {
      ADD_FAILURE() << llvm::toString(loaded.takeError());
      continue;
    }
    std::vector<uint16_t> xb = xs(), yb = ys(), xh = xs(), yh = ys();
    std::vector<std::vector<uint16_t>> outs(4,
                                            std::vector<uint16_t>(N, 0x1234));
    std::vector<int64_t> addr = {int64_t(xb.data()), int64_t(yb.data()),
                                 int64_t(xh.data()), int64_t(yh.data())};
    for (auto &o : outs)
      addr.push_back(int64_t(o.data()));
    int32_t count = N;
    std::vector<void *> args;
    for (int64_t &a : addr)
      args.push_back(&a);
    args.push_back(&count);
    loaded->run(args.data(), args.size(), {N / BLOCK, 1, 1});
    check(outs);
  }
}

} // namespace
