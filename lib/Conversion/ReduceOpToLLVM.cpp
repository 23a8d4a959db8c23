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
#include "WaveExchange.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::ktc;

Type mlir::ktc::reductionType(Type element) {
  MLIRContext *ctx = element.getContext();
  if (isa<FloatType>(element)) // f64 stays f64
    return element.isF64() ? element : Float32Type::get(ctx);
  return element.isInteger(64) ? element : IntegerType::get(ctx, 32);
}

int64_t mlir::ktc::reductionSharedBytes(ReduceOp op,
                                         const TargetInfo &target) {
  RankedTensorType src = op.getSrc().getType();
  unsigned axis = op.getAxis();
  LinearLayout layout = toLinearLayout(src);
  LinearLayout natural = layout.dropDim(axis).canonical();
  int64_t bytes = 0;
  if (layout.bitsAlong(LinearLayout::Warp, axis)) {
    WaveExchange plan(layout, axis);
    Type type = reductionType(src.getElementType());
    bytes = plan.chunk(natural.numRegisters(), type) * plan.groups *
            plan.places * sharedBytes(type);
  }
  // A result type in another layout than the source's slice: a conversion
  // after (the same memory, once the exchange is done).
  LinearLayout wanted = toLinearLayout(cast<RankedTensorType>(op.getType()));
  Type element = src.getElementType();
  if (isa<PtrType>(element))
    element = LLVM::LLVMPointerType::get(op.getContext(), 1);
  return std::max(bytes,
                  conversionSharedBytes(natural, wanted, element, target));
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
  Value shuffle(OpBuilder &b, Location loc, Value v, unsigned mask,
                bool exact = false) const {
    const TargetInfo &t = *state.target;
    auto partner = [&](Value x) {
      return exact ? t.shuffleXor(b, loc, x, mask)
                   : t.butterflyPartner(b, loc, x, mask);
    };
    Type i32 = b.getI32Type();
    Type type = v.getType();
    if (type.isF64()) // as i64
      return arith::BitcastOp::create(
          b, loc, type,
          shuffle(b, loc, arith::BitcastOp::create(b, loc, b.getI64Type(), v),
                  mask, exact));
    if (type.isF32()) {
      Value bits = arith::BitcastOp::create(b, loc, i32, v);
      return arith::BitcastOp::create(b, loc, type,
                                      partner(bits));
    }
    if (type.isInteger(32))
      return partner(v);
    // i64: two halves.
    Value lo = arith::TruncIOp::create(b, loc, i32, v);
    Value hi = arith::TruncIOp::create(
        b, loc, i32,
        arith::ShRUIOp::create(
            b, loc, v, arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(32))));
    lo = arith::ExtUIOp::create(b, loc, type, partner(lo));
    hi = arith::ExtUIOp::create(b, loc, type, partner(hi));
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

  /// A block of rank 2 or more reduced along one axis, read off its
  /// layout's map: registers whose bases move along the axis combine in the
  /// thread; lanes whose bases do, in xor butterflies; waves whose bases do,
  /// through shared memory (combineAcrossWaves). The result is in the source
  /// layout with the axis dropped (its slice), converted if the result type
  /// says otherwise.
  LogicalResult rewriteAxis(ReduceOp op, OneToNOpAdaptor adaptor,
                            ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    RankedTensorType srcType = op.getSrc().getType();
    unsigned axis = op.getAxis();
    LinearLayout layout = toLinearLayout(srcType);
    Type element = srcType.getElementType();
    Type type = reductionType(element);
    ReduceKind kind = op.getKind();
    // 1. Within the thread: registers split into bits along the axis and
    // the rest, which number the result's registers.
    FailureOr<RegisterSplit> split = RegisterSplit::of(op, layout, axis);
    if (failed(split))
      return failure();
    const SmallVector<unsigned> &along = split->along, &rest = split->rest;
    ValueRange values = adaptor.getSrc();
    SmallVector<Value> acc;
    for (int64_t out = 0; out < (int64_t(1) << rest.size()); ++out) {
      Value a;
      for (int64_t j = 0; j < (int64_t(1) << along.size()); ++j) {
        Value v = widen(rewriter, loc,
                        values[split->source(out, j)],
                        element, type);
        a = a ? combine(rewriter, loc, kind, a, v) : v;
      }
      acc.push_back(a);
    }
    // 2. Across lanes: exact xor partners, or the cheaper butterfly steps
    // when the lanes along the axis are the lowest ones.
    bool pure;
    uint64_t lanes = layout.bitsAlong(LinearLayout::Lane, axis, &pure);
    bool lanesPure = pure;
    uint64_t warps = layout.bitsAlong(LinearLayout::Warp, axis, &pure);
    if (!lanesPure || !pure)
      return op.emitOpError("cannot reduce a layout whose lanes or waves move "
                            "along the axis and another dimension at once");
    bool prefix = (lanes & (lanes + 1)) == 0;
    for (unsigned bit = 0; bit < 64 && (lanes >> bit); ++bit) {
      if (!(lanes >> bit & 1))
        continue;
      for (Value &a : acc)
        a = combine(rewriter, loc, kind, a,
                    shuffle(rewriter, loc, a, 1u << bit, /*exact=*/!prefix));
    }
    // 3. Across waves.
    if (warps)
      combineAcrossWaves(rewriter, loc, kind, layout, axis, type, acc);
    SmallVector<Value> results;
    for (Value a : acc)
      results.push_back(narrow(rewriter, loc, a, element));
    LinearLayout natural = layout.dropDim(axis).canonical();
    LinearLayout wanted = toLinearLayout(cast<RankedTensorType>(op.getType()));
    if (natural != wanted)
      results = convertLayout(rewriter, loc, state, natural, wanted, results);
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }

  /// Combines each thread's partials `acc` with those of the waves along
  /// `axis` (WaveExchange): one thread of each set holding the same
  /// partials writes them to its place's slots, a barrier, each thread
  /// reads its place's slots in the other waves, in wave order (so every
  /// copy of a result is the same bits), a barrier. Chunks of registers
  /// keep the memory within reductionSharedBytes.
  void combineAcrossWaves(OpBuilder &b, Location loc, ReduceKind kind,
                          const LinearLayout &layout, unsigned axis, Type type,
                          SmallVectorImpl<Value> &acc) const {
    const TargetInfo &target = *state.target;
    unsigned laneBits = layout.numBits(LinearLayout::Lane);
    WaveExchange plan(layout, axis);
    int64_t chunk = plan.chunk(acc.size(), type);
    Value tid = target.threadId(b, loc);
    Value place = extractBits(b, loc, tid, plan.place);
    Value group = extractBits(b, loc, tid, plan.group << laneBits);
    int64_t groups = plan.groups;
    auto slot = [&](Value g, int64_t reg) {
      // [group][reg][place]: a wave's lanes touch consecutive words.
      Value index = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(
              b, loc,
              arith::AddIOp::create(
                  b, loc,
                  arith::MulIOp::create(b, loc, g, i32Const(b, loc, chunk)),
                  i32Const(b, loc, reg)),
              i32Const(b, loc, plan.places)),
          place);
      return sharedElement(b, loc, state, type, index);
    };
    // One copy of each partial is written.
    Value writer;
    if (plan.replica)
      writer = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq,
          arith::AndIOp::create(b, loc, tid, i32Const(b, loc, plan.replica)),
          i32Const(b, loc, 0));
    for (int64_t first = 0; first < int64_t(acc.size()); first += chunk) {
      int64_t count = std::min<int64_t>(chunk, acc.size() - first);
      auto write = [&](OpBuilder &b, Location loc) {
        for (int64_t r = 0; r < count; ++r)
          LLVM::StoreOp::create(b, loc, acc[first + r], slot(group, r));
      };
      if (writer) {
        scf::IfOp::create(b, loc, writer, [&](OpBuilder &b, Location loc) {
          write(b, loc);
          scf::YieldOp::create(b, loc);
        });
      } else {
        write(b, loc);
      }
      target.barrier(b, loc);
      for (int64_t r = 0; r < count; ++r) {
        Value a;
        for (int64_t g = 0; g < groups; ++g) {
          Value v = LLVM::LoadOp::create(b, loc, type,
                                         slot(i32Const(b, loc, g), r));
          a = a ? combine(b, loc, kind, a, v) : v;
        }
        acc[first + r] = a;
      }
      target.barrier(b, loc);
    }
  }

  LogicalResult
  matchAndRewrite(ReduceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getSrc().getType().getRank() >= 2)
      return rewriteAxis(op, adaptor, rewriter);
    Location loc = op.getLoc();
    RankedTensorType srcType = op.getSrc().getType();
    LinearLayout layout = toLinearLayout(srcType);
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
    // holding the first copy (zero in every replicating bit) contribute.
    uint64_t replicas = layout.replicatedThreadBits();
    if (replicas && kind == ReduceKind::Sum) {
      Value first = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq,
          arith::AndIOp::create(rewriter, loc, tid,
                                i32Const(rewriter, loc, replicas)),
          i32Const(rewriter, loc, 0));
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
