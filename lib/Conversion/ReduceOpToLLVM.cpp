//===- ReduceOpToLLVM.cpp - block reductions --------------------------------===//
//
// sum/max/min of a 1-D block: within the thread, then across the wave in
// log2(wave) butterfly steps (shfl.sync on NVIDIA, DPP and ds_bpermute on AMD), then across the waves through shared
// memory: lane 0 of each wave writes its partial, a barrier, every thread
// combines the partials, and -- only where the same slots could be written
// again before every thread has passed another barrier -- a second barrier
// (planReductionSlots). Sub-word types reduce in f32/i32; replicated copies
// count once.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::ktc;

Type mlir::ktc::reductionType(Type element) {
  MLIRContext *ctx = element.getContext();
  if (isa<FloatType>(element))
    return Float32Type::get(ctx);
  return element.isInteger(64) ? element : IntegerType::get(ctx, 32);
}

namespace {

struct ReduceLowering : OpConversionPattern<ReduceOp> {
  ReduceLowering(const TypeConverter &converter, MLIRContext *ctx,
                 const LoweringState &state)
      : OpConversionPattern(converter, ctx), state(state) {}

  /// The combiner's identity: -0 for a float sum (-0 + x is x, signed
  /// zeros included); NaN for maxnum/minnum, so that a row of NaNs gives NaN
  /// along every axis, as the 1-D reduction and the host do.
  static Value identity(OpBuilder &b, Location loc, ReduceKind kind, Type t) {
    if (auto f = dyn_cast<FloatType>(t))
      return arith::ConstantOp::create(
          b, loc,
          b.getFloatAttr(f, kind == ReduceKind::Sum
                                ? APFloat::getZero(f.getFloatSemantics(), true)
                                : APFloat::getQNaN(f.getFloatSemantics())));
    if (kind == ReduceKind::Sum)
      return arith::ConstantOp::create(b, loc, b.getZeroAttr(t));
    unsigned w = t.getIntOrFloatBitWidth();
    APInt v = kind == ReduceKind::Max ? APInt::getSignedMinValue(w)
                                      : APInt::getSignedMaxValue(w);
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, v));
  }

  static Value combine(OpBuilder &b, Location loc, ReduceKind kind, Value x,
                       Value y) {
    bool isFloat = isa<FloatType>(x.getType());
    switch (kind) {
    case ReduceKind::Sum:
      return isFloat ? arith::AddFOp::create(b, loc, x, y).getResult()
                     : arith::AddIOp::create(b, loc, x, y).getResult();
    case ReduceKind::Max:
      return isFloat ? arith::MaxNumFOp::create(b, loc, x, y).getResult()
                     : arith::MaxSIOp::create(b, loc, x, y).getResult();
    case ReduceKind::Min:
      return isFloat ? arith::MinNumFOp::create(b, loc, x, y).getResult()
                     : arith::MinSIOp::create(b, loc, x, y).getResult();
    }
    return {};
  }

  /// The partial of the butterfly partner at `mask`, through 32-bit moves.
  Value shuffle(OpBuilder &b, Location loc, Value v, unsigned mask) const {
    const TargetInfo &t = *state.target;
    Type i32 = b.getI32Type();
    Type type = v.getType();
    if (type.isF32()) {
      Value bits = arith::BitcastOp::create(b, loc, i32, v);
      return arith::BitcastOp::create(b, loc, type,
                                      t.butterflyPartner(b, loc, bits, mask));
    }
    if (type.isInteger(32))
      return t.butterflyPartner(b, loc, v, mask);
    // i64: two halves.
    Value lo = arith::TruncIOp::create(b, loc, i32, v);
    Value hi = arith::TruncIOp::create(
        b, loc, i32,
        arith::ShRUIOp::create(
            b, loc, v, arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(32))));
    lo = arith::ExtUIOp::create(b, loc, type, t.butterflyPartner(b, loc, lo, mask));
    hi = arith::ExtUIOp::create(b, loc, type, t.butterflyPartner(b, loc, hi, mask));
    hi = arith::ShLIOp::create(
        b, loc, hi, arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(32)));
    return arith::OrIOp::create(b, loc, hi, lo);
  }

  /// Converts a slot value to the reduction's compute type.
  static Value widen(OpBuilder &b, Location loc, Value v, Type element,
                     Type type) {
    if (v.getType() == type)
      return v;
    if (isa<FloatType>(type))
      return arith::ExtFOp::create(b, loc, type, v);
    if (element.isInteger(1))
      return arith::ExtUIOp::create(b, loc, type, v);
    return arith::ExtSIOp::create(b, loc, type, v);
  }
  static Value narrow(OpBuilder &b, Location loc, Value v, Type element) {
    if (v.getType() == element)
      return v;
    if (isa<FloatType>(element))
      return arith::TruncFOp::create(b, loc, element, v);
    return arith::TruncIOp::create(b, loc, element, v);
  }

  /// A 2-D block reduced along one axis: the block goes through shared
  /// memory, then each slot of the 1-D result folds its row (or column).
  LogicalResult rewrite2D(ReduceOp op, OneToNOpAdaptor adaptor,
                          ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    RankedTensorType srcType = op.getSrc().getType();
    Spread src = Spread::of(srcType);
    Spread dst = Spread::of(cast<RankedTensorType>(op.getType()));
    Type element = srcType.getElementType();
    Type type = reductionType(element);
    ReduceKind kind = op.getKind();
    SmallVector<Value> values;
    for (Value v : adaptor.getSrc())
      values.push_back(widen(rewriter, loc, v, element, type));
    storeBlockToShared(rewriter, loc, state, src, values);
    int64_t axis = op.getAxis(), cols = srcType.getDimSize(1);
    Value tid = state.target->threadId(rewriter, loc);
    SmallVector<Value> results;
    for (int64_t k = 0; k < dst.slots(); ++k) {
      Value out = dst.index(rewriter, loc, tid, k);
      auto loop = scf::ForOp::create(
          rewriter, loc, i32Const(rewriter, loc, 0),
          i32Const(rewriter, loc, srcType.getDimSize(axis)),
          i32Const(rewriter, loc, 1),
          ValueRange{identity(rewriter, loc, kind, type)},
          [&](OpBuilder &b, Location loc, Value j, ValueRange acc) {
            Value row = axis == 1 ? out : j, col = axis == 1 ? j : out;
            Value index = arith::AddIOp::create(
                b, loc, arith::MulIOp::create(b, loc, row, i32Const(b, loc, cols)),
                col);
            Value v = LLVM::LoadOp::create(
                b, loc, type, sharedElement(b, loc, state, type, index));
            scf::YieldOp::create(b, loc, combine(b, loc, kind, acc[0], v));
          });
      results.push_back(narrow(rewriter, loc, loop.getResult(0), element));
    }
    state.target->barrier(rewriter, loc);
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }

  LogicalResult
  matchAndRewrite(ReduceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getSrc().getType().getRank() == 2)
      return rewrite2D(op, adaptor, rewriter);
    Location loc = op.getLoc();
    RankedTensorType srcType = op.getSrc().getType();
    Spread spread = Spread::of(srcType);
    Type element = srcType.getElementType();
    Type type = reductionType(element);
    ReduceKind kind = op.getKind();
    const TargetInfo &target = *state.target;
    unsigned wave = target.waveSize();

    // 1. Within the thread.
    Value acc;
    for (Value v : adaptor.getSrc()) {
      v = widen(rewriter, loc, v, element, type);
      acc = acc ? combine(rewriter, loc, kind, acc, v) : v;
    }
    Value tid = target.threadId(rewriter, loc);
    // Replicated copies would be counted again by a sum: only the threads
    // holding the first copy contribute.
    if (spread.replicated() && kind == ReduceKind::Sum) {
      Value first = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ult,
          arith::MulIOp::create(rewriter, loc, tid,
                                i32Const(rewriter, loc, spread.v)),
          i32Const(rewriter, loc, spread.n));
      acc = arith::SelectOp::create(rewriter, loc, first, acc,
                                    identity(rewriter, loc, kind, type));
    }
    // 2. Across the wave, in increasing steps (see butterflyPartner).
    for (unsigned step = 1; step < wave; step *= 2)
      acc = combine(rewriter, loc, kind, acc, shuffle(rewriter, loc, acc, step));
    // 3. Across the waves, through shared memory.
    if (state.numWarps > 1) {
      auto smemType = LLVM::LLVMPointerType::get(rewriter.getContext(),
                                                 target.sharedAddressSpace());
      Value base = LLVM::AddressOfOp::create(rewriter, loc, smemType,
                                             state.sharedMemory);
      Value lane = arith::AndIOp::create(rewriter, loc, tid,
                                         i32Const(rewriter, loc, wave - 1));
      Value warp = arith::ShRUIOp::create(
          rewriter, loc, tid, i32Const(rewriter, loc, llvm::Log2_32(wave)));
      Value isFirst = arith::CmpIOp::create(rewriter, loc,
                                            arith::CmpIPredicate::eq, lane,
                                            i32Const(rewriter, loc, 0));
      // 8-byte slots: slot w at base + offset + 8 w.
      ReductionSlots plan = state.reductionSlots.lookup(op);
      auto slot = [&](OpBuilder &b, Value w) -> Value {
        Value offset = arith::AddIOp::create(
            b, loc, arith::MulIOp::create(b, loc, w, i32Const(b, loc, 8)),
            i32Const(b, loc, plan.offset));
        return LLVM::GEPOp::create(b, loc, smemType, b.getI8Type(), base,
                                   ValueRange{offset});
      };
      Value partial = acc;
      scf::IfOp::create(rewriter, loc, isFirst,
                        [&](OpBuilder &b, Location loc) {
                          LLVM::StoreOp::create(b, loc, partial, slot(b, warp));
                          scf::YieldOp::create(b, loc);
                        });
      target.barrier(rewriter, loc);
      acc = Value();
      for (unsigned w = 0; w < state.numWarps; ++w) {
        Value v = LLVM::LoadOp::create(rewriter, loc, type,
                                       slot(rewriter, i32Const(rewriter, loc, w)));
        acc = acc ? combine(rewriter, loc, kind, acc, v) : v;
      }
      if (plan.trailingBarrier)
        target.barrier(rewriter, loc);
    }
    rewriter.replaceOp(op, narrow(rewriter, loc, acc, element));
    return success();
  }
  const LoweringState &state;
};

} // namespace

/// A reduction whose lowering starts with a barrier every thread passes.
static bool isCrossWaveReduction(Operation *op, unsigned numWarps) {
  auto reduce = dyn_cast<ReduceOp>(op);
  return reduce && reduce.getSrc().getType().getRank() == 1 && numWarps > 1;
}

void mlir::ktc::planReductionSlots(func::FuncOp kernel, unsigned numWarps,
                                   int64_t &sharedSize,
                                   DenseMap<Operation *, ReductionSlots> &plan) {
  if (numWarps <= 1)
    return;
  SmallVector<Operation *> own;
  bool shared = false;
  kernel.walk([&](ReduceOp op) {
    if (!isCrossWaveReduction(op, numWarps))
      return;
    // The innermost loop that runs `op` again, and op's ancestor in its body.
    Operation *child = op, *loop = nullptr;
    for (Operation *parent = op->getParentOp(); parent != kernel;
         child = parent, parent = parent->getParentOp()) {
      if (isa<scf::ForOp, scf::WhileOp>(parent)) {
        loop = parent;
        break;
      }
      if (!isa<scf::IfOp>(parent)) {
        shared = true; // a region this plan does not know: keep the barrier
        return;
      }
    }
    // Runs once per program, or every iteration also passes another
    // reduction's first barrier (before or after `op` in the same body).
    bool fenced = !loop || llvm::any_of(*child->getBlock(), [&](Operation &o) {
                    return &o != child && isCrossWaveReduction(&o, numWarps);
                  });
    if (fenced)
      own.push_back(op);
    else
      shared = true;
  });
  if (shared)
    sharedSize = std::max<int64_t>(sharedSize, 8 * numWarps);
  // Own slots, 16-byte aligned so that the partials load as vectors.
  for (Operation *op : own) {
    sharedSize = llvm::alignTo(sharedSize, 16);
    plan[op] = ReductionSlots{sharedSize, /*trailingBarrier=*/false};
    sharedSize += 8 * numWarps;
  }
}

void mlir::ktc::populateReducePatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns,
                                       const LoweringState &state) {
  patterns.add<ReduceLowering>(converter, patterns.getContext(), state);
}
