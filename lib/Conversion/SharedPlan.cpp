//===- SharedPlan.cpp - how a block goes through shared memory -------------===//
//
// See SharedPlan.h.
//
//===----------------------------------------------------------------------===//

#include "SharedPlan.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <map>
#include <set>

using namespace mlir;
using namespace mlir::ktc;

using Coord = LinearLayout::Coord;

int64_t mlir::ktc::vectorOf(const LinearLayout &layout, int64_t elementBytes,
                 bool packable) {
  if (!packable)
    return 1;
  return std::max<int64_t>(
      1, std::min<int64_t>(layout.contiguousRegisters(layout.rank() - 1),
                           16 / elementBytes));
}

LinearLayout mlir::ktc::gatherFirst(const LinearLayout &layout) {
  std::array<SmallVector<Coord>, LinearLayout::kNumIns> bases;
  for (unsigned in = 0; in < LinearLayout::kNumIns; ++in) {
    ArrayRef<Coord> from = layout.bases(LinearLayout::In(in));
    bases[in].assign(from.begin(), from.end());
  }
  SmallVector<Coord> &reg = bases[LinearLayout::Register];
  unsigned last = layout.rank() - 1;
  unsigned front = 0;
  for (int32_t step = 1;; step *= 2) {
    auto it = llvm::find_if(reg, [&](const Coord &c) {
      for (unsigned d = 0; d < c.size(); ++d)
        if (c[d] != (d == last ? step : 0))
          return false;
      return true;
    });
    if (it == reg.end() || unsigned(it - reg.begin()) < front)
      break;
    Coord c = *it;
    reg.erase(it);
    reg.insert(reg.begin() + front++, c);
  }
  return LinearLayout(layout.shape(), std::move(bases));
}

/// Bank conflicts of one warp's accesses to a block laid out by `layout`
/// (warp 0; its others repeat the pattern), `vector` elements an access:
/// per access, the lanes one cycle serves (128 bytes' worth, and at most 32:
/// one a bank, so sub-word accesses are no cheaper than words) and, among
/// them, the most distinct 4-byte words on one of 32 banks.
static int64_t bankCost(const LinearLayout &layout, int64_t vector, int64_t bytes,
                 const SharedLayout &shared) {
  int64_t cost = 0;
  int64_t perCycle =
      std::clamp<int64_t>(128 / (vector * bytes), 1, 32);
  for (int64_t k0 = 0; k0 < layout.numRegisters(); k0 += vector)
    for (int64_t first = 0; first < layout.numLanes(); first += perCycle) {
      std::map<int64_t, std::set<int64_t>> banks;
      for (int64_t lane = first;
           lane < std::min(first + perCycle, layout.numLanes()); ++lane) {
        Coord c = layout.apply(k0, lane, 0);
        int64_t offset = shared.offset(c, layout.shape());
        for (int64_t w = offset * bytes / 4;
             w <= (offset * bytes + vector * bytes - 1) / 4; ++w)
          banks[w % 32].insert(w);
      }
      size_t worst = 1;
      for (auto &[bank, words] : banks)
        worst = std::max(worst, words.size());
      cost += worst;
    }
  return cost;
}

SharedPlan mlir::ktc::planSharedInOrder(const LinearLayout &from,
                                        const LinearLayout &to, Type element,
                                        int64_t budget, bool matrixLoads,
                                        int64_t *cost, bool folds) {
  SharedPlan plan;
  int64_t bytes = sharedBytes(element);
  bool packable = element.isIntOrFloat() && element.getIntOrFloatBitWidth() >= 8;
  plan.writeVector = vectorOf(from, bytes, packable);
  plan.readVector = vectorOf(to, bytes, packable);
  if (matrixLoads)
    plan.matrix = planMatrixLoads(to, element);
  // Matrix loads read whole rows of 8: each lane's row address.
  const LinearLayout &reads = plan.matrix ? plan.matrix->address : to;
  if (plan.matrix)
    plan.readVector = 8;
  ArrayRef<int64_t> shape = from.shape();
  int64_t rows = from.numElements() / shape.back();
  if (rows > 1) {
    // Candidates keep both sides' vectors whole and aligned: pads that are
    // multiples of the wider vector, and swizzles of chunks of it. The
    // fewest conflicts wins, then the least memory, then the simplest.
    int64_t step = std::max(plan.writeVector, plan.readVector);
    SmallVector<SharedLayout> candidates;
    for (int64_t pad = 0; pad * bytes <= 128; pad += step)
      candidates.push_back(SharedLayout{pad, 1, 1, 1});
    for (int64_t maxPhase = 2; maxPhase * step <= shape.back(); maxPhase *= 2)
      for (int64_t perPhase = 1; perPhase <= 8; perPhase *= 2)
        candidates.push_back(SharedLayout{0, step, perPhase, maxPhase});
    // Folded phases (row ^ row >> fold), for gathered writes: last, so
    // that they win only where they are strictly better.
    if (folds)
      for (int64_t fold = 2; fold <= 5; ++fold)
        for (int64_t maxPhase = 2; maxPhase * step <= shape.back();
             maxPhase *= 2)
          for (int64_t perPhase = 1; perPhase <= 8; perPhase *= 2)
            candidates.push_back(
                SharedLayout{0, step, perPhase, maxPhase, fold});
    int64_t best = -1, bestBytes = 0;
    for (const SharedLayout &c : candidates) {
      int64_t cost = bankCost(from, plan.writeVector, bytes, c) +
                     bankCost(reads, plan.readVector, bytes, c);
      int64_t size = rows * (shape.back() + c.pad) * bytes;
      if (best < 0 || cost < best || (cost == best && size < bestBytes))
        best = cost, bestBytes = size, plan.shared = c;
    }
    if (cost)
      *cost = best;
  } else {
    if (cost)
      *cost = bankCost(from, plan.writeVector, bytes, plan.shared) +
            bankCost(reads, plan.readVector, bytes, plan.shared);
  }
  plan.bytes = rows * (shape.back() + plan.shared.pad) * bytes;
  // Past the budget, the block goes in pieces along its first dimension
  // that can be cut enough (the same shared memory for each piece), as few
  // as fit; the last dimension only for a 1-D block, whole vectors a piece.
  if (budget <= 0 || plan.bytes <= budget)
    return plan;
  plan.matrix.reset(); // pieces read element by element
  plan.readVector = vectorOf(to, bytes, packable);
  int64_t whole = plan.bytes;
  for (unsigned d = 0; d < shape.size(); ++d) {
    bool last = d + 1 == shape.size();
    if (last && shape.size() > 1)
      break;
    int64_t most = shape[d];
    if (last)
      most /= std::max(plan.writeVector, plan.readVector);
    int64_t rounds = 1;
    while (whole / rounds > budget && rounds < most)
      rounds *= 2;
    if (whole / rounds <= budget || d + 2 >= shape.size()) {
      // This dimension fits, or it is the last one that may be cut (then
      // the best it gives, refused later).
      if (whole / rounds <= budget || rounds > plan.rounds) {
        plan.rounds = rounds;
        plan.dim = d;
        plan.bytes = whole / rounds;
      }
      if (whole / rounds <= budget)
        break;
    }
  }
  return plan;
}

/// The cheaper of storing the block as it is and with its last two
/// dimensions swapped: the fewer bank cycles of the writes and the reads,
/// then the fewer accesses; a tie keeps the block as it is.
SharedPlan mlir::ktc::planShared(const LinearLayout &from, const LinearLayout &to,
                      Type element, int64_t budget, bool matrixLoads,
                      bool gather) {
  int64_t cost = 0, swappedCost = 0;
  SharedPlan plan =
      planSharedInOrder(from, to, element, budget, matrixLoads, &cost);
  unsigned rank = from.rank();
  if (rank < 2)
    return plan;
  SmallVector<int32_t, 3> perm;
  for (unsigned d = 0; d < rank; ++d)
    perm.push_back(d);
  std::swap(perm[rank - 2], perm[rank - 1]);
  LinearLayout stored = from.permute(perm);
  if (gather)
    stored = gatherFirst(stored);
  SharedPlan swapped =
      planSharedInOrder(stored, to.permute(perm), element, budget,
                        matrixLoads, &swappedCost, /*folds=*/gather);
  auto accesses = [&](const SharedPlan &p) {
    return from.numRegisters() / p.writeVector +
           to.numRegisters() / (p.matrix ? 2 * p.matrix->num : p.readVector);
  };
  // A dot's operand on AMD (no matrix loads): each access also costs an
  // issue slot of the LDS unit, so 2-byte reads that use a fraction of the
  // banks lose to the 16-byte reads of a transposed block (gfx12's WMMA B:
  // 64 ds_load_u16 against 8 ds_load_b128).
  if (gather && !matrixLoads) {
    cost += accesses(plan);
    swappedCost += accesses(swapped);
  }
  if (swappedCost > cost || swapped.bytes > plan.bytes ||
      (swappedCost == cost && accesses(swapped) >= accesses(plan)))
    return plan;
  swapped.perm = perm;
  swapped.gather = gather;
  return swapped;
}

