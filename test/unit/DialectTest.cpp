//===- DialectTest.cpp - C++ unit tests of the ktc dialect ----------------===//
//
// What lit cannot see: the C++ builders (type inference), the type predicates
// the builder and passes share, and folding through OpBuilder::createOrFold.
//
//===----------------------------------------------------------------------===//

#include "dialect/KtcDialect.h"
#include "dialect/KtcPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::ktc;

namespace {

class KtcDialectTest : public ::testing::Test {
protected:
  KtcDialectTest() : builder(&context) {
    context.loadDialect<KtcDialect, arith::ArithDialect, func::FuncDialect>();
    module = ModuleOp::create(builder.getUnknownLoc());
    auto funcType = builder.getFunctionType({}, {});
    func = func::FuncOp::create(builder, builder.getUnknownLoc(), "f",
                                funcType);
    module.push_back(func);
    Block *entry = func.addEntryBlock();
    builder.setInsertionPointToStart(entry);
  }
  ~KtcDialectTest() override { module->erase(); }

  /// Adds a function argument of `type` and returns it.
  Value arg(Type type) {
    Block &entry = func.getBody().front();
    (void)func.insertArgument(entry.getNumArguments(), type, {}, loc());
    return entry.getArguments().back();
  }

  Location loc() { return builder.getUnknownLoc(); }
  RankedTensorType tensor(ArrayRef<int64_t> shape, Type element) {
    return RankedTensorType::get(shape, element);
  }

  /// Verifies `op` and returns the first error message ("" when valid).
  std::string verifyMessage(Operation *op) {
    std::string message;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      if (message.empty())
        message = diag.str();
      return success();
    });
    (void)verify(op);
    return message;
  }

  MLIRContext context;
  OpBuilder builder;
  ModuleOp module;
  func::FuncOp func;
};

TEST_F(KtcDialectTest, TypePredicates) {
  Type f32 = builder.getF32Type(), i1 = builder.getI1Type();
  Type ptr = PtrType::get(f32);
  EXPECT_TRUE(isScalarType(f32));
  EXPECT_TRUE(isScalarType(ptr));
  EXPECT_TRUE(isScalarType(builder.getF64Type())); // issue 19's types
  EXPECT_TRUE(isScalarType(builder.getIntegerType(8)));
  EXPECT_FALSE(isScalarType(builder.getF80Type()));
  EXPECT_FALSE(isScalarType(builder.getIntegerType(128)));

  EXPECT_TRUE(isBlockType(tensor({1024}, f32)));
  EXPECT_TRUE(isBlockType(tensor({1}, i1)));
  EXPECT_TRUE(isBlockType(tensor({16, 64}, ptr)));
  EXPECT_FALSE(isBlockType(tensor({3}, f32)));
  EXPECT_TRUE(isBlockType(tensor({2, 4, 8}, f32)));
  EXPECT_FALSE(isBlockType(tensor({2, 2, 2, 2}, f32)));
  EXPECT_FALSE(isBlockType(tensor({ShapedType::kDynamic}, f32)));
  EXPECT_FALSE(isBlockType(tensor({4}, builder.getF80Type())));
  EXPECT_EQ(whyNotBlock(tensor({6}, f32)),
            "every dimension must be a static power of two");
  EXPECT_EQ(whyNotBlock(tensor({2, 2, 2, 2}, f32)), "rank must be 1, 2 or 3");
  EXPECT_EQ(whyNotBlock(RankedTensorType::get({}, f32)),
            "rank must be 1, 2 or 3");

  EXPECT_TRUE(isPtrLike(ptr));
  EXPECT_TRUE(isPtrLike(tensor({8}, ptr)));
  EXPECT_FALSE(isPtrLike(tensor({8}, f32)));
  EXPECT_TRUE(isIntLike(builder.getI64Type()));
  EXPECT_FALSE(isIntLike(i1));
  EXPECT_TRUE(isBoolLike(tensor({8}, i1)));

  EXPECT_EQ(getPointeeLike(tensor({8, 4}, ptr)), tensor({8, 4}, f32));
  EXPECT_EQ(getPointeeLike(ptr), f32);
  EXPECT_EQ(getSameShape(tensor({8}, f32), i1), tensor({8}, i1));
  EXPECT_TRUE(getShapeOrScalar(f32).empty());
}

TEST_F(KtcDialectTest, PtrTypeRejectsBadPointee) {
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  auto bad = PtrType::getChecked([&] { return emitError(loc()); }, &context,
                                 Type(builder.getI1Type()));
  EXPECT_FALSE(bad);
  EXPECT_EQ(message, "!ktc.ptr must point to i8, i16, i32, i64, f16, bf16, "
                     "f32, f64, f8E4M3FN or f8E5M2, not 'i1'");
}

TEST_F(KtcDialectTest, BuildersInferTypes) {
  Type f32 = builder.getF32Type();
  auto range = ArangeOp::create(builder, loc(), 0, 256);
  EXPECT_EQ(range.getType(), tensor({256}, builder.getI32Type()));

  auto col = ExpandDimsOp::create(builder, loc(), range, 1);
  EXPECT_EQ(col.getType(), tensor({256, 1}, builder.getI32Type()));

  Value base = arg(PtrType::get(f32));
  auto ptrs = SplatOp::create(builder, loc(), tensor({256}, base.getType()),
                              base);
  auto addr = AddPtrOp::create(builder, loc(), ptrs.getType(), ptrs, range);
  auto load = LoadOp::create(builder, loc(), addr.getResult());
  EXPECT_EQ(load.getType(), tensor({256}, f32));
  EXPECT_FALSE(load.getMask());

  auto sum = ReduceOp::create(builder, loc(), ReduceKind::Sum, load, 0);
  EXPECT_EQ(sum.getType(), f32);
  auto pid = ProgramIdOp::create(builder, loc(), 2);
  EXPECT_EQ(pid.getType(), builder.getI32Type());

  auto tile = SplatOp::create(builder, loc(), tensor({16, 64}, f32),
                              sum.getResult());
  auto rows = ReduceOp::create(builder, loc(), ReduceKind::Max, tile, 1);
  EXPECT_EQ(rows.getType(), tensor({16}, f32));

  // Rank 3: expand_dims of a 2-D block, permutations.
  auto cube = ExpandDimsOp::create(builder, loc(), tile, 2);
  EXPECT_EQ(cube.getType(), tensor({16, 64, 1}, f32));
  auto perm = TransOp::create(builder, loc(), cube, {2, 0, 1});
  EXPECT_EQ(perm.getType(), tensor({1, 16, 64}, f32));
  auto flat = ReshapeOp::create(builder, loc(), tensor({1024}, f32), perm);
  EXPECT_EQ(flat.getType(), tensor({1024}, f32));

  func::ReturnOp::create(builder, loc());
  EXPECT_EQ(verifyMessage(module), "");
}

TEST_F(KtcDialectTest, VerifierMessages) {
  auto bad = ArangeOp::create(builder, loc(), 0, 100);
  EXPECT_EQ(verifyMessage(bad),
            "'ktc.arange' op length end - start = 100 must be a power of two");
  bad->erase();

  auto pid = ProgramIdOp::create(builder, loc(), 5);
  EXPECT_EQ(verifyMessage(pid), "'ktc.program_id' op axis must be 0, 1 or 2, "
                                "got 5");
  pid->erase();

  Value block = arg(tensor({8}, builder.getF32Type()));
  auto reduce = ReduceOp::create(builder, loc(), ReduceKind::Max, block, 3);
  EXPECT_EQ(verifyMessage(reduce),
            "'ktc.reduce' op axis 3 is out of range for a rank-1 block");
  reduce->erase();

  // A bad permutation keeps the source's type; the verifier says why.
  Value tile = arg(tensor({4, 8}, builder.getF32Type()));
  auto trans = TransOp::create(builder, loc(), tile, {0, 0});
  EXPECT_EQ(trans.getType(), tile.getType());
  EXPECT_EQ(verifyMessage(trans),
            "'ktc.trans' op perm [0, 0] is not a permutation of the 2 "
            "dimensions of the source (each of 0 .. 1 once)");
  trans->erase();
}

TEST_F(KtcDialectTest, SplatOfConstantFoldsToDenseConstant) {
  Value c = arith::ConstantOp::create(builder, loc(),
                                      builder.getF32FloatAttr(1.5));
  Value folded = builder.createOrFold<SplatOp>(
      loc(), tensor({128}, builder.getF32Type()), c);
  auto constant = folded.getDefiningOp<arith::ConstantOp>();
  ASSERT_TRUE(constant);
  auto dense = dyn_cast<SplatElementsAttr>(constant.getValue());
  ASSERT_TRUE(dense);
  EXPECT_EQ(dense.getSplatValue<float>(), 1.5f);
}

TEST_F(KtcDialectTest, AddPtrOfZeroFoldsAway) {
  Value p = arg(PtrType::get(builder.getF16Type()));
  Value zero = arith::ConstantOp::create(builder, loc(),
                                         builder.getI32IntegerAttr(0));
  Value folded = builder.createOrFold<AddPtrOp>(loc(), p.getType(), p, zero);
  EXPECT_EQ(folded, p);
}

TEST_F(KtcDialectTest, ParsePrintRoundTrip) {
  const char *source = R"mlir(
func.func @k(%p: !ktc.ptr<f32>, %n: i32) attributes {ktc.kernel} {
  %r = ktc.arange 0, 64 : tensor<64xi32>
  %ps = ktc.splat %p : !ktc.ptr<f32> -> tensor<64x!ktc.ptr<f32>>
  %q = ktc.addptr %ps, %r : tensor<64x!ktc.ptr<f32>>, tensor<64xi32>
  %nb = ktc.splat %n : i32 -> tensor<64xi32>
  %m = arith.cmpi slt, %r, %nb : tensor<64xi32>
  %x = ktc.load %q, mask %m : tensor<64x!ktc.ptr<f32>>
  ktc.store %q, %x, mask %m : tensor<64x!ktc.ptr<f32>>
  return
}
)mlir";
  OwningOpRef<ModuleOp> parsed =
      parseSourceString<ModuleOp>(source, &context);
  ASSERT_TRUE(parsed);
  std::string first, second;
  llvm::raw_string_ostream(first) << *parsed;
  OwningOpRef<ModuleOp> reparsed =
      parseSourceString<ModuleOp>(first, &context);
  ASSERT_TRUE(reparsed);
  llvm::raw_string_ostream(second) << *reparsed;
  EXPECT_EQ(first, second);
  EXPECT_NE(first.find("ktc.load %2, mask %4 : tensor<64x!ktc.ptr<f32>>"),
            std::string::npos)
      << first;
}

TEST_F(KtcDialectTest, CombinePassRunsFromCpp) {
  const char *source = R"mlir(
func.func @k(%p: !ktc.ptr<f32>, %a: i32, %b: i32) -> !ktc.ptr<f32> {
  %0 = ktc.addptr %p, %a : !ktc.ptr<f32>, i32
  %1 = ktc.addptr %0, %b : !ktc.ptr<f32>, i32
  return %1 : !ktc.ptr<f32>
}
)mlir";
  OwningOpRef<ModuleOp> parsed =
      parseSourceString<ModuleOp>(source, &context);
  ASSERT_TRUE(parsed);
  PassManager pm(&context);
  pm.addPass(createKtcCombine());
  ASSERT_TRUE(succeeded(pm.run(*parsed)));
  int addptrs = 0;
  parsed->walk([&](AddPtrOp) { ++addptrs; });
  EXPECT_EQ(addptrs, 1);
}

} // namespace
