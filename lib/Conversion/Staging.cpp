//===- Staging.cpp - a block's round through shared memory, in parts -------===//
//
// See Staging.h.
//
//===----------------------------------------------------------------------===//

#include "Staging.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <optional>

using namespace mlir;
using namespace mlir::ktc;

StagedBlock::StagedBlock(const LoweringState &state, const LinearLayout &from,
                         const LinearLayout &to, Type element, SharedPlan plan,
                         int64_t offset, Value base)
    : state_(state), from_(from), to_(to),
      stored_(plan.perm.empty() ? from : from.permute(plan.perm)),
      read_(plan.perm.empty() ? to : to.permute(plan.perm)), element_(element),
      plan_(std::move(plan)), offset_(offset / sharedBytes(element)),
      base_(base) {
  if (!plan_.gather)
    return;
  // The gathered order's register bits, each one of `stored_`'s.
  LinearLayout gathered = gatherFirst(stored_);
  ArrayRef<LinearLayout::Coord> was = stored_.bases(LinearLayout::Register),
                                now = gathered.bases(LinearLayout::Register);
  SmallVector<unsigned> bit;
  for (const LinearLayout::Coord &c : now)
    bit.push_back(llvm::find(was, c) - was.begin());
  for (int64_t r = 0; r < gathered.numRegisters(); ++r) {
    int64_t old = 0;
    for (unsigned i = 0; i < bit.size(); ++i)
      if (r >> i & 1)
        old |= int64_t(1) << bit[i];
    writeOrder_.push_back(old);
  }
  stored_ = std::move(gathered);
}

/// `index` elements past the block's start.
static Value at(OpBuilder &b, Location loc, const LoweringState &state,
                Type element, Value index, int64_t offset, Value base) {
  if (offset)
    index = arith::AddIOp::create(b, loc, index, i32Const(b, loc, offset));
  if (base)
    index = arith::AddIOp::create(b, loc, index, base);
  return sharedElement(b, loc, state, element, index);
}

/// The index of `coords`' register group k0 in `shared`: where it differs
/// from an earlier group's by the same number in every lane and wave, that
/// index plus the constant, which the backend folds into the access's
/// immediate offset, so one address register serves both; else its own.
/// Without this a swizzled dot operand's reads each keep an address
/// register live through the K loop (gfx1100's WMMA matmul: 24 of them,
/// and it spilled). `known` holds the groups computed so far; only targets
/// without matrix loads (AMD) take it, NVIDIA's code stays as it was.
static Value sharedIndex(OpBuilder &b, Location loc, const TargetInfo &target,
                         const TileCoords &coords, const SharedLayout &shared,
                         int64_t k0,
                         SmallVectorImpl<std::pair<int64_t, Value>> &known) {
  const LinearLayout &l = coords.layout();
  bool reuse = !target.hasMatrixLoads() &&
               !(shared.split && shared.split < l.shape().back());
  for (auto &[ref, index] : known) {
    if (!reuse || index.getParentBlock() != b.getInsertionBlock())
      continue;
    std::optional<int64_t> delta;
    for (int64_t w = 0; w < l.numWarps(); ++w)
      for (int64_t lane = 0; lane < l.numLanes(); ++lane) {
        int64_t d = shared.offset(l.apply(k0, lane, w), l.shape()) -
                    shared.offset(l.apply(ref, lane, w), l.shape());
        if (delta && *delta != d) {
          delta = std::nullopt;
          w = l.numWarps();
          break;
        }
        delta = d;
      }
    if (delta)
      return *delta ? arith::AddIOp::create(b, loc, index,
                                            i32Const(b, loc, *delta))
                          .getResult()
                    : index;
  }
  Value index = coords.linear(b, loc, k0, shared);
  // A few bases serve a dot's operand; the bound keeps the search linear in
  // the registers where none repeats (the FMA path's scalar reads).
  if (reuse && known.size() < 16)
    known.emplace_back(k0, index);
  return index;
}

void mlir::ktc::ifFirstReplica(
    OpBuilder &b, Location loc, const TargetInfo &target, uint64_t replicas,
    function_ref<void(OpBuilder &, Location)> body) {
  if (!replicas)
    return body(b, loc);
  Value first = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::AndIOp::create(b, loc, target.threadId(b, loc),
                            i32Const(b, loc, replicas)),
      i32Const(b, loc, 0));
  scf::IfOp::create(b, loc, first, [&](OpBuilder &b, Location loc) {
    body(b, loc);
    scf::YieldOp::create(b, loc);
  });
}

void StagedBlock::write(OpBuilder &b, Location loc, ValueRange values) {
  const TargetInfo &target = *state_.target;
  TileCoords source(b, loc, target, stored_);
  SmallVector<Value> ordered;
  if (!writeOrder_.empty()) {
    for (int64_t r : writeOrder_)
      ordered.push_back(values[r]);
    values = ordered;
  }
  if (const std::optional<MatrixLoadPlan> &m = plan_.matrixStore) {
    // stmatrix: per call, 2 num registers as num words (two 16-bit
    // elements each, the lower first), lane l giving a row's address.
    TileCoords rows(b, loc, target, m->address);
    auto store = [&](OpBuilder &b, Location loc) {
      int64_t per = 2 * m->num;
      for (int64_t c = 0; c * per < from_.numRegisters(); ++c) {
        SmallVector<Value> words;
        for (int64_t w = 0; w < m->num; ++w)
          words.push_back(LLVM::BitcastOp::create(
              b, loc, b.getI32Type(),
              pack(b, loc, values, c * per + 2 * w, 2)));
        target.storeMatrices(
            b, loc,
            at(b, loc, state_, element_, rows.linear(b, loc, c, plan_.shared),
               offset_, base_),
            words);
      }
    };
    return ifFirstReplica(b, loc, target, from_.replicatedThreadBits(), store);
  }
  auto store = [&](OpBuilder &b, Location loc) {
    int64_t bytes = sharedBytes(element_);
    SmallVector<std::pair<int64_t, Value>> known;
    for (int64_t k0 = 0; k0 < from_.numRegisters(); k0 += plan_.writeVector)
      LLVM::StoreOp::create(
          b, loc, pack(b, loc, values, k0, plan_.writeVector),
          at(b, loc, state_, element_,
             sharedIndex(b, loc, target, source, plan_.shared, k0, known),
             offset_, base_),
          plan_.writeVector * bytes);
  };
  ifFirstReplica(b, loc, target, from_.replicatedThreadBits(), store);
}

Value StagedBlock::read(OpBuilder &b, Location loc, int64_t reg) {
  auto it = values_.find(reg);
  if (it != values_.end())
    return it->second;
  const TargetInfo &target = *state_.target;
  if (plan_.matrix) {
    const MatrixLoadPlan &m = *plan_.matrix;
    if (!readCoords_)
      readCoords_ = std::make_unique<TileCoords>(b, loc, target, m.address);
    int64_t per = 2 * m.num, c = reg / per;
    SmallVector<Value> got;
    loadMatrixCall(b, loc, state_, m, *readCoords_, plan_.shared, element_,
                   offset_, c, got, base_);
    for (int64_t i = 0; i < per; ++i)
      values_[c * per + i] = got[i];
    return values_[reg];
  }
  if (!readCoords_)
    readCoords_ = std::make_unique<TileCoords>(b, loc, target, read_);
  int64_t g = plan_.readVector, k0 = reg - reg % g;
  Type type = g == 1 ? element_ : VectorType::get({g}, element_);
  Value v = LLVM::LoadOp::create(
      b, loc, type,
      at(b, loc, state_, element_,
         sharedIndex(b, loc, target, *readCoords_, plan_.shared, k0,
                     readIndices_),
         offset_, base_),
      g * sharedBytes(element_));
  for (int64_t i = 0; i < g; ++i)
    values_[k0 + i] =
        g == 1 ? v
               : LLVM::ExtractElementOp::create(b, loc, v, i32Const(b, loc, i))
                     .getResult();
  return values_[reg];
}

DotStaging mlir::ktc::planDotStaging(const LinearLayout &fromA,
                                     const LinearLayout &toA,
                                     const LinearLayout &fromB,
                                     const LinearLayout &toB, Type element,
                                     const TargetInfo &target, bool stageA,
                                     bool stageB) {
  DotStaging s;
  if (stageA)
    s.a = planShared(fromA, toA, element, 0, target.hasMatrixLoads(),
                     /*gather=*/true);
  if (stageB)
    s.b = planShared(fromB, toB, element, 0, target.hasMatrixLoads(),
                     /*gather=*/true);
  s.offsetB = (s.a.bytes + 15) / 16 * 16;
  int64_t bytes = s.offsetB + s.b.bytes;
  if (bytes <= conversionBudget(target))
    s.bytes = bytes;
  return s;
}
