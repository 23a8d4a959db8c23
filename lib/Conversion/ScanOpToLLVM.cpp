//===- ScanOpToLLVM.cpp - inclusive scans along an axis --------------------===//
//
// ktc.scan in the one association order every target uses (KtcOps.td): in
// scan order (the axis reversed for `reverse`), for each bit k of an
// element's index, from 0 up, the element takes on its left the total of
// the aligned group of 2^k elements just before its own group, p =
// combine(T, p), if bit k is set; the two groups' total is combine(T_lo,
// T_hi). Each bit of the axis is one bit of the layout's map
// (dialect/LinearLayout.h), and is crossed where it lives:
//
// - a register bit: in the thread, between the two registers;
// - a lane bit: the partner lane's total through one exact xor shuffle
//   (TargetInfo::shuffleXor: shfl.sync.bfly on NVIDIA; DPP, ds_swizzle or
//   ds_bpermute on AMD), both lanes computing combine(T_lo, T_hi) from the
//   same two values;
// - a run of warp bits: every thread writes its totals to shared memory (8
//   bytes a slot, one per place: the threads holding the same totals share
//   it), a barrier, each thread reads those of its place in the other
//   waves of its group,
//   builds the same balanced totals of them and applies them level by
//   level; a barrier before the memory is used again.
//
// The host (lib/Target/CPU/HostScan.cpp) computes the same combines on the
// same operands: floats give the same bits. Registers whose totals are the
// same SSA values (merged by a register bit) shuffle and store them once.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <map>

using namespace mlir;
using namespace mlir::ktc;

namespace {

/// Where each bit of the axis lives in the layout.
struct AxisBit {
  LinearLayout::In in;
  unsigned bit;
};

/// The layout's bits along `axis`, lowest first; failure when a basis moves
/// along the axis and another dimension, or by more than one bit.
FailureOr<SmallVector<AxisBit>> axisBits(const LinearLayout &layout,
                                         unsigned axis) {
  int64_t n = layout.shape()[axis];
  SmallVector<AxisBit> bits(llvm::Log2_64(n), AxisBit{LinearLayout::Register,
                                                      ~0u});
  for (LinearLayout::In in :
       {LinearLayout::Register, LinearLayout::Lane, LinearLayout::Warp}) {
    for (auto [i, basis] : llvm::enumerate(layout.bases(in))) {
      int32_t v = basis[axis];
      if (v == 0)
        continue;
      for (unsigned d = 0; d < basis.size(); ++d)
        if (d != axis && basis[d] != 0)
          return failure();
      if (!llvm::isPowerOf2_32(v) || bits[llvm::Log2_32(v)].bit != ~0u)
        return failure();
      bits[llvm::Log2_32(v)] = AxisBit{in, unsigned(i)};
    }
  }
  for (const AxisBit &b : bits)
    if (b.bit == ~0u)
      return failure();
  return bits;
}

/// The thread-id bits (lanes, then warps) that tell apart the totals a run
/// of warp bits starting at axis bit `start` exchanges: all but the
/// replicating ones and the lanes of the axis bits below `start` (threads
/// differing only in those hold the same totals, and write the same slot).
uint64_t placeBits(const LinearLayout &layout, ArrayRef<AxisBit> bits,
                   size_t start) {
  unsigned threadBits = layout.numBits(LinearLayout::Lane) +
                        layout.numBits(LinearLayout::Warp);
  uint64_t drop = layout.replicatedThreadBits();
  for (size_t k = 0; k < start; ++k)
    if (bits[k].in == LinearLayout::Lane)
      drop |= uint64_t(1) << bits[k].bit;
  return ((uint64_t(1) << threadBits) - 1) & ~drop;
}

/// Register groups a round of 8-byte slots over `places` places: at most
/// 16 KiB.
int64_t groupsPerRound(int64_t places, size_t operands) {
  return std::max<int64_t>(1, 16384 / (8 * places * int64_t(operands)));
}

struct ScanLowering : OpConversionPattern<ScanOp> {
  ScanLowering(const TypeConverter &converter, MLIRContext *ctx,
               const LoweringState &state)
      : OpConversionPattern(converter, ctx), state(state) {}

  /// The `value` of lane (lane ^ mask), any scalar type, through i32 moves.
  Value shuffle(OpBuilder &b, Location loc, Value v, unsigned mask) const {
    const TargetInfo &t = *state.target;
    Type type = v.getType(), i32 = b.getI32Type();
    unsigned width = type.getIntOrFloatBitWidth();
    Type bits = b.getIntegerType(width);
    Value x = isa<FloatType>(type) ? arith::BitcastOp::create(b, loc, bits, v)
                                   : v;
    Value r;
    if (width == 64) {
      Value lo = arith::TruncIOp::create(b, loc, i32, x);
      Value sh = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(32));
      Value hi = arith::TruncIOp::create(
          b, loc, i32, arith::ShRUIOp::create(b, loc, x, sh));
      lo = arith::ExtUIOp::create(b, loc, bits, t.shuffleXor(b, loc, lo, mask));
      hi = arith::ExtUIOp::create(b, loc, bits, t.shuffleXor(b, loc, hi, mask));
      r = arith::OrIOp::create(b, loc, arith::ShLIOp::create(b, loc, hi, sh),
                               lo);
    } else if (width == 32) {
      r = t.shuffleXor(b, loc, x, mask);
    } else {
      r = arith::TruncIOp::create(
          b, loc, bits,
          t.shuffleXor(b, loc, arith::ExtUIOp::create(b, loc, i32, x), mask));
    }
    return isa<FloatType>(type) ? arith::BitcastOp::create(b, loc, type, r)
                                : r;
  }

  /// Slots hold 32 or 64 bits: narrower scalars (i1, f16, bf16) travel
  /// zero-extended in an i32, so that shared memory sees only words.
  static Type wordType(OpBuilder &b, Type type) {
    return type.getIntOrFloatBitWidth() == 64 ? b.getI64Type()
                                              : b.getI32Type();
  }
  static Value toWord(OpBuilder &b, Location loc, Value v) {
    Type type = v.getType();
    unsigned width = type.getIntOrFloatBitWidth();
    if (width == 32 || width == 64)
      return v;
    if (isa<FloatType>(type))
      v = arith::BitcastOp::create(b, loc, b.getIntegerType(width), v);
    return arith::ExtUIOp::create(b, loc, b.getI32Type(), v);
  }
  static Value fromWord(OpBuilder &b, Location loc, Value w, Type type) {
    unsigned width = type.getIntOrFloatBitWidth();
    if (width == 32 || width == 64)
      return w.getType() == type ? w
                                 : arith::BitcastOp::create(b, loc, type, w)
                                       .getResult();
    Value v = arith::TruncIOp::create(b, loc, b.getIntegerType(width), w);
    return isa<FloatType>(type) ? arith::BitcastOp::create(b, loc, type, v)
                                      .getResult()
                                : v;
  }

  static SmallVector<Value> select(OpBuilder &b, Location loc, Value c,
                                   ArrayRef<Value> x, ArrayRef<Value> y) {
    SmallVector<Value> r;
    for (auto [a, e] : llvm::zip(x, y))
      r.push_back(arith::SelectOp::create(b, loc, c, a, e));
    return r;
  }

  LogicalResult
  matchAndRewrite(ScanOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    const TargetInfo &target = *state.target;
    auto type = cast<RankedTensorType>(op.getSrcs().front().getType());
    for (Type t : op.getSrcs().getTypes())
      if (t != type)
        return op.emitOpError("operands must share one layout");
    LinearLayout layout = toLinearLayout(type);
    unsigned axis = op.getAxis();
    FailureOr<SmallVector<AxisBit>> bits = axisBits(layout, axis);
    if (failed(bits))
      return op.emitOpError("cannot scan a layout whose bits move along the "
                            "axis and another dimension at once");
    bool reverse = op.getReverse();
    size_t count = op.getSrcs().size();
    int64_t registers = layout.numRegisters();
    // p[r], t[r]: the prefix and the group's total of register r, one value
    // per operand.
    using Values = SmallVector<Value, 2>;
    SmallVector<Values> p(registers), t;
    for (size_t i = 0; i < count; ++i)
      for (int64_t r = 0; r < registers; ++r)
        p[r].push_back(adaptor.getSrcs()[i][r]);
    t = p;
    auto combine = [&](ArrayRef<Value> earlier, ArrayRef<Value> later) {
      return Values(op.combine(b, earlier, later));
    };
    // Registers grouped by their total (the same SSA values): first
    // register of each group, and each register's group.
    auto groups = [&](SmallVector<int64_t> &of) {
      std::map<SmallVector<void *>, int64_t> seen;
      SmallVector<int64_t> firsts;
      of.assign(registers, 0);
      for (int64_t r = 0; r < registers; ++r) {
        SmallVector<void *> key;
        for (Value v : t[r])
          key.push_back(v.getAsOpaquePointer());
        auto [it, added] = seen.try_emplace(key, firsts.size());
        if (added)
          firsts.push_back(r);
        of[r] = it->second;
      }
      return firsts;
    };
    Value tid;
    auto threadId = [&] {
      if (!tid)
        tid = target.threadId(b, loc);
      return tid;
    };
    unsigned laneBits = layout.numBits(LinearLayout::Lane);
    // Whether this thread's `bit` of the thread id puts it in the later
    // group (in scan order).
    auto later = [&](unsigned bit) -> Value {
      Value set = arith::CmpIOp::create(
          b, loc, reverse ? arith::CmpIPredicate::eq : arith::CmpIPredicate::ne,
          arith::AndIOp::create(b, loc, threadId(),
                                i32Const(b, loc, int64_t(1) << bit)),
          i32Const(b, loc, 0));
      return set;
    };

    size_t n = bits->size();
    for (size_t k = 0; k < n; ++k) {
      bool last = k + 1 == n;
      AxisBit at = (*bits)[k];
      if (at.in == LinearLayout::Register) {
        int64_t m = int64_t(1) << at.bit;
        for (int64_t r = 0; r < registers; ++r) {
          if (r & m)
            continue;
          int64_t lo = reverse ? r | m : r, hi = reverse ? r : r | m;
          p[hi] = combine(t[lo], p[hi]);
          if (!last) {
            Values total = combine(t[lo], t[hi]);
            t[lo] = t[hi] = total;
          }
        }
        continue;
      }
      if (at.in == LinearLayout::Lane) {
        Value isLater = later(at.bit);
        SmallVector<int64_t> of;
        SmallVector<int64_t> firsts = groups(of);
        SmallVector<Values> partner, total;
        for (int64_t r : firsts) {
          Values o;
          for (Value v : t[r])
            o.push_back(shuffle(b, loc, v, 1u << at.bit));
          partner.push_back(o);
          if (!last)
            total.push_back(combine(select(b, loc, isLater, o, t[r]),
                                    select(b, loc, isLater, t[r], o)));
        }
        for (int64_t r = 0; r < registers; ++r) {
          p[r] = select(b, loc, isLater, combine(partner[of[r]], p[r]), p[r]);
          if (!last)
            t[r] = total[of[r]];
        }
        continue;
      }
      // A run of warp bits, k .. k + run - 1.
      SmallVector<unsigned> run;
      while (k + run.size() < n && (*bits)[k + run.size()].in == LinearLayout::Warp)
        run.push_back((*bits)[k + run.size()].bit);
      k += run.size() - 1;
      last = k + 1 == n;
      acrossWaves(b, loc, op, layout, run, placeBits(layout, *bits, k + 1 - run.size()),
                  reverse, last, p, t, groups, threadId(), laneBits);
    }
    SmallVector<SmallVector<Value>> results(count);
    for (size_t i = 0; i < count; ++i)
      for (int64_t r = 0; r < registers; ++r)
        results[i].push_back(p[r][i]);
    SmallVector<ValueRange> ranges(results.begin(), results.end());
    rewriter.replaceOpWithMultiple(op, ranges);
    return success();
  }

  /// The levels of the warp bits `run` (warp-id bit numbers, lowest axis
  /// bit first) through shared memory.
  template <typename Groups>
  void acrossWaves(OpBuilder &b, Location loc, ScanOp op,
                   const LinearLayout &layout, ArrayRef<unsigned> run,
                   uint64_t keep, bool reverse, bool last,
                   SmallVector<SmallVector<Value, 2>> &p,
                   SmallVector<SmallVector<Value, 2>> &t, Groups &groups,
                   Value tid, unsigned laneBits) const {
    using Values = SmallVector<Value, 2>;
    const TargetInfo &target = *state.target;
    size_t count = op.getSrcs().size();
    int64_t places = int64_t(1) << llvm::popcount(keep);
    int64_t members = int64_t(1) << run.size();
    SmallVector<int64_t> of;
    SmallVector<int64_t> firsts = groups(of);
    int64_t perRound = groupsPerRound(places, count);
    // The thread-id bits of the run, and the id of the thread in the same
    // place of member q (in scan order) of the group.
    uint64_t runMask = 0;
    for (unsigned w : run)
      runMask |= uint64_t(1) << (laneBits + w);
    Value others = arith::AndIOp::create(b, loc, tid,
                                         i32Const(b, loc, ~int64_t(runMask)));
    auto memberTid = [&](int64_t q) {
      int64_t phys = reverse ? members - 1 - q : q, bitsOf = 0;
      for (auto [j, w] : llvm::enumerate(run))
        if (phys >> j & 1)
          bitsOf |= int64_t(1) << (laneBits + w);
      return arith::OrIOp::create(b, loc, others, i32Const(b, loc, bitsOf));
    };
    auto slot = [&](int64_t g, size_t i, Value thread) {
      Value index = arith::AddIOp::create(
          b, loc, i32Const(b, loc, (g * int64_t(count) + i) * places),
          extractBits(b, loc, thread, keep));
      return sharedElement(b, loc, state, b.getI64Type(), index);
    };
    // This thread's position in the group, in scan order, bit by bit.
    SmallVector<Value> laterAt;
    for (unsigned w : run)
      laterAt.push_back(arith::CmpIOp::create(
          b, loc, reverse ? arith::CmpIPredicate::eq : arith::CmpIPredicate::ne,
          arith::AndIOp::create(b, loc, tid,
                                i32Const(b, loc, int64_t(1) << (laneBits + w))),
          i32Const(b, loc, 0)));
    // Its group's index at level j (scan order), as an i32.
    Value position = i32Const(b, loc, 0);
    for (auto [j, c] : llvm::enumerate(laterAt))
      position = arith::OrIOp::create(
          b, loc, position,
          arith::SelectOp::create(b, loc, c, i32Const(b, loc, 1 << j),
                                  i32Const(b, loc, 0)));
    SmallVector<Values> total(firsts.size());
    SmallVector<SmallVector<Values>> partners(firsts.size());
    for (int64_t first = 0; first < int64_t(firsts.size()); first += perRound) {
      int64_t end = std::min<int64_t>(firsts.size(), first + perRound);
      for (int64_t g = first; g < end; ++g)
        for (size_t i = 0; i < count; ++i)
          LLVM::StoreOp::create(b, loc, toWord(b, loc, t[firsts[g]][i]),
                                slot(g - first, i, tid));
      target.barrier(b, loc);
      for (int64_t g = first; g < end; ++g) {
        // tot[j][c]: the balanced total of group c at level j.
        SmallVector<SmallVector<Values>> tot(run.size() + 1);
        for (int64_t q = 0; q < members; ++q) {
          Value thread = memberTid(q);
          Values v;
          for (size_t i = 0; i < count; ++i) {
            Type type = t[firsts[g]][i].getType();
            v.push_back(fromWord(
                b, loc,
                LLVM::LoadOp::create(b, loc, wordType(b, type),
                                     slot(g - first, i, thread)),
                type));
          }
          tot[0].push_back(v);
        }
        for (size_t j = 1; j <= run.size(); ++j)
          for (size_t c = 0; c < tot[j - 1].size(); c += 2)
            tot[j].push_back(
                Values(op.combine(b, tot[j - 1][c], tot[j - 1][c + 1])));
        // The partner group's total at each level: group (position >> j) ^ 1.
        for (size_t j = 0; j < run.size(); ++j) {
          Value mine = arith::ShRUIOp::create(b, loc, position,
                                              i32Const(b, loc, j));
          Value want = arith::XOrIOp::create(b, loc, mine, i32Const(b, loc, 1));
          Values pick = tot[j][0];
          for (size_t c = 1; c < tot[j].size(); ++c) {
            Value is = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                             want, i32Const(b, loc, c));
            pick = select(b, loc, is, tot[j][c], pick);
          }
          partners[g].push_back(pick);
        }
        total[g] = tot[run.size()][0];
      }
      target.barrier(b, loc);
    }
    for (int64_t r = 0; r < int64_t(p.size()); ++r) {
      for (size_t j = 0; j < run.size(); ++j)
        p[r] = select(b, loc, laterAt[j],
                      Values(op.combine(b, partners[of[r]][j], p[r])), p[r]);
      if (!last)
        t[r] = total[of[r]];
    }
  }

  const LoweringState &state;
};

} // namespace

int64_t mlir::ktc::scanSharedBytes(ScanOp op) {
  auto type = cast<RankedTensorType>(op.getSrcs().front().getType());
  LinearLayout layout = toLinearLayout(type);
  FailureOr<SmallVector<AxisBit>> bits = axisBits(layout, op.getAxis());
  if (failed(bits))
    return 0; // the lowering reports it
  size_t count = op.getSrcs().size();
  int64_t bytes = 0;
  for (size_t k = 0; k < bits->size(); ++k) {
    if ((*bits)[k].in != LinearLayout::Warp ||
        (k > 0 && (*bits)[k - 1].in == LinearLayout::Warp))
      continue; // not the start of a run of warp bits
    int64_t places = int64_t(1) << llvm::popcount(placeBits(layout, *bits, k));
    int64_t groups = std::min<int64_t>(layout.numRegisters(),
                                       groupsPerRound(places, count));
    bytes = std::max(bytes, groups * int64_t(count) * places * 8);
  }
  return bytes;
}

void mlir::ktc::populateScanPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     const LoweringState &state) {
  patterns.add<ScanLowering>(converter, patterns.getContext(), state);
}
