//===- AtomicOpToLLVM.cpp - ktc.atomic_rmw and ktc.atomic_cas on GPUs ------===//
//
// Each element a thread holds becomes one llvm.atomicrmw or llvm.cmpxchg
// (AtomicEmit.h) on global memory, with the target's syncscope
// (TargetInfo::syncScope) and marks (TargetInfo::markAtomic).
//
// Exactly once per element: a layout may replicate a block (several
// threads hold the same element, the bits of replicatedThreadBits), and a
// scalar is held by every thread. Only the first copy -- the thread zero
// in every replicating bit, thread 0 for a scalar -- does the atomic; the
// others skip it, as a masked-off element does. When the result is used,
// the first copies write the old values to shared memory (the element's
// row-major index), and after a barrier every thread reads the ones it
// holds; a second barrier frees the shared memory for the next op. A
// scalar atomic with release ordering first waits at a barrier, so that
// thread 0 releases the writes of the whole program (a lock's release).
// Masked-off elements are zero (undefined by the dialect).
//
//===----------------------------------------------------------------------===//

#include "AtomicEmit.h"
#include "Lowering.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::ktc;

namespace {

/// The thread-id bits whose threads hold copies of the elements of
/// `type`: the layout's replicating bits, or every bit for a scalar.
uint64_t replicaBits(Type type, const LoweringState &state) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return toLinearLayout(tensor).replicatedThreadBits();
  return uint64_t(state.numWarps) * state.target->waveSize() - 1;
}

StringRef scopeName(MemScope scope) { return stringifyMemScope(scope); }

template <typename OpT>
struct AtomicLowering : OpConversionPattern<OpT> {
  AtomicLowering(const TypeConverter &converter, MLIRContext *ctx,
                 const LoweringState &state)
      : OpConversionPattern<OpT>(converter, ctx), state(state) {}

  LogicalResult
  matchAndRewrite(OpT op, typename OpConversionPattern<OpT>::OneToNOpAdaptor
                              adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const TargetInfo &target = *state.target;
    Type type = op.getType();
    Type element = getElementTypeOrSelf(type);
    ValueRange ptrs = adaptor.getPtr(), vals = adaptor.getVal(),
               masks = adaptor.getMask();
    ValueRange cmps;
    if constexpr (std::is_same_v<OpT, AtomicCASOp>)
      cmps = adaptor.getCmp();

    AtomicSpec spec;
    spec.sem = op.getSem();
    spec.syncScope = target.syncScope(scopeName(op.getScope()));
    spec.mark = [&](Operation *a) { target.markAtomic(a); };
    bool used = !op.getResult().use_empty();
    spec.custom = [&](OpBuilder &b, Location loc, LLVM::AtomicBinOp kind,
                      Value ptr, Value val) {
      return target.atomicRMW(b, loc, kind, ptr, val, atomicOrdering(spec.sem),
                              scopeName(op.getScope()), used);
    };

    uint64_t replicas = replicaBits(type, state);
    bool share = replicas && used;
    Value first;
    if (replicas)
      first = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq,
          arith::AndIOp::create(rewriter, loc, target.threadId(rewriter, loc),
                                i32Const(rewriter, loc, replicas)),
          i32Const(rewriter, loc, 0));
    std::unique_ptr<TileCoords> coords;
    if (share)
      if (auto tensor = dyn_cast<RankedTensorType>(type))
        coords = std::make_unique<TileCoords>(rewriter, loc, target,
                                              toLinearLayout(tensor));
    auto slot = [&](OpBuilder &b, Location loc, int64_t r) {
      Value index = coords ? coords->linear(b, loc, r) : i32Const(b, loc, 0);
      return sharedElement(b, loc, state, element, index);
    };

    // A scalar atomic that releases (a lock's release, a flag) is done by
    // thread 0 alone: the program's earlier writes, from all its threads,
    // must reach it first.
    if (!isa<RankedTensorType>(type) && replicas &&
        (spec.sem == MemSem::Release || spec.sem == MemSem::AcqRel))
      target.barrier(rewriter, loc);

    SmallVector<Value> olds;
    for (int64_t r = 0; r < int64_t(ptrs.size()); ++r) {
      auto atomic = [&](OpBuilder &b, Location loc) -> Value {
        Value old;
        if constexpr (std::is_same_v<OpT, AtomicCASOp>)
          old = emitAtomicCAS(b, loc, ptrs[r], cmps[r], vals[r], spec);
        else
          old = emitAtomicRMW(b, loc, op.getKind(), ptrs[r], vals[r], spec);
        if (share)
          LLVM::StoreOp::create(b, loc, old, slot(b, loc, r));
        return old;
      };
      Value guard = first;
      if (!masks.empty())
        guard = guard ? arith::AndIOp::create(rewriter, loc, guard, masks[r])
                            .getResult()
                      : masks[r];
      if (!guard) {
        olds.push_back(atomic(rewriter, loc));
        continue;
      }
      olds.push_back(
          scf::IfOp::create(
              rewriter, loc, guard,
              [&](OpBuilder &b, Location loc) {
                scf::YieldOp::create(b, loc, atomic(b, loc));
              },
              [&](OpBuilder &b, Location loc) {
                scf::YieldOp::create(b, loc,
                                     LLVM::ZeroOp::create(b, loc, element)
                                         .getResult());
              })
              .getResult(0));
    }
    if (share) {
      target.barrier(rewriter, loc);
      for (int64_t r = 0; r < int64_t(olds.size()); ++r)
        olds[r] = LLVM::LoadOp::create(rewriter, loc, element,
                                       slot(rewriter, loc, r));
      target.barrier(rewriter, loc);
    }
    rewriter.replaceOpWithMultiple(op, {olds});
    return success();
  }
  const LoweringState &state;
};

} // namespace

int64_t mlir::ktc::atomicSharedBytes(Operation *op, unsigned numWarps,
                                     unsigned waveSize) {
  if (!isa<AtomicRMWOp, AtomicCASOp>(op) || op->getResult(0).use_empty())
    return 0;
  Type type = op->getResult(0).getType();
  int64_t bytes = sharedBytes(getElementTypeOrSelf(type));
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return numWarps * waveSize > 1 ? bytes : 0;
  if (!toLinearLayout(tensor).replicatedThreadBits())
    return 0;
  return tensor.getNumElements() * bytes;
}

void mlir::ktc::populateAtomicPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns,
                                       const LoweringState &state) {
  patterns.add<AtomicLowering<AtomicRMWOp>, AtomicLowering<AtomicCASOp>>(
      converter, patterns.getContext(), state);
}
