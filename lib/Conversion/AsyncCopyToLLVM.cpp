//===- AsyncCopyToLLVM.cpp - shared-memory buffers and async copies -------===//
//
// ktc.local_alloc becomes the element index of its buffer (placed by the
// lowering, SharedBuffers.h); ktc.async_copy the target's asynchronous
// copies (cp.async), each thread copying the runs of elements its pointer
// layout gives it, as wide as the pointers, the mask and the slot's chunks
// allow, into the slot's layout; ktc.async_commit and ktc.async_wait the
// target's group commit and wait (the wait followed by a barrier).
// ktc.local_load reads its slot into registers, unless its only users are
// dots, which read the slot themselves (DotOpToLLVM.cpp).
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"
#include "SharedBuffers.h"
#include "Staging.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::ktc;

namespace {

LocalAllocOp allocOf(Value buffer) {
  return buffer.getDefiningOp<LocalAllocOp>();
}

struct LocalAllocLowering : OpConversionPattern<LocalAllocOp> {
  LocalAllocLowering(const TypeConverter &converter, MLIRContext *ctx,
                     const LoweringState &state)
      : OpConversionPattern<LocalAllocOp>(converter, ctx), state(state) {}
  LogicalResult
  matchAndRewrite(LocalAllocOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t bytes = sharedBytes(op.getType().getElementType());
    rewriter.replaceOp(op, i32Const(rewriter, op.getLoc(),
                                    state.bufferOffsets.lookup(op) / bytes));
    return success();
  }
  const LoweringState &state;
};

struct AsyncCopyLowering : OpConversionPattern<AsyncCopyOp> {
  AsyncCopyLowering(const TypeConverter &converter, MLIRContext *ctx,
                    const LoweringState &state)
      : OpConversionPattern<AsyncCopyOp>(converter, ctx), state(state) {}
  LogicalResult
  matchAndRewrite(AsyncCopyOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const TargetInfo &target = *state.target;
    LocalAllocOp alloc = allocOf(op.getBuffer());
    if (!alloc)
      return rewriter.notifyMatchFailure(op, "buffer not from local_alloc");
    auto ptrType = cast<RankedTensorType>(op.getPtr().getType());
    Type element = cast<PtrType>(ptrType.getElementType()).getPointeeType();
    int64_t bytes = sharedBytes(element);
    LinearLayout from = toLinearLayout(ptrType);
    SharedLayout shared = bufferLayout(alloc);
    int64_t width = state.vectorWidths.lookup(op);
    int64_t vec = asyncCopyVector(from, bytes, shared, width ? width : 1);
    SmallVector<Value> ptrs(adaptor.getPtr());
    SmallVector<Value> masks;
    if (op.getMask())
      masks.assign(adaptor.getMask().begin(), adaptor.getMask().end());
    Value start = slotStart(rewriter, loc, state,
                            alloc, rewriter.getRemappedValue(op.getSlot()));
    auto copy = [&](OpBuilder &b, Location loc) {
      TileCoords coords(b, loc, target, from);
      if (!vec || !target.hasAsyncCopies()) {
        // Element by element, synchronously: zero where masked off (the
        // target's predicated load, else a branch per element).
        for (int64_t r = 0; r < from.numRegisters(); ++r) {
          Value at = sharedElement(
              b, loc, state, element,
              arith::AddIOp::create(b, loc, coords.linear(b, loc, r, shared),
                                    start));
          Value zero = LLVM::ZeroOp::create(b, loc, element);
          Value v =
              masks.empty()
                  ? Value(LLVM::LoadOp::create(b, loc, element, ptrs[r], bytes))
                  : target.maskedGlobalLoad(b, loc, element, ptrs[r], masks[r],
                                            zero, bytes, "", "");
          if (!v)
            v = scf::IfOp::create(
                    b, loc, masks[r],
                    [&](OpBuilder &b, Location loc) {
                      Value x =
                          LLVM::LoadOp::create(b, loc, element, ptrs[r], bytes);
                      scf::YieldOp::create(b, loc, x);
                    },
                    [&](OpBuilder &b, Location loc) {
                      scf::YieldOp::create(b, loc, zero);
                    })
                    .getResult(0);
          LLVM::StoreOp::create(b, loc, v, at, bytes);
        }
        return;
      }
      Value on = arith::ConstantIntOp::create(b, loc, 1, 1);
      for (int64_t k0 = 0; k0 < from.numRegisters(); k0 += vec) {
        Value at = sharedElement(
            b, loc, state, element,
            arith::AddIOp::create(b, loc, coords.linear(b, loc, k0, shared),
                                  start));
        target.asyncCopy(b, loc, at, ptrs[k0], vec * bytes,
                         masks.empty() ? on : masks[k0]);
      }
    };
    // One copy of each element: replicas skip.
    ifFirstReplica(rewriter, loc, target, from.replicatedThreadBits(), copy);
    rewriter.eraseOp(op);
    return success();
  }
  const LoweringState &state;
};

struct AsyncCommitLowering : OpConversionPattern<AsyncCommitOp> {
  AsyncCommitLowering(const TypeConverter &converter, MLIRContext *ctx,
                      const LoweringState &state)
      : OpConversionPattern<AsyncCommitOp>(converter, ctx), state(state) {}
  LogicalResult
  matchAndRewrite(AsyncCommitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    state.target->asyncCommit(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
  const LoweringState &state;
};

struct AsyncWaitLowering : OpConversionPattern<AsyncWaitOp> {
  AsyncWaitLowering(const TypeConverter &converter, MLIRContext *ctx,
                    const LoweringState &state)
      : OpConversionPattern<AsyncWaitOp>(converter, ctx), state(state) {}
  LogicalResult
  matchAndRewrite(AsyncWaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    state.target->asyncWait(rewriter, op.getLoc(), op.getPending());
    state.target->barrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
  const LoweringState &state;
};

struct LocalLoadLowering : OpConversionPattern<LocalLoadOp> {
  LocalLoadLowering(const TypeConverter &converter, MLIRContext *ctx,
                    const LoweringState &state)
      : OpConversionPattern<LocalLoadOp>(converter, ctx), state(state) {}
  LogicalResult
  matchAndRewrite(LocalLoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    LocalAllocOp alloc = allocOf(op.getBuffer());
    if (!alloc)
      return rewriter.notifyMatchFailure(op, "buffer not from local_alloc");
    RankedTensorType type = op.getType();
    LinearLayout to = toLinearLayout(type);
    Type element = getTypeConverter()->convertType(type.getElementType());
    SmallVector<Value> values;
    // Dots read their operands from the slot themselves.
    if (llvm::all_of(op->getUses(), [](OpOperand &use) {
          return isa<DotOp>(use.getOwner()) && use.getOperandNumber() < 2;
        })) {
      Value poison = LLVM::PoisonOp::create(rewriter, loc, element);
      values.assign(to.numRegisters(), poison);
    } else {
      StagedBlock slot(state, to, to, element,
                       slotReadPlan(to, element, bufferLayout(alloc),
                                    state.target->hasMatrixLoads()),
                       0,
                       slotStart(rewriter, loc, state, alloc,
                                 rewriter.getRemappedValue(op.getSlot())));
      for (int64_t r = 0; r < to.numRegisters(); ++r)
        values.push_back(slot.read(rewriter, loc, r));
    }
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
  const LoweringState &state;
};

} // namespace

void mlir::ktc::populateAsyncCopyPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns,
                                          const LoweringState &state) {
  patterns.add<LocalAllocLowering, AsyncCopyLowering, AsyncCommitLowering,
               AsyncWaitLowering, LocalLoadLowering>(
      converter, patterns.getContext(), state);
}
