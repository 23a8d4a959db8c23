//===- SpmdOpToLLVM.cpp - ids, arange, splat, addptr ------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::ktc;

namespace {

template <typename Op>
struct StatePattern : OpConversionPattern<Op> {
  StatePattern(const TypeConverter &converter, MLIRContext *ctx,
               const LoweringState &state)
      : OpConversionPattern<Op>(converter, ctx), state(state) {}
  const LoweringState &state;
};

struct ProgramIdLowering : StatePattern<ProgramIdOp> {
  using StatePattern::StatePattern;
  LogicalResult
  matchAndRewrite(ProgramIdOp op, OneToNOpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, state.target->programId(rewriter, op.getLoc(),
                                                   op.getAxis()));
    return success();
  }
};

struct NumProgramsLowering : StatePattern<NumProgramsOp> {
  using StatePattern::StatePattern;
  LogicalResult
  matchAndRewrite(NumProgramsOp op, OneToNOpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, state.target->numPrograms(rewriter, op.getLoc(),
                                                     op.getAxis()));
    return success();
  }
};

struct ArangeLowering : StatePattern<ArangeOp> {
  using StatePattern::StatePattern;
  LogicalResult
  matchAndRewrite(ArangeOp op, OneToNOpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    TileCoords coords(rewriter, loc, *state.target,
                      toLinearLayout(op.getType()));
    SmallVector<Value> values;
    for (int64_t k = 0; k < coords.layout().numRegisters(); ++k) {
      Value i = coords.at(rewriter, loc, k)[0];
      if (op.getStart() != 0)
        i = arith::AddIOp::create(rewriter, loc, i,
                                  i32Const(rewriter, loc, op.getStart()));
      values.push_back(i);
    }
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

struct SplatLowering : StatePattern<SplatOp> {
  using StatePattern::StatePattern;
  LogicalResult
  matchAndRewrite(SplatOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value scalar = adaptor.getSrc().front();
    SmallVector<Value> values(toLinearLayout(op.getType()).numRegisters(),
                              scalar);
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

struct AddPtrLowering : StatePattern<AddPtrOp> {
  using StatePattern::StatePattern;
  LogicalResult
  matchAndRewrite(AddPtrOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type pointee =
        cast<PtrType>(getElementTypeOrSelf(op.getPtr().getType()))
            .getPointeeType();
    if (isa<Float8E4M3FNType, Float8E5M2Type>(pointee)) // no LLVM type
      pointee = rewriter.getI8Type();
    ValueRange ptrs = adaptor.getPtr(), offsets = adaptor.getOffset();
    SmallVector<Value> values;
    for (size_t k = 0; k < ptrs.size(); ++k)
      values.push_back(LLVM::GEPOp::create(rewriter, loc, ptrs[k].getType(),
                                           pointee, ptrs[k],
                                           ValueRange{offsets[k]}));
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

} // namespace

void mlir::ktc::populateSpmdPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     const LoweringState &state) {
  patterns.add<ProgramIdLowering, NumProgramsLowering, ArangeLowering,
               SplatLowering, AddPtrLowering>(converter,
                                              patterns.getContext(), state);
}
