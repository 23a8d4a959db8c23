//===- PipelineAsync.cpp - the ktc-pipeline-async pass ---------------------===//
//
// A pipelined loop's dot operands, staged in shared memory by asynchronous
// copies (see the pass's description in dialect/KtcPasses.td):
//
//   scf.for %k {                       %buf = local_alloc  (S slots)
//     %a = load(p(%k), m(%k))    ==>   copy iterations 0 .. S-2 into slots 0 .. S-2
//     dot(%a, ...)                     scf.for %k iter_args(%slot = 0) {
//   }                                    async_wait (S-2 groups may fly) + barrier
//                                        copy iteration k + S-1 into slot %slot - 1
//                                        dot(local_load %buf[%slot], ...)
//                                      }
//
// The wait's barrier does two things: every thread's copies of this
// iteration's slot are visible, and every thread has finished reading the
// slot the previous iteration used, which this iteration's copy refills.
// The slot layout is chosen for both sides: the copies' 16-byte writes and
// the dot's fragment reads (ldmatrix), free of bank conflicts where a
// swizzle can make them so (SharedPlan.cpp).
//
// A copy's pointers that move by the same amount every iteration (an
// address affine in the induction variable: `a + (am * sam + k + j)`, as
// the tutorial's matmul spells it with offsets from k) are carried across
// iterations and advanced by that amount, as Triton's tutorial carries
// a_ptrs itself: one 64-bit add a copy instead of the offset's arithmetic,
// its widening and the add to the base (see carriedPointers).
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"
#include "SharedBuffers.h"

#include "dialect/KtcPasses.h"
#include "lib/Transforms/AxisInfo.h"
#include "lib/Transforms/LoopPipelining.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::ktc {
#define GEN_PASS_DEF_KTCPIPELINEASYNC
#include "dialect/KtcPasses.h.inc"
} // namespace mlir::ktc

using namespace mlir;
using namespace mlir::ktc;

namespace {

/// One load to stage: its address slice and the slot layout chosen.
struct Candidate {
  mutable LoadOp load; // op handles are not const-correct
  AddressSlice slice;
  SharedLayout shared;
  Value buffer;
};

/// +0 (or integer 0), as a constant or a splat of one.
bool isPositiveZero(Value v) {
  if (auto splat = v.getDefiningOp<SplatOp>())
    v = splat.getOperand();
  return matchPattern(v, m_PosZeroFloat()) || matchPattern(v, m_Zero());
}

/// A scalar i32 equal to the loop-invariant `x` (a scalar defined before
/// the loop, a splat of one, or a constant splat), built at `b` before the
/// loop; null if there is none.
Value invariantScalar(OpBuilder &b, scf::ForOp loop, Value x) {
  if (!x.getType().isInteger(32) &&
      !getElementTypeOrSelf(x.getType()).isInteger(32))
    return {};
  if (auto splat = x.getDefiningOp<SplatOp>())
    x = splat.getOperand();
  APInt c;
  if (matchPattern(x, m_ConstantInt(&c)))
    return arith::ConstantIntOp::create(b, loop.getLoc(), c.getSExtValue(),
                                        32);
  if (!isa<RankedTensorType>(x.getType()) && loop.isDefinedOutsideOfLoop(x))
    return x;
  return {};
}

/// How much `v` moves per unit of `loop`'s induction variable, the same
/// for every element of a block: a scalar i32 built at `b` before the
/// loop, or null where `v` does not depend on the induction variable. Fails
/// unless `v` is built from the induction variable and invariants by add,
/// sub, mul by an invariant, splat, expand_dims, broadcast and addptr of an
/// invariant pointer: then v(iv + d) = v(iv) + d * coefficient, for every
/// element (offsets assumed not to overflow, as everywhere in ktc).
FailureOr<Value> ivCoefficient(OpBuilder &b, scf::ForOp loop, Value v,
                               DenseMap<Value, Value> &memo) {
  if (loop.isDefinedOutsideOfLoop(v))
    return Value();
  if (auto it = memo.find(v); it != memo.end())
    return it->second;
  Location loc = loop.getLoc();
  auto constant = [&](int64_t c) -> Value {
    return arith::ConstantIntOp::create(b, loc, c, 32);
  };
  if (v == loop.getInductionVar()) {
    if (!v.getType().isInteger(32))
      return failure();
    return constant(1);
  }
  Operation *op = v.getDefiningOp();
  if (!op)
    return failure(); // another block argument: a carried value
  SmallVector<Value> coefficients;
  for (Value operand : op->getOperands()) {
    FailureOr<Value> c = ivCoefficient(b, loop, operand, memo);
    if (failed(c))
      return failure();
    coefficients.push_back(*c);
  }
  Value result;
  bool varies = llvm::any_of(coefficients, [](Value c) { return bool(c); });
  if (!varies) {
    if (!isPure(op) || op->getNumRegions())
      return failure();
  } else if (isa<arith::AddIOp, arith::SubIOp>(op)) {
    Value x = coefficients[0], y = coefficients[1];
    if (!y)
      result = x;
    else if (isa<arith::AddIOp>(op))
      result = x ? Value(arith::AddIOp::create(b, loc, x, y)) : y;
    else
      result = arith::SubIOp::create(b, loc, x ? x : constant(0), y);
  } else if (isa<arith::MulIOp>(op)) {
    if (coefficients[0] && coefficients[1])
      return failure();
    unsigned moving = coefficients[0] ? 0 : 1;
    Value factor = invariantScalar(b, loop, op->getOperand(1 - moving));
    if (!factor)
      return failure();
    result = arith::MulIOp::create(b, loc, coefficients[moving], factor);
  } else if (isa<SplatOp, ExpandDimsOp, BroadcastOp>(op)) {
    result = coefficients[0];
  } else if (isa<AddPtrOp>(op) && !coefficients[0]) {
    result = coefficients[1];
  } else {
    return failure();
  }
  memo[v] = result;
  return result;
}

struct PipelineAsyncPass
    : mlir::ktc::impl::KtcPipelineAsyncBase<PipelineAsyncPass> {
  using Base::Base;

  void runOnOperation() override {
    std::string error;
    std::unique_ptr<TargetInfo> target = createTargetInfo(arch, error);
    if (!target) {
      getOperation().emitError("ktc-pipeline-async: ") << error;
      return signalPassFailure();
    }
    if (!target->hasAsyncCopies())
      return;
    getOperation().walk([&](func::FuncOp func) {
      if (!func->hasAttr(KtcDialect::getKernelAttrName()))
        return;
      int64_t stages = numStages ? int64_t(numStages)
                                 : KtcDialect::getNumStages(func).value_or(1);
      if (stages < 2)
        return;
      AxisAnalysis axis(func);
      SmallVector<scf::ForOp> loops;
      func.walk([&](scf::ForOp loop) { loops.push_back(loop); });
      for (scf::ForOp loop : loops) {
        SmallVector<Candidate> candidates = find(loop, axis, *target);
        if (candidates.empty())
          continue;
        // The buffers, the kernel's scratch (without the dots whose
        // operands they hold) and the reductions' slots must fit; fewer
        // stages where more do not.
        unsigned warps = KtcDialect::getNumWarps(func).value_or(4);
        // Nor the ops after the loop where it is the last in its block:
        // their scratch reuses the slots (BufferLifetimes).
        bool lastLoop = true;
        for (Operation *o = loop->getNextNode(); o && lastLoop;
             o = o->getNextNode())
          lastLoop = o->getNumRegions() == 0;
        int64_t scratch = scratchBytes(func, *target, warps, nullptr,
                                       [&](Operation *op) {
          if (isa<DotOp>(op) && loop->isAncestor(op))
            return true;
          Operation *top = loop->getBlock()->findAncestorOpInBlock(*op);
          return lastLoop && top && loop->isBeforeInBlock(top);
        });
        int64_t slot = 0;
        for (const Candidate &c : candidates)
          slot += llvm::alignTo(slotBytes(c), bufferAlignment(c.shared));
        int64_t align = 128;
        for (const Candidate &c : candidates)
          align = std::max(align, bufferAlignment(c.shared));
        int64_t room = conversionBudget(*target) -
                       llvm::alignTo(scratch, align) - alreadyAllocated(func);
        // A dot left in flight (asyncDots, with 3 stages or more) keeps
        // its slot one iteration longer: one slot more.
        // Started after the dots instead (copiesAfterDots), the copies
        // wait for them and a barrier: no slot more.
        SmallVector<DotOp> inFlight = asyncDots(loop);
        auto lag = [&](int64_t s) -> int64_t {
          return s >= 3 && !inFlight.empty() && !copiesAfterDots ? 1 : 0;
        };
        int64_t s = stages;
        while (s >= 2 && (s + lag(s)) * slot > room)
          --s;
        if (s < 2)
          continue;
        bool inFlightDots = s >= 3 && !inFlight.empty();
        pipeline(loop, candidates, s,
                 inFlightDots ? ArrayRef<DotOp>(inFlight) : ArrayRef<DotOp>(),
                 inFlightDots && copiesAfterDots);
      }
    });
  }

  static int64_t slotBytes(const Candidate &c) {
    auto type = cast<RankedTensorType>(c.load.getType());
    int64_t rows = type.getNumElements() / type.getShape().back();
    return rows * (type.getShape().back() + c.shared.pad) *
           sharedBytes(type.getElementType());
  }

  /// The loop's wgmma dots that may return before they finish (one group
  /// in flight, ktc.dot_pending = 1): each one's result only carried to
  /// the next iteration's same dot as its accumulator. Either all of the
  /// loop's wgmma dots, or none (then every dot waits for itself). Used
  /// with 3 stages or more (as Triton's pipeliner): the slot the previous
  /// iteration read may still be read, so the buffers get a slot more.
  static SmallVector<DotOp> asyncDots(scf::ForOp loop) {
    SmallVector<DotOp> dots;
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (Operation &op : loop.getBody()->without_terminator()) {
      auto dot = dyn_cast<DotOp>(&op);
      if (!dot || !wgmmaOf(dot))
        continue;
      if (!dot->hasOneUse() || *dot->user_begin() != yield)
        return {};
      unsigned j = dot->use_begin()->getOperandNumber();
      BlockArgument carried = loop.getRegionIterArgs()[j];
      if (dot.getAcc() != carried || !carried.hasOneUse())
        return {};
      dots.push_back(dot);
    }
    return dots;
  }

  static int64_t alreadyAllocated(func::FuncOp func) {
    int64_t bytes = 0;
    func.walk([&](LocalAllocOp alloc) {
      bytes += llvm::alignTo(bufferBytes(alloc),
                             bufferAlignment(bufferLayout(alloc)));
    });
    return bytes;
  }

  /// The loads of `loop` whose blocks only feed dots and can be copied
  /// asynchronously.
  static SmallVector<Candidate> find(scf::ForOp loop, const AxisAnalysis &axis,
                                     const TargetInfo &target) {
    SmallVector<Candidate> out;
    for (Operation &op : loop.getBody()->without_terminator()) {
      auto load = dyn_cast<LoadOp>(&op);
      if (!load)
        continue;
      auto type = dyn_cast<RankedTensorType>(load.getType());
      if (!type || type.getRank() != 2 || load->use_empty())
        continue;
      if (load.getOther() && !isPositiveZero(load.getOther()))
        continue;
      // Every user a dot taking it as A or B, all in one layout.
      std::optional<LinearLayout> to;
      bool ok = true;
      DotOp user;
      unsigned operand = 0;
      for (OpOperand &use : load->getUses()) {
        auto dot = dyn_cast<DotOp>(use.getOwner());
        if (!dot || use.getOperandNumber() >= 2) {
          ok = false;
          break;
        }
        user = dot, operand = use.getOperandNumber();
        LinearLayout need = dotOperandLayout(dot, use.getOperandNumber());
        if (to && !(*to == need))
          ok = false;
        to = need;
      }
      if (!ok)
        continue;
      Value mask = load.getMask();
      SmallVector<Value> roots{load.getPtr()};
      if (mask)
        roots.push_back(mask);
      std::optional<AddressSlice> slice = addressSlice(loop, roots);
      if (!slice)
        continue;
      LinearLayout from = toLinearLayout(type);
      Type element = type.getElementType();
      // wgmma reads its slots through descriptors: their swizzled layout;
      // other dots' fragment reads get SharedPlan's conflict-free one.
      const MmaInstr *instr = wgmmaOf(user);
      SharedLayout shared =
          instr ? wgmmaOperandLayout(*instr, operand, type.getShape(),
                                     sharedBytes(element))
                : planSharedInOrder(from, *to, element, 0,
                                    target.hasMatrixLoads())
                      .shared;
      int64_t width = axis.vectorWidth(load, int(from.fastestDim()));
      if (!asyncCopyVector(from, sharedBytes(element), shared, width))
        continue;
      out.push_back({load, std::move(*slice), shared, Value()});
    }
    return out;
  }

  /// Clones `c`'s address slice for the iteration `iv`, `k` iterations on
  /// (from the loop's current one, or before it from its first), and
  /// copies its block into slot `slot`, masked off unless `inRange` (from
  /// the pointers `carried` instead of the cloned ones where given).
  static void copy(OpBuilder &b, Value loopIv, const Candidate &c, Value iv,
                   int64_t k, bool inLoop, Value inRange, Value slot,
                   Value carried = {}) {
    IRMapping map;
    c.slice.clone(b, map, loopIv, iv, k, inLoop);
    Location loc = c.load.getLoc();
    Value ptr = carried ? carried : map.lookupOrDefault(c.load.getPtr());
    auto tensor = cast<RankedTensorType>(ptr.getType());
    Value guard = SplatOp::create(
        b, loc,
        RankedTensorType::get(tensor.getShape(), b.getI1Type(),
                              tensor.getEncoding()),
        inRange);
    Value mask = c.load.getMask()
                     ? Value(arith::AndIOp::create(
                           b, loc, map.lookupOrDefault(c.load.getMask()),
                           guard))
                     : guard;
    AsyncCopyOp::create(b, loc, ptr, c.buffer, slot, mask);
  }

  /// `afterDots`: the copies start after the last of `asyncDots` (each of
  /// which waits for its previous iteration's group) and a barrier, into
  /// the slot the previous iteration read, as Triton orders them on
  /// Hopper; otherwise before the dots, with a slot more for the dots
  /// still in flight.
  void pipeline(scf::ForOp loop, MutableArrayRef<Candidate> candidates,
                int64_t stages, ArrayRef<DotOp> asyncDots, bool afterDots) {
    // Copies run S-1 iterations ahead; a dot still in flight keeps its
    // slot one iteration longer, in a slot more (unless the copies wait
    // for it).
    int64_t lag = asyncDots.empty() || afterDots ? 0 : 1;
    int64_t ahead = stages - 1, slots = stages + lag;
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    auto i32 = [&](OpBuilder &b, int64_t v) -> Value {
      return arith::ConstantIntOp::create(b, loc, v, 32);
    };
    for (Candidate &c : candidates) {
      auto type = cast<RankedTensorType>(c.load.getType());
      SmallVector<int64_t> shape{slots};
      llvm::append_range(shape, type.getShape());
      c.buffer = LocalAllocOp::create(
          b, loc, SharedBufferType::get(b.getContext(), shape,
                                        type.getElementType()),
          c.shared.pad, c.shared.vec, c.shared.perPhase, c.shared.maxPhase,
          c.shared.split);
    }
    // The prologue: iterations 0 .. S-2 into slots 0 .. S-2, a group each.
    LoopBounds bounds = LoopBounds::of(b, loop);
    for (int64_t s = 0; s < ahead; ++s) {
      auto [iv, inRange] = bounds.advance(b, loc, loop.getLowerBound(), s);
      for (const Candidate &c : candidates)
        copy(b, loop.getInductionVar(), c, iv, s, false, inRange, i32(b, s));
      AsyncCommitOp::create(b, loc);
    }
    // The copies' pointers the loop carries: iteration S-1's, advanced by
    // (coefficient x step) each iteration.
    SmallVector<Value> carriedInit, carriedStep;
    SmallVector<int64_t> carriedOf(candidates.size(), -1);
    {
      auto [iv, inRange] =
          bounds.advance(b, loc, loop.getLowerBound(), ahead);
      (void)inRange;
      for (auto [i, c] : llvm::enumerate(candidates)) {
        DenseMap<Value, Value> memo;
        FailureOr<Value> coefficient =
            ivCoefficient(b, loop, c.load.getPtr(), memo);
        if (failed(coefficient) || !*coefficient || !c.slice.carried.empty())
          continue;
        IRMapping map;
        c.slice.clone(b, map, loop.getInductionVar(), iv, ahead, false);
        carriedOf[i] = carriedInit.size();
        carriedInit.push_back(map.lookupOrDefault(c.load.getPtr()));
        carriedStep.push_back(
            arith::MulIOp::create(b, loc, *coefficient, loop.getStep()));
      }
    }
    // Each iteration: wait for its slot, refill the previous one with
    // iteration i + S-1, and carry the slot index.
    IRRewriter rewriter(loop.getContext());
    auto yields = [&](OpBuilder &yb, Location, ArrayRef<BlockArgument> args) {
      OpBuilder::InsertionGuard guard(yb);
      Block *body = yb.getInsertionBlock();
      Value loopIv = body->getArgument(0);
      Value slot = args[0];
      yb.setInsertionPointToStart(body);
      Value last = i32(yb, slots - 1);
      AsyncWaitOp::create(yb, loc, ahead - 1);
      // The slot `lag` + 1 iterations back: (slot - 1 - lag) mod slots.
      Value wrapped = arith::CmpIOp::create(
          yb, loc, arith::CmpIPredicate::slt, slot, i32(yb, 1 + lag));
      Value previous = arith::SelectOp::create(
          yb, loc, wrapped,
          arith::AddIOp::create(yb, loc, slot, i32(yb, slots - 1 - lag)),
          arith::SubIOp::create(yb, loc, slot, i32(yb, 1 + lag)));
      if (afterDots) {
        // After the dots: every warp's dot of the previous iteration has
        // finished reading the slot refilled once all pass a barrier (the
        // wait finds no group to wait for: the top one took them).
        yb.setInsertionPointAfter(asyncDots.back());
        AsyncWaitOp::create(yb, loc, ahead - 1);
      }
      auto [iv, inRange] = bounds.advance(yb, loc, loopIv, ahead);
      for (auto [i, c] : llvm::enumerate(candidates))
        copy(yb, loopIv, c, iv, ahead, true, inRange, previous,
             carriedOf[i] < 0 ? Value() : Value(args[1 + carriedOf[i]]));
      AsyncCommitOp::create(yb, loc);
      yb.setInsertionPoint(body->getTerminator());
      Value isLast = arith::CmpIOp::create(yb, loc, arith::CmpIPredicate::eq,
                                           slot, last);
      Value next = arith::SelectOp::create(
          yb, loc, isLast, i32(yb, 0),
          arith::AddIOp::create(yb, loc, slot, i32(yb, 1)));
      SmallVector<Value> yielded{next};
      for (auto [j, step] : llvm::enumerate(carriedStep)) {
        Value ptr = args[1 + j];
        auto type = cast<RankedTensorType>(ptr.getType());
        Value by = SplatOp::create(
            yb, loc,
            RankedTensorType::get(type.getShape(), yb.getI32Type(),
                                  type.getEncoding()),
            step);
        yielded.push_back(AddPtrOp::create(yb, loc, type, ptr, by));
      }
      return yielded;
    };
    size_t firstArg = loop.getNumRegionIterArgs();
    SmallVector<Value> inits{i32(b, 0)};
    llvm::append_range(inits, carriedInit);
    FailureOr<LoopLikeOpInterface> replaced =
        cast<LoopLikeOpInterface>(loop.getOperation())
            .replaceWithAdditionalYields(rewriter, inits,
                                         /*replaceInitOperandUsesInLoop=*/false,
                                         yields);
    if (failed(replaced)) {
      loop.emitError("ktc-pipeline-async: could not add the slot index");
      return signalPassFailure();
    }
    auto newLoop = cast<scf::ForOp>(replaced->getOperation());
    Value slot = newLoop.getRegionIterArgs()[firstArg];
    for (Candidate &c : candidates) {
      OpBuilder lb(c.load);
      auto read = LocalLoadOp::create(lb, c.load.getLoc(), c.load.getType(),
                                      c.buffer, slot);
      c.load.getResult().replaceAllUsesWith(read.getResult());
      c.load.erase();
    }
    // No copy may still be in flight after the loop (the last iterations'
    // prefetches were masked off, but they are copies all the same).
    OpBuilder after(newLoop->getContext());
    after.setInsertionPointAfter(newLoop);
    // Dots still in flight at the loop's end finish before any use.
    for (DotOp dot : asyncDots) {
      dot->setAttr(kDotPendingAttr, after.getI32IntegerAttr(1));
      unsigned j = dot->use_begin()->getOperandNumber();
      Value result = newLoop.getResult(j);
      auto wait = DotWaitOp::create(after, loc, result.getType(), result,
                                    after.getI32IntegerAttr(0));
      result.replaceAllUsesExcept(wait, wait);
    }
    // Then the copies; the wait's barrier also orders every thread's last
    // reads of the slots (the dots') before what follows, whose scratch
    // may then reuse them (BufferLifetimes, SharedBuffers.h).
    AsyncWaitOp::create(after, loc, 0);
  }
};

} // namespace
