//===- ElementwiseOpToLLVM.cpp - arith and math on blocks ------------------===//
//
// An arith or math op on blocks becomes the same op on each of the thread's
// scalars (upstream then lowers those to LLVM). exp and exp2 use the
// target's instruction: exp(x) = exp2(x * log2(e)); log and log2 the
// target's log2.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>
#include <numbers>

using namespace mlir;
using namespace mlir::ktc;

namespace {

/// For each register of `layout`, the register whose value it repeats
/// when the block is constant over aligned runs of `runs[d]` elements along
/// each dimension d: a register bit that moves an element only within its
/// run (its basis below the run's power of two along every dimension) is
/// cleared. The element of register k and of its representative then
/// differ only in bits below each run's size: they lie in one run.
SmallVector<int64_t> representatives(const LinearLayout &layout,
                                     ArrayRef<int64_t> runs) {
  uint64_t inside = 0;
  ArrayRef<LinearLayout::Coord> bases = layout.bases(LinearLayout::Register);
  for (auto [bit, basis] : llvm::enumerate(bases)) {
    bool within = true;
    for (auto [d, c] : llvm::enumerate(basis))
      within &= uint64_t(c) < llvm::bit_floor(uint64_t(runs[d]));
    if (within)
      inside |= uint64_t(1) << bit;
  }
  SmallVector<int64_t> rep(layout.numRegisters());
  for (int64_t k = 0; k < int64_t(rep.size()); ++k)
    rep[k] = int64_t(uint64_t(k) & ~inside);
  return rep;
}

/// Any arith/math op with block operands or results: one scalar op per
/// slot. Scalar operands (a select's condition) are shared by every slot.
/// An integer or mask result the axis analysis proves constant over runs
/// of elements (LoweringState::constancies) is computed once per run in a
/// thread's registers: `cols < n` with n a multiple of 16 is one compare
/// per 16 columns, and the masks that use it one predicate, not one each.
struct ElementwiseLowering : ConversionPattern {
  ElementwiseLowering(const TypeConverter &converter, MLIRContext *ctx,
                      const LoweringState &state)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx),
        state(state) {}
  const LoweringState &state;

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<ValueRange> operands,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef dialect = op->getDialect()->getNamespace();
    if ((dialect != "arith" && dialect != "math") || op->getNumResults() != 1 ||
        op->getNumRegions() != 0 ||
        !isa<RankedTensorType>(op->getResult(0).getType()))
      return failure();
    if (isa<arith::ConstantOp>(op))
      return failure(); // ConstantLowering
    LinearLayout layout =
        toLinearLayout(cast<RankedTensorType>(op->getResult(0).getType()));
    int64_t slots = layout.numRegisters();
    SmallVector<int64_t> rep;
    if (auto it = state.constancies.find(op); it != state.constancies.end())
      rep = representatives(layout, it->second);
    Type resultType = getTypeConverter()->convertType(
        getElementTypeOrSelf(op->getResult(0).getType()));
    SmallVector<Value> values;
    for (int64_t k = 0; k < slots; ++k) {
      if (!rep.empty() && rep[k] != k) {
        values.push_back(values[rep[k]]);
        continue;
      }
      SmallVector<Value> scalars;
      for (ValueRange operand : operands)
        scalars.push_back(operand.size() == 1 ? operand[0] : operand[k]);
      OperationState state(op->getLoc(), op->getName(), scalars,
                           TypeRange{resultType}, op->getAttrs());
      values.push_back(rewriter.create(state)->getResult(0));
    }
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

/// A splat block constant: the scalar constant in every slot.
struct ConstantLowering : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OneToNOpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type)
      return failure();
    auto splat = dyn_cast<SplatElementsAttr>(op.getValue());
    if (!splat)
      return rewriter.notifyMatchFailure(op, "only splat block constants");
    Value scalar = arith::ConstantOp::create(
        rewriter, op.getLoc(), cast<TypedAttr>(splat.getSplatValue<Attribute>()));
    SmallVector<Value> values(toLinearLayout(type).numRegisters(), scalar);
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

/// exp, exp2, log and log2, on scalars and blocks, through the target's
/// exp2 or log2, in f32: exp(x) = exp2(x * log2(e)), log(x) = log2(x) *
/// ln(2).
enum class Transcendental { Exp, Exp2, Log, Log2 };
template <typename Op, Transcendental Kind>
struct TranscendentalLowering : OpConversionPattern<Op> {
  TranscendentalLowering(const TypeConverter &converter, MLIRContext *ctx,
                         const LoweringState &state)
      : OpConversionPattern<Op>(converter, ctx, /*benefit=*/2), state(state) {}

  LogicalResult
  matchAndRewrite(Op op, typename OpConversionPattern<Op>::OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type element = getElementTypeOrSelf(op.getType());
    Type f32 = rewriter.getF32Type();
    auto scale = [&](Value v, double factor) -> Value {
      return arith::MulFOp::create(
          rewriter, loc, v,
          arith::ConstantOp::create(rewriter, loc,
                                    rewriter.getF32FloatAttr(factor)));
    };
    constexpr bool isExp =
        Kind == Transcendental::Exp || Kind == Transcendental::Exp2;
    // Every f64 math function (exp, exp2, log, log2 here; sin, cos, tanh,
    // erf and pow too) is written in f64 arithmetic before the lowering
    // (ExpandMathF64*.cpp); f32 here would be a silent loss.
    if (element.isF64())
      return op->emitError()
             << op->getName().stripDialect()
             << " of f64 reached the GPU lowering unexpanded: run "
                "ktc-expand-math first (the compile pipeline does)";
    SmallVector<Value> values;
    for (Value x : adaptor.getOperand()) {
      if (element != f32)
        x = arith::ExtFOp::create(rewriter, loc, f32, x);
      if (Kind == Transcendental::Exp)
        x = scale(x, std::numbers::log2e);
      Value y = isExp ? state.target->exp2(rewriter, loc, x)
                      : state.target->log2(rewriter, loc, x);
      if (Kind == Transcendental::Log)
        y = scale(y, std::numbers::ln2);
      if (element != f32)
        y = arith::TruncFOp::create(rewriter, loc, element, y);
      values.push_back(y);
    }
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
  const LoweringState &state;
};

/// f32 division, on scalars and blocks, as the target divides: correctly
/// rounded, or the target's fast division for `afn` (ktc::fdiv).
struct DivLowering : OpConversionPattern<arith::DivFOp> {
  DivLowering(const TypeConverter &converter, MLIRContext *ctx,
              const LoweringState &state)
      : OpConversionPattern(converter, ctx, /*benefit=*/2), state(state) {}

  LogicalResult
  matchAndRewrite(arith::DivFOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!getElementTypeOrSelf(op.getType()).isF32())
      return rewriter.notifyMatchFailure(op, "f32 only");
    bool fast = arith::bitEnumContainsAny(op.getFastmath(),
                                          arith::FastMathFlags::afn);
    SmallVector<Value> values;
    for (auto [lhs, rhs] : llvm::zip_equal(adaptor.getLhs(), adaptor.getRhs()))
      values.push_back(
          state.target->divide(rewriter, op.getLoc(), lhs, rhs, fast));
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
  const LoweringState &state;
};

/// f32 remainder as C's fmod, exactly (Fmod.cpp). LLVM's GPU lowerings of
/// frem compute x - trunc(x / y) * y, which loses a zero's sign and is
/// wrong once the quotient passes 2^24.
struct RemLowering : OpConversionPattern<arith::RemFOp> {
  RemLowering(const TypeConverter &converter, MLIRContext *ctx)
      : OpConversionPattern(converter, ctx, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(arith::RemFOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!getElementTypeOrSelf(op.getType()).isF32())
      return rewriter.notifyMatchFailure(op, "f32 only");
    SmallVector<Value> values;
    for (auto [lhs, rhs] : llvm::zip_equal(adaptor.getLhs(), adaptor.getRhs()))
      values.push_back(exactFmod(rewriter, op.getLoc(), lhs, rhs));
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

} // namespace

Value mlir::ktc::TargetInfo::log2(OpBuilder &b, Location loc, Value x) const {
  return LLVM::Log2Op::create(b, loc, x);
}

Value mlir::ktc::TargetInfo::divide(OpBuilder &b, Location loc, Value lhs,
                                    Value rhs, bool fast) const {
  // LLVM's own f32 division: IEEE, or (afn, arcp) a reciprocal and a
  // multiply where the target has one (AMDGPU: v_rcp_f32).
  return LLVM::FDivOp::create(
      b, loc, lhs, rhs,
      LLVM::FastmathFlagsAttr::get(
          b.getContext(), fast ? LLVM::FastmathFlags::afn |
                                     LLVM::FastmathFlags::arcp
                               : LLVM::FastmathFlags::none));
}

void mlir::ktc::populateElementwisePatterns(const TypeConverter &converter,
                                            RewritePatternSet &patterns,
                                            const LoweringState &state) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ConstantLowering, RemLowering>(converter, ctx);
  patterns.add<ElementwiseLowering>(converter, ctx, state);
  using T = Transcendental;
  patterns.add<TranscendentalLowering<math::ExpOp, T::Exp>,
               TranscendentalLowering<math::Exp2Op, T::Exp2>,
               TranscendentalLowering<math::LogOp, T::Log>,
               TranscendentalLowering<math::Log2Op, T::Log2>, DivLowering>(
      converter, ctx, state);
}
