//===- Relayout.cpp - what a layout change costs, and how it moves ---------===//
//
// See Relayout.h.
//
//===----------------------------------------------------------------------===//

#include "dialect/Relayout.h"

#include "dialect/KtcDialect.h"

#include "llvm/Support/MathExtras.h"

#include <map>
#include <set>

using namespace mlir;
using namespace mlir::ktc;

using Coord = LinearLayout::Coord;

LinearLayout mlir::ktc::relayoutSource(Operation *op) {
  auto src = cast<RankedTensorType>(op->getOperand(0).getType());
  LinearLayout from = toLinearLayout(src);
  // trans and reshape rename the elements: the source's threads and
  // registers, seen in the result's coordinates.
  if (auto trans = dyn_cast<TransOp>(op))
    return from.permute(trans.getPerm());
  if (isa<ReshapeOp>(op))
    return from.reshape(
        cast<RankedTensorType>(op->getResult(0).getType()).getShape());
  return from;
}

LinearLayout mlir::ktc::relayoutNeeds(Operation *op) {
  auto src = cast<RankedTensorType>(op->getOperand(0).getType());
  auto dst = cast<RankedTensorType>(op->getResult(0).getType());
  LinearLayout to = toLinearLayout(dst);
  // expand_dims: the result without its unit dimension.
  if (auto expand = dyn_cast<ExpandDimsOp>(op))
    return to.dropDim(expand.getAxis());
  // broadcast: the source element each result register repeats.
  if (isa<BroadcastOp>(op))
    return to.wrapTo(src.getShape());
  return to;
}

std::optional<SmallVector<int64_t>>
mlir::ktc::registerPermutation(const LinearLayout &from,
                               const LinearLayout &to) {
  if (from.shape() != to.shape() ||
      from.bases(LinearLayout::Lane) != to.bases(LinearLayout::Lane) ||
      from.bases(LinearLayout::Warp) != to.bases(LinearLayout::Warp))
    return std::nullopt;
  std::map<Coord, int64_t> held;
  for (int64_t r = 0; r < from.numRegisters(); ++r)
    held.try_emplace(from.applyIn(LinearLayout::Register, r), r);
  SmallVector<int64_t> sources;
  for (int64_t r = 0; r < to.numRegisters(); ++r) {
    auto it = held.find(to.applyIn(LinearLayout::Register, r));
    if (it == held.end())
      return std::nullopt;
    sources.push_back(it->second);
  }
  return sources;
}

//===----------------------------------------------------------------------===//
// Within a warp: a linear system over GF(2)
//===----------------------------------------------------------------------===//

namespace {

/// Coordinates as bit vectors: dimension d's bits side by side.
class Flat {
public:
  explicit Flat(ArrayRef<int64_t> shape) {
    unsigned at = 0;
    for (int64_t s : shape) {
      offsets.push_back(at);
      at += llvm::Log2_64(s);
    }
  }
  uint64_t operator()(ArrayRef<int32_t> c) const {
    uint64_t v = 0;
    for (auto [d, x] : llvm::enumerate(c))
      v |= uint64_t(uint32_t(x)) << offsets[d];
    return v;
  }

private:
  SmallVector<unsigned, 3> offsets;
};

/// A basis in echelon form: each vector's highest bit is its pivot, with
/// the combination of inputs (a mask) that makes it.
class Echelon {
public:
  void insert(uint64_t v, uint64_t combo) {
    for (unsigned bit = 64; bit-- > 0;) {
      if (!(v >> bit & 1))
        continue;
      if (!vec[bit]) {
        vec[bit] = v;
        comb[bit] = combo;
        return;
      }
      v ^= vec[bit];
      combo ^= comb[bit];
    }
  }
  /// The combination of inputs that makes `v`; none when it is outside
  /// the span.
  std::optional<uint64_t> solve(uint64_t v) const {
    uint64_t combo = 0;
    for (unsigned bit = 64; bit-- > 0;) {
      if (!(v >> bit & 1))
        continue;
      if (!vec[bit])
        return std::nullopt;
      v ^= vec[bit];
      combo ^= comb[bit];
    }
    return combo;
  }

private:
  uint64_t vec[64] = {}, comb[64] = {};
};

uint64_t xorSelected(ArrayRef<uint64_t> terms, int64_t bits) {
  uint64_t v = 0;
  for (auto [i, t] : llvm::enumerate(terms))
    if (bits >> i & 1)
      v ^= t;
  return v;
}

} // namespace

int64_t WarpShufflePlan::srcLane(int64_t reg, int64_t thread) const {
  return xorSelected(laneOfThread, thread) ^ xorSelected(laneOfReg, reg);
}

int64_t WarpShufflePlan::srcRegister(int64_t reg, int64_t thread) const {
  return threadRegister(thread) ^ xorSelected(regOfReg, reg);
}

int64_t WarpShufflePlan::threadRegister(int64_t thread) const {
  return xorSelected(regOfThread, thread);
}

SmallVector<int64_t> WarpShufflePlan::registerChoices() const {
  // The span of regOfThread's terms.
  std::set<int64_t> span{0};
  for (uint64_t t : regOfThread) {
    std::set<int64_t> more;
    for (int64_t v : span)
      more.insert(v ^ int64_t(t));
    span.insert(more.begin(), more.end());
  }
  return SmallVector<int64_t>(span.begin(), span.end());
}

bool WarpShufflePlan::inRegisters() const {
  for (auto [i, t] : llvm::enumerate(laneOfThread))
    if (t != (i < laneBits ? uint64_t(1) << i : 0))
      return false;
  return llvm::all_of(laneOfReg, [](uint64_t t) { return t == 0; });
}

std::optional<WarpShufflePlan>
mlir::ktc::planWarpShuffles(const LinearLayout &from, const LinearLayout &to) {
  if (from.shape() != to.shape() ||
      from.numBits(LinearLayout::Lane) != to.numBits(LinearLayout::Lane) ||
      from.numBits(LinearLayout::Warp) != to.numBits(LinearLayout::Warp))
    return std::nullopt;
  Flat flat(from.shape());
  // What a warp holds: from's register bits (inputs 0..R-1), then its lane
  // bits (inputs R..R+L-1).
  unsigned regBits = from.numBits(LinearLayout::Register);
  unsigned laneBits = from.numBits(LinearLayout::Lane);
  if (regBits + laneBits > 63)
    return std::nullopt;
  Echelon held;
  for (auto [i, c] : llvm::enumerate(from.bases(LinearLayout::Register)))
    held.insert(flat(c), uint64_t(1) << i);
  for (auto [j, c] : llvm::enumerate(from.bases(LinearLayout::Lane)))
    held.insert(flat(c), uint64_t(1) << (regBits + j));
  WarpShufflePlan plan;
  plan.laneBits = laneBits;
  auto add = [&](uint64_t need, SmallVector<uint64_t> &lane,
                 SmallVector<uint64_t> &reg) {
    std::optional<uint64_t> combo = held.solve(need);
    if (!combo)
      return false;
    reg.push_back(*combo & ((uint64_t(1) << regBits) - 1));
    lane.push_back(*combo >> regBits);
    return true;
  };
  for (const Coord &c : to.bases(LinearLayout::Register))
    if (!add(flat(c), plan.laneOfReg, plan.regOfReg))
      return std::nullopt;
  for (const Coord &c : to.bases(LinearLayout::Lane))
    if (!add(flat(c), plan.laneOfThread, plan.regOfThread))
      return std::nullopt;
  // A warp bit: what `to` needs there beyond what the thread's own warp
  // bit already gives in `from`.
  for (auto [k, c] : llvm::enumerate(to.bases(LinearLayout::Warp)))
    if (!add(flat(c) ^ flat(from.bases(LinearLayout::Warp)[k]),
             plan.laneOfThread, plan.regOfThread))
      return std::nullopt;
  return plan;
}

RelayoutKind mlir::ktc::relayoutKind(const LinearLayout &from,
                                     const LinearLayout &to) {
  if (registerPermutation(from, to))
    return RelayoutKind::Registers;
  std::optional<WarpShufflePlan> plan = planWarpShuffles(from, to);
  if (!plan)
    return RelayoutKind::SharedMemory;
  if (plan->inRegisters())
    return RelayoutKind::Registers;
  return plan->shufflesPerRegister() <= kMaxShufflesPerRegister
             ? RelayoutKind::Shuffles
             : RelayoutKind::SharedMemory;
}

RelayoutKind mlir::ktc::relayoutKind(Operation *op) {
  return relayoutKind(relayoutSource(op), relayoutNeeds(op));
}
