//===- BuilderTest.cpp - the seeds' kernels written with the C++ API ------===//
//
// Each kernel is traced and its MLIR checked for the structure that matters
// (and re-parsed: the builder's output is valid ktc IR).
//
//===----------------------------------------------------------------------===//

#include "examples/kernels/seeds.h"
#include "ktc/ktc.h"

#include "dialect/KtcDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <regex>

using namespace ktc;

namespace {

/// Parses `text` in a fresh context: the builder's output must be valid IR.
bool reparses(const std::string &text) {
  mlir::MLIRContext context;
  context.loadDialect<mlir::ktc::KtcDialect, mlir::arith::ArithDialect,
                      mlir::math::MathDialect, mlir::scf::SCFDialect,
                      mlir::func::FuncDialect>();
  return static_cast<bool>(
      mlir::parseSourceString<mlir::ModuleOp>(text, &context));
}

size_t count(const std::string &text, const std::string &needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + 1))
    ++n;
  return n;
}

bool contains(const std::string &text, const std::string &pattern) {
  return std::regex_search(text, std::regex(pattern));
}

TEST(Builder, VectorAdd) {
  auto add = Kernel("add_kernel", {"x", "y", "out", "n", "BLOCK_SIZE"},
                    seeds::vector_add);
  std::string ir = add.mlir(1024);
  SCOPED_TRACE(ir);
  EXPECT_TRUE(reparses(ir));
  EXPECT_TRUE(contains(ir, R"(func.func @add_kernel\(%arg0: !ktc.ptr<f32>, %arg1: !ktc.ptr<f32>, %arg2: !ktc.ptr<f32>, %arg3: i32\) attributes \{ktc.constexpr = \{BLOCK_SIZE = 1024 : i64\}, ktc.kernel, ktc.num_warps = 4 : i32\})"));
  EXPECT_EQ(count(ir, "ktc.program_id 0"), 1u);
  EXPECT_EQ(count(ir, "ktc.arange 0, 1024 : tensor<1024xi32>"), 1u);
  EXPECT_EQ(count(ir, "arith.cmpi slt"), 1u);
  EXPECT_EQ(count(ir, "ktc.load"), 2u);
  EXPECT_EQ(count(ir, ", mask %"), 3u); // both loads and the store
  EXPECT_EQ(count(ir, "arith.addf"), 1u);
  EXPECT_EQ(count(ir, "ktc.store"), 1u);
  // A second specialisation is a different kernel.
  EXPECT_NE(add.mlir(256).find("ktc.arange 0, 256"), std::string::npos);
}

TEST(Builder, OnlineSoftmaxCarriesMaxAndSum) {
  auto kernel = Kernel("softmax_online", seeds::softmax_online);
  std::string ir = kernel.mlir(256);
  SCOPED_TRACE(ir);
  EXPECT_TRUE(reparses(ir));
  EXPECT_EQ(count(ir, "scf.for"), 2u);
  // The first loop carries exactly the two f32 Vars; the second carries
  // nothing (unchanged Vars are dropped).
  EXPECT_TRUE(contains(ir, R"(iter_args\(%\w+ = %\S+, %\w+ = %\S+\) -> \(f32, f32\))"));
  EXPECT_EQ(count(ir, "iter_args"), 1u);
  EXPECT_EQ(count(ir, "ktc.reduce max"), 1u);
  EXPECT_EQ(count(ir, "ktc.reduce sum"), 1u);
  EXPECT_EQ(count(ir, "arith.maxnumf"), 1u);
  EXPECT_EQ(count(ir, "math.exp"), 3u);
  EXPECT_EQ(count(ir, "other %"), 1u);
  EXPECT_TRUE(contains(ir, "ktc.constexpr = \\{arg4 = 256 : i64\\}"));
  // Loop-invariant work is hoisted: one arange serves both loops.
  EXPECT_EQ(count(ir, "ktc.arange"), 1u);
  EXPECT_LT(ir.find("ktc.arange"), ir.find("scf.for"));
}

TEST(Builder, OptionsAreRecordedOnTheKernel) {
  auto add = Kernel("add_kernel", {"x", "y", "out", "n", "BLOCK_SIZE"},
                    seeds::vector_add);
  std::string ir = add.mlir(1024, Options{.num_warps = 8});
  SCOPED_TRACE(ir);
  EXPECT_TRUE(reparses(ir));
  EXPECT_TRUE(contains(ir, R"(ktc.kernel, ktc.num_warps = 8 : i32\})"));
  // Options change the kernel, not its body.
  EXPECT_EQ(count(add.mlir(1024, Options{.num_warps = 2}), "ktc.num_warps = 2"),
            1u);
}

TEST(Builder, FusedSoftmaxIsPersistent) {
  auto kernel = Kernel("softmax_fused", seeds::softmax_fused);
  std::string ir = kernel.mlir(next_pow2(781));
  SCOPED_TRACE(ir);
  EXPECT_TRUE(reparses(ir));
  EXPECT_TRUE(contains(ir, R"(%(\w+) = ktc.program_id 0 : i32)"));
  EXPECT_TRUE(contains(ir, R"(%(\w+) = ktc.num_programs 0 : i32)"));
  // for_range counts its iterations from 0 (docs/builder.md#loops); the
  // row is pid + k * num_programs.
  EXPECT_TRUE(contains(ir, R"(scf.for unsigned %\w+ = %c0_i32 to %\w+ step %c1_i32  : i32)"));
  EXPECT_EQ(count(ir, "tensor<1024xf32>"), count(ir, "tensor<1024xf32>"));
  EXPECT_NE(ir.find("ktc.arange 0, 1024"), std::string::npos);
}

TEST(Builder, TwoDimensionalTiles) {
  auto kernel = Kernel("tile", [](Ptr<float> p, Int stride, int BM, int BN) {
    auto rows = expand_dims(arange(0, BM), 1);
    auto cols = expand_dims(arange(0, BN), 0);
    auto tile = load(p + rows * stride + cols);
    store(p + rows * stride + cols, tile * 2.0f);
    store(p, sum(sum(tile, 1), 0));
  });
  std::string ir = kernel.mlir(16, 64);
  SCOPED_TRACE(ir);
  EXPECT_TRUE(reparses(ir));
  EXPECT_NE(ir.find("tensor<16x1xi32>"), std::string::npos);
  EXPECT_NE(ir.find("tensor<1x64xi32>"), std::string::npos);
  EXPECT_NE(ir.find("ktc.broadcast"), std::string::npos);
  EXPECT_NE(ir.find("ktc.load %"), std::string::npos);
  EXPECT_TRUE(contains(ir, R"(ktc.reduce sum %\w+ axis = 1 : tensor<16x64xf32> -> tensor<16xf32>)"));
  EXPECT_TRUE(contains(ir, R"(ktc.reduce sum %\w+ axis = 0 : tensor<16xf32> -> f32)"));
}

TEST(Builder, PromotionAndLiterals) {
  auto kernel = Kernel("promote", [](Ptr<float> p, Ptr<int64_t> q,
                                     Ptr<bfloat16> h, Int n, Long big) {
    auto i = arange(0, 8);          // i32
    auto widened = i + big;         // i32 + i64 -> i64
    store(q + i, widened);
    auto f = i * 0.5f;              // i32 * float literal -> f32
    store(p + i, f);
    auto hv = load(h + i);          // bf16
    store(h + i, hv * 2);           // the literal stays bf16
    store(p + i, hv + f);           // bf16 + f32 -> f32
    store(p + i, where(i < n, 1.0f, f));
    Var flag = i > 3;
    flag = !flag;
    store(q + i, sum(flag, 0), true);
  });
  std::string ir = kernel.mlir();
  SCOPED_TRACE(ir);
  EXPECT_TRUE(reparses(ir));
  EXPECT_TRUE(contains(ir, R"(arith.extsi %\w+ : tensor<8xi32> to tensor<8xi64>)"));
  EXPECT_TRUE(contains(ir, R"(arith.sitofp %\w+ : tensor<8xi32> to tensor<8xf32>)"));
  EXPECT_TRUE(contains(ir, R"(arith.mulf %\w+, %\w+ : tensor<8xbf16>)"));
  EXPECT_TRUE(contains(ir, R"(arith.extf %\w+ : tensor<8xbf16> to tensor<8xf32>)"));
  EXPECT_TRUE(contains(ir, R"(arith.select)"));
  EXPECT_TRUE(contains(ir, R"(ktc.reduce sum %\w+ axis = 0 : tensor<8xi32> -> i32)"));
}

TEST(Builder, IfCarriesVars) {
  auto kernel = Kernel("branch", [](Ptr<float> p, Int n) {
    Var v = load(p);
    if_(n > 0, [&] { v = v * 2.0f; }, [&] { v = 0.0f; });
    if_(true, [&] { v = v + 1.0f; }); // a C++ bool: decided while tracing
    store(p, v);
  });
  std::string ir = kernel.mlir();
  SCOPED_TRACE(ir);
  EXPECT_TRUE(reparses(ir));
  EXPECT_TRUE(contains(ir, R"(scf.if %\w+ -> \(f32\))"));
  EXPECT_EQ(count(ir, "scf.if"), 1u);
  EXPECT_EQ(count(ir, "arith.addf"), 1u);
}

TEST(Builder, ValueQueries) {
  std::vector<int64_t> shape;
  DType dtype = DType::i1;
  bool pointer = false, block = true;
  auto kernel = Kernel("queries", [&](Ptr<bfloat16> p) {
    auto ptrs = p + expand_dims(arange(0, 32), 0);
    shape = ptrs.shape();
    dtype = ptrs.dtype();
    pointer = ptrs.is_pointer();
    block = program_id(1).is_block();
  });
  kernel.mlir();
  EXPECT_EQ(shape, (std::vector<int64_t>{1, 32}));
  EXPECT_EQ(dtype, DType::bf16);
  EXPECT_TRUE(pointer);
  EXPECT_FALSE(block);
}

} // namespace
