//===- WarpShuffles.cpp - layout conversions within a warp -----------------===//
//
// See WarpShuffles.h. The plan gives, for result register r of thread t,
// the source lane and register as XORs of terms selected by the bits of r
// and t. The thread's parts are computed once from the thread id (a mask
// where a term is the bit itself, else the bit times the term); for each
// result register, each value the thread part of the source register can
// take is one shuffle of that register, the thread keeping the one its
// own part selects. A shuffle whose source lane is the thread's own is
// skipped, and identical shuffles are made once.
//
//===----------------------------------------------------------------------===//

#include "WarpShuffles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <map>

using namespace mlir;
using namespace mlir::ktc;

static Value constI32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(int32_t(v)));
}

/// XOR of terms[i] over the set bits i of the thread id `tid`.
static Value threadPart(OpBuilder &b, Location loc, Value tid,
                        ArrayRef<uint64_t> terms) {
  Value acc;
  auto xorIn = [&](Value v) {
    acc = acc ? arith::XOrIOp::create(b, loc, acc, v).getResult() : v;
  };
  uint64_t identity = 0;
  for (auto [i, t] : llvm::enumerate(terms)) {
    if (!t)
      continue;
    if (t == uint64_t(1) << i) {
      identity |= t;
      continue;
    }
    Value bit = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, tid, constI32(b, loc, i)),
        constI32(b, loc, 1));
    xorIn(arith::MulIOp::create(b, loc, bit, constI32(b, loc, int64_t(t))));
  }
  if (identity)
    xorIn(arith::AndIOp::create(b, loc, tid, constI32(b, loc, identity)));
  return acc ? acc : constI32(b, loc, 0);
}

Value mlir::ktc::shuffleScalar(OpBuilder &b, Location loc,
                               const TargetInfo &target, Value value,
                               Value srcLane) {
  Type type = value.getType();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  if (isa<LLVM::LLVMPointerType>(type)) {
    Value bits = LLVM::PtrToIntOp::create(b, loc, i64, value);
    return LLVM::IntToPtrOp::create(
        b, loc, type, shuffleScalar(b, loc, target, bits, srcLane));
  }
  unsigned width = type.getIntOrFloatBitWidth();
  Type bitsType = b.getIntegerType(width);
  Value bits = isa<FloatType>(type)
                   ? arith::BitcastOp::create(b, loc, bitsType, value).getResult()
                   : value;
  Value moved;
  if (width == 32) {
    moved = target.shuffleIndex(b, loc, bits, srcLane);
  } else if (width < 32) {
    moved = arith::TruncIOp::create(
        b, loc, bitsType,
        target.shuffleIndex(b, loc, arith::ExtUIOp::create(b, loc, i32, bits),
                            srcLane));
  } else { // 64 bits: two halves
    Value c32 = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(32));
    Value lo = arith::TruncIOp::create(b, loc, i32, bits);
    Value hi = arith::TruncIOp::create(
        b, loc, i32, arith::ShRUIOp::create(b, loc, bits, c32));
    lo = arith::ExtUIOp::create(b, loc, bitsType,
                                target.shuffleIndex(b, loc, lo, srcLane));
    hi = arith::ShLIOp::create(
        b, loc,
        arith::ExtUIOp::create(b, loc, bitsType,
                               target.shuffleIndex(b, loc, hi, srcLane)),
        c32);
    moved = arith::OrIOp::create(b, loc, hi, lo);
  }
  return isa<FloatType>(type)
             ? arith::BitcastOp::create(b, loc, type, moved).getResult()
             : moved;
}

SmallVector<Value> mlir::ktc::shuffleWithinWarps(OpBuilder &b, Location loc,
                                                 const TargetInfo &target,
                                                 const WarpShufflePlan &plan,
                                                 int64_t numResults,
                                                 ValueRange values) {
  Value tid = target.threadId(b, loc);
  // The lane terms of the warp bits are zero (a source lies in the
  // thread's own warp); those of the lane bits give the source lane.
  Value laneBase = threadPart(b, loc, tid, plan.laneOfThread);
  SmallVector<int64_t> choices = plan.registerChoices();
  Value regPart;
  if (choices.size() > 1)
    regPart = threadPart(b, loc, tid, plan.regOfThread);
  bool ownLane = true; // laneOfThread keeps the thread's own lane
  for (auto [i, t] : llvm::enumerate(plan.laneOfThread))
    ownLane &= t == (i < plan.laneBits ? uint64_t(1) << i : 0);
  // One shuffle per (source register, lane term of the result register).
  std::map<std::pair<int64_t, uint64_t>, Value> moved;
  auto move = [&](int64_t reg, uint64_t laneTerm) {
    Value &v = moved[{reg, laneTerm}];
    if (v)
      return v;
    if (ownLane && !laneTerm)
      return v = values[reg];
    Value lane = laneTerm ? arith::XOrIOp::create(
                                b, loc, laneBase, constI32(b, loc, laneTerm))
                                .getResult()
                          : laneBase;
    return v = shuffleScalar(b, loc, target, values[reg], lane);
  };
  SmallVector<Value> out;
  for (int64_t r = 0; r < numResults; ++r) {
    uint64_t laneTerm = plan.srcLane(r, 0);
    int64_t regTerm = plan.srcRegister(r, 0);
    Value result;
    for (int64_t c : choices) {
      Value v = move(c ^ regTerm, laneTerm);
      if (!result) {
        result = v;
        continue;
      }
      Value mine = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         regPart, constI32(b, loc, c));
      result = arith::SelectOp::create(b, loc, mine, v, result);
    }
    out.push_back(result);
  }
  return out;
}
