//===- ReduceWithOpToLLVM.cpp - reductions with a combine region ----------===//
//
// ktc.reduce_with of N blocks in one layout, the structure of ktc.reduce's
// lowering along an axis (ReduceOpToLLVM.cpp) with the combine region
// cloned wherever two partials meet: registers whose bases move along the
// axis combine in the thread; lanes whose bases do, in xor butterflies
// (every value of the tuple moved as 32-bit words); waves whose bases do,
// through shared memory (WaveExchange: N arrays side by side, one writer
// per copy, a barrier, each thread combines the waves in wave order, a
// barrier). Elements that several threads or registers hold (replicas)
// are combined once: a combine need not be idempotent (xor, sums). The
// values stay in their element types (a combine sees what the user wrote).
// 1-D blocks go the same way and give scalars.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"
#include "WaveExchange.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::ktc;

namespace {

using Tuple = SmallVector<Value, 2>;

/// Bytes of one partial tuple in shared memory, each value in its own
/// array; the arrays start at multiples of 8 bytes.
struct TupleSlots {
  SmallVector<int64_t> offsets; // byte offset of each array
  int64_t bytes = 0;

  TupleSlots(TypeRange types, int64_t slotsPerArray) {
    for (Type t : types) {
      offsets.push_back(bytes);
      bytes += llvm::alignTo(slotsPerArray * sharedBytes(t), 8);
    }
  }
};

/// Registers a round: at most 16 KiB of shared memory a round.
int64_t tupleChunk(const WaveExchange &plan, int64_t registers,
                   TypeRange types) {
  int64_t perRegister = 0;
  for (Type t : types)
    perRegister += plan.groups * plan.places * sharedBytes(t);
  return std::clamp<int64_t>(16384 / perRegister, 1, registers);
}

int64_t exchangeBytes(const LinearLayout &layout, unsigned axis,
                      TypeRange types, int64_t registers) {
  if (!layout.bitsAlong(LinearLayout::Warp, axis))
    return 0;
  WaveExchange plan(layout, axis);
  int64_t chunk = tupleChunk(plan, registers, types);
  return TupleSlots(types, chunk * plan.groups * plan.places).bytes;
}

struct ReduceWithLowering : OpConversionPattern<ReduceWithOp> {
  ReduceWithLowering(const TypeConverter &converter, MLIRContext *ctx,
                     const LoweringState &state)
      : OpConversionPattern(converter, ctx), state(state) {}

  /// The combine region applied to partials `a` and `b`.
  static Tuple combine(OpBuilder &b, ReduceWithOp op, ValueRange x,
                       ValueRange y) {
    Block &block = op.getCombineBlock();
    IRMapping map;
    size_t n = x.size();
    for (size_t i = 0; i < n; ++i) {
      map.map(block.getArgument(i), x[i]);
      map.map(block.getArgument(n + i), y[i]);
    }
    for (Operation &inner : block.without_terminator())
      b.clone(inner, map);
    Tuple out;
    for (Value v : block.getTerminator()->getOperands())
      out.push_back(map.lookup(v));
    return out;
  }

  /// The value of lane (lane ^ mask) (exact) or of the butterfly partner
  /// at step `mask`, for any scalar of up to 64 bits, as 32-bit words.
  Value shuffle(OpBuilder &b, Location loc, Value v, unsigned mask,
                bool exact) const {
    const TargetInfo &t = *state.target;
    auto partner = [&](Value x) {
      return exact ? t.shuffleXor(b, loc, x, mask)
                   : t.butterflyPartner(b, loc, x, mask);
    };
    Type type = v.getType();
    unsigned width = type.getIntOrFloatBitWidth();
    Type bitsType = b.getIntegerType(width), i32 = b.getI32Type();
    Value bits = isa<FloatType>(type)
                     ? arith::BitcastOp::create(b, loc, bitsType, v).getResult()
                     : v;
    Value moved;
    if (width == 32) {
      moved = partner(bits);
    } else if (width < 32) {
      moved = arith::TruncIOp::create(
          b, loc, bitsType,
          partner(arith::ExtUIOp::create(b, loc, i32, bits)));
    } else { // 64 bits: two halves
      Value c32 = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(32));
      Value lo = arith::TruncIOp::create(b, loc, i32, bits);
      Value hi = arith::TruncIOp::create(
          b, loc, i32, arith::ShRUIOp::create(b, loc, bits, c32));
      lo = arith::ExtUIOp::create(b, loc, bitsType, partner(lo));
      hi = arith::ShLIOp::create(
          b, loc, arith::ExtUIOp::create(b, loc, bitsType, partner(hi)), c32);
      moved = arith::OrIOp::create(b, loc, hi, lo);
    }
    return isa<FloatType>(type)
               ? arith::BitcastOp::create(b, loc, type, moved).getResult()
               : moved;
  }

  LogicalResult
  matchAndRewrite(ReduceWithOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrcs().front().getType());
    unsigned axis = op.getAxis();
    LinearLayout layout = toLinearLayout(srcType);
    size_t n = op.getSrcs().size();
    SmallVector<Type> types;
    for (Value src : op.getSrcs()) {
      auto type = cast<RankedTensorType>(src.getType());
      if (toLinearLayout(type) != layout)
        return op.emitOpError("reduces blocks in different layouts");
      types.push_back(type.getElementType());
    }
    // 1. Within the thread: registers split into bits along the axis and
    // the rest, which number the result's registers (in 1-D: copies).
    FailureOr<RegisterSplit> split = RegisterSplit::of(op, layout, axis);
    if (failed(split))
      return failure();
    const SmallVector<unsigned> &along = split->along, &rest = split->rest;
    bool scalar = srcType.getRank() == 1;
    int64_t outs = scalar ? 1 : int64_t(1) << rest.size();
    SmallVector<Tuple> acc;
    for (int64_t out = 0; out < outs; ++out) {
      Tuple a;
      for (int64_t j = 0; j < (int64_t(1) << along.size()); ++j) {
        Tuple v;
        for (ValueRange values : adaptor.getSrcs())
          v.push_back(values[split->source(out, j)]);
        a = a.empty() ? v : combine(rewriter, op, a, v);
      }
      acc.push_back(a);
    }
    // 2. Across lanes: exact xor partners, or the cheaper butterfly steps
    // when the lanes along the axis are the lowest ones.
    bool pure, lanesPure;
    uint64_t lanes = layout.bitsAlong(LinearLayout::Lane, axis, &lanesPure);
    uint64_t warps = layout.bitsAlong(LinearLayout::Warp, axis, &pure);
    if (!lanesPure || !pure)
      return op.emitOpError("cannot reduce a layout whose lanes or waves move "
                            "along the axis and another dimension at once");
    bool prefix = (lanes & (lanes + 1)) == 0;
    for (unsigned bit = 0; bit < 64 && (lanes >> bit); ++bit) {
      if (!(lanes >> bit & 1))
        continue;
      for (Tuple &a : acc) {
        Tuple other;
        for (Value v : a)
          other.push_back(shuffle(rewriter, loc, v, 1u << bit, !prefix));
        a = combine(rewriter, op, a, other);
      }
    }
    // 3. Across waves.
    if (warps)
      combineAcrossWaves(rewriter, loc, op, layout, axis, types, acc);
    if (scalar) {
      rewriter.replaceOp(op, acc.front());
      return success();
    }
    LinearLayout natural = layout.dropDim(axis).canonical();
    SmallVector<SmallVector<Value>> results(n);
    for (size_t k = 0; k < n; ++k) {
      for (Tuple &a : acc)
        results[k].push_back(a[k]);
      LinearLayout wanted =
          toLinearLayout(cast<RankedTensorType>(op.getResult(k).getType()));
      if (natural != wanted)
        results[k] = convertLayout(rewriter, loc, state, natural, wanted,
                                   results[k]);
    }
    rewriter.replaceOpWithMultiple(op, std::move(results));
    return success();
  }

  /// ReduceOpToLLVM's combineAcrossWaves for tuples: each value of a
  /// partial in its own array ([group][reg][place] each).
  void combineAcrossWaves(OpBuilder &b, Location loc, ReduceWithOp op,
                          const LinearLayout &layout, unsigned axis,
                          TypeRange types, SmallVectorImpl<Tuple> &acc) const {
    const TargetInfo &target = *state.target;
    unsigned laneBits = layout.numBits(LinearLayout::Lane);
    WaveExchange plan(layout, axis);
    int64_t chunk = tupleChunk(plan, acc.size(), types);
    TupleSlots slots(types, chunk * plan.groups * plan.places);
    Value tid = target.threadId(b, loc);
    Value place = extractBits(b, loc, tid, plan.place);
    Value group = extractBits(b, loc, tid, plan.group << laneBits);
    auto slot = [&](unsigned k, Value g, int64_t reg) {
      int64_t first = slots.offsets[k] / sharedBytes(types[k]);
      Value index = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(
              b, loc,
              arith::AddIOp::create(
                  b, loc,
                  arith::MulIOp::create(b, loc, g, i32Const(b, loc, chunk)),
                  i32Const(b, loc, reg)),
              i32Const(b, loc, plan.places)),
          arith::AddIOp::create(b, loc, place, i32Const(b, loc, first)));
      return sharedElement(b, loc, state, types[k], index);
    };
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
          for (unsigned k = 0; k < types.size(); ++k)
            LLVM::StoreOp::create(b, loc, acc[first + r][k], slot(k, group, r));
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
        Tuple a;
        for (int64_t g = 0; g < plan.groups; ++g) {
          Tuple v;
          for (unsigned k = 0; k < types.size(); ++k)
            v.push_back(LLVM::LoadOp::create(b, loc, types[k],
                                             slot(k, i32Const(b, loc, g), r)));
          a = a.empty() ? v : combine(b, op, a, v);
        }
        acc[first + r] = a;
      }
      target.barrier(b, loc);
    }
  }

  const LoweringState &state;
};

} // namespace

int64_t mlir::ktc::reduceWithSharedBytes(ReduceWithOp op,
                                          const TargetInfo &target) {
  auto src = cast<RankedTensorType>(op.getSrcs().front().getType());
  unsigned axis = op.getAxis();
  LinearLayout layout = toLinearLayout(src);
  SmallVector<Type> types;
  for (Value v : op.getSrcs())
    types.push_back(getElementTypeOrSelf(v.getType()));
  int64_t registers = 1;
  if (src.getRank() >= 2)
    registers = layout.dropDim(axis).canonical().numRegisters();
  int64_t bytes = exchangeBytes(layout, axis, types, registers);
  if (src.getRank() < 2)
    return bytes;
  // Results wanted in another layout than the source's slice: conversions
  // after the exchange (the same memory, once it is done).
  LinearLayout natural = layout.dropDim(axis).canonical();
  for (Value r : op.getResults()) {
    auto type = cast<RankedTensorType>(r.getType());
    bytes = std::max(bytes,
                     conversionSharedBytes(natural, toLinearLayout(type),
                                           type.getElementType(), target));
  }
  return bytes;
}

void mlir::ktc::populateReduceWithPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns,
                                           const LoweringState &state) {
  patterns.add<ReduceWithLowering>(converter, patterns.getContext(), state);
}
