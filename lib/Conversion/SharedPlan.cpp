//===- SharedPlan.cpp - how a block goes through shared memory -------------===//
//
// See SharedPlan.h.
//
//===----------------------------------------------------------------------===//

#include "SharedPlan.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <array>
#include <limits>

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

SmallVector<int64_t, 3> mlir::ktc::pieceShape(ArrayRef<int64_t> shape,
                                              unsigned dim, int64_t rows) {
  SmallVector<int64_t, 3> piece(shape.begin(), shape.end());
  if (rows && rows < piece[dim])
    piece[dim] = rows;
  return piece;
}

bool mlir::ktc::piecesByRegister(const LinearLayout &layout, unsigned dim,
                                 int64_t rows) {
  for (LinearLayout::In in : {LinearLayout::Lane, LinearLayout::Warp})
    for (const Coord &c : layout.bases(in))
      if (c[dim] >= rows)
        return false;
  return true;
}

namespace {
/// One warp's accesses to a block (warp 0; its others repeat the pattern),
/// `vector` elements an access, grouped by the cycles that serve them: per
/// access, the lanes one cycle serves (128 bytes' worth, and at most 32: one
/// a bank, so sub-word accesses are no cheaper than words). In pieces
/// (`rows` nonzero), coordinate `dim` is taken within its piece. Computed
/// once a layout, then costed against every candidate padding or swizzle.
struct WarpAccesses {
  WarpAccesses(const LinearLayout &layout, int64_t vector, unsigned dim,
               int64_t rows)
      : vector(vector) {
    for (int64_t k0 = 0; k0 < layout.numRegisters(); k0 += vector)
      for (int64_t lane = 0; lane < layout.numLanes(); ++lane) {
        Coord c = layout.apply(k0, lane, 0);
        if (rows)
          c[dim] &= rows - 1;
        coords.push_back(std::move(c));
      }
    lanes = layout.numLanes();
  }
  int64_t vector;
  int64_t lanes = 1;
  /// Each access's first element: for each vector of registers, lanes in
  /// order.
  SmallVector<Coord> coords;
};
} // namespace

/// Bank cycles of `accesses` to a block laid out by `shared`: per cycle, the
/// most distinct 4-byte words on one of 32 banks. Counting stops once past
/// `limit` (the caller then knows only that the cost exceeds it).
static int64_t bankCost(const WarpAccesses &accesses, int64_t bytes,
                        const SharedLayout &shared, ArrayRef<int64_t> shape,
                        int64_t limit = std::numeric_limits<int64_t>::max()) {
  int64_t vector = accesses.vector;
  int64_t perCycle = std::clamp<int64_t>(128 / (vector * bytes), 1, 32);
  int64_t cost = 0;
  SmallVector<int64_t, 64> words;
  int64_t total = accesses.coords.size();
  for (int64_t k0 = 0; k0 < total; k0 += accesses.lanes)
    for (int64_t first = 0; first < accesses.lanes; first += perCycle) {
      words.clear();
      int64_t end = std::min(first + perCycle, accesses.lanes);
      for (int64_t lane = first; lane < end; ++lane) {
        int64_t offset = shared.offset(accesses.coords[k0 + lane], shape);
        for (int64_t w = offset * bytes / 4;
             w <= (offset * bytes + vector * bytes - 1) / 4; ++w)
          words.push_back(w);
      }
      std::sort(words.begin(), words.end());
      words.erase(std::unique(words.begin(), words.end()), words.end());
      std::array<int64_t, 32> perBank{};
      int64_t worst = 1;
      for (int64_t w : words)
        worst = std::max(worst, ++perBank[((w % 32) + 32) % 32]);
      cost += worst;
      if (cost > limit)
        return cost;
    }
  return cost;
}

namespace {
/// A padding or swizzle, its bank cycles and its bytes.
struct Choice {
  SharedLayout shared;
  int64_t cost = 0;
  int64_t bytes = 0;
};
} // namespace

/// The padding or swizzle of a block (or of one piece: `dim` cut to `rows`,
/// nonzero) with the fewest bank conflicts for the writes of `from`
/// (`writeVector` elements an access) and the reads of `reads`, then the
/// least memory, then the simplest. Candidates keep both sides' vectors
/// whole and aligned: pads that are multiples of the wider vector (unless
/// `pads` is false), and swizzles of chunks of it.
static Choice chooseShared(const LinearLayout &from, const LinearLayout &reads,
                           int64_t writeVector, int64_t readVector,
                           int64_t bytes, bool folds, unsigned dim = 0,
                           int64_t rows = 0, bool pads = true) {
  SmallVector<int64_t, 3> shape = pieceShape(from.shape(), dim, rows);
  int64_t elements = 1;
  for (int64_t d : shape)
    elements *= d;
  int64_t lines = elements / shape.back();
  WarpAccesses writes(from, writeVector, dim, rows);
  WarpAccesses readAccesses(reads, readVector, dim, rows);
  // Past `limit` the count stops: a candidate costlier than the best so
  // far cannot win.
  auto cost = [&](const SharedLayout &c,
                  int64_t limit = std::numeric_limits<int64_t>::max()) {
    int64_t w = bankCost(writes, bytes, c, shape, limit);
    if (w > limit)
      return w;
    return w + bankCost(readAccesses, bytes, c, shape, limit - w);
  };
  Choice best;
  if (lines <= 1) {
    best.cost = cost(best.shared);
    best.bytes = elements * bytes;
    return best;
  }
  int64_t step = std::max(writeVector, readVector);
  SmallVector<SharedLayout> candidates;
  for (int64_t pad = 0; pad * bytes <= (pads ? 128 : 0); pad += step)
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
  bool first = true;
  for (const SharedLayout &c : candidates) {
    int64_t cycles =
        first ? cost(c) : cost(c, best.cost);
    int64_t size = lines * (shape.back() + c.pad) * bytes;
    if (first || cycles < best.cost ||
        (cycles == best.cost && size < best.bytes))
      best = Choice{c, cycles, size};
    first = false;
  }
  return best;
}

SharedPlan mlir::ktc::planSharedInOrder(const LinearLayout &from,
                                        const LinearLayout &to, Type element,
                                        int64_t budget, bool matrixLoads,
                                        int64_t *cost, bool folds,
                                        bool matrixStores) {
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
  Choice whole = chooseShared(from, reads, plan.writeVector, plan.readVector,
                              bytes, folds);
  // Matrix stores write whole rows of 8 too (stmatrix, as the accumulator
  // of a 16-bit mma or wgmma leaves the registers): taken when they cost
  // no more bank cycles in no more memory (a quarter of the instructions
  // of 4-byte stores).
  // (stmatrix is a whole warp's instruction: no lane may skip it as a
  // replica, whole warps may.)
  bool lanesDistinct =
      !(from.replicatedThreadBits() & uint64_t(from.numLanes() - 1));
  if (std::optional<MatrixLoadPlan> stores =
          matrixStores && lanesDistinct ? planMatrixLoads(from, element)
                                        : std::nullopt;
      stores && !stores->trans) {
    Choice rows = chooseShared(stores->address, reads, 8, plan.readVector,
                               bytes, folds);
    // Without padding when that needs more memory: the callers that size
    // the memory without asking for matrix stores size enough.
    if (rows.bytes > whole.bytes)
      rows = chooseShared(stores->address, reads, 8, plan.readVector, bytes,
                          folds, 0, 0, /*pads=*/false);
    if (rows.cost <= whole.cost && rows.bytes <= whole.bytes) {
      whole = rows;
      plan.matrixStore = stores;
      plan.writeVector = 8;
    }
  }
  plan.shared = whole.shared;
  plan.bytes = whole.bytes;
  if (cost)
    *cost = whole.cost;
  if (budget <= 0 || plan.bytes <= budget)
    return plan;
  plan.matrixStore.reset(); // pieces write element by element
  plan.writeVector = vectorOf(from, bytes, packable);
  // Past the budget, the block goes in pieces along one dimension, one
  // piece after the other through the same memory, each piece's padding or
  // swizzle chosen for the piece. Among the cuts that fit: reads, then
  // writes, whose piece each register decides alone (piecesByRegister;
  // other writes are predicated, other reads repeated in every round), then
  // the fewest pieces, then the fewest bank cycles, then the first
  // dimension.
  // The last dimension keeps whole vectors a piece.
  plan.matrix.reset(); // pieces read element by element
  plan.readVector = vectorOf(to, bytes, packable);
  ArrayRef<int64_t> shape = from.shape();
  unsigned rank = shape.size();
  std::optional<std::tuple<int, int64_t, int64_t>> bestKey;
  int64_t fewestBytes = 0;
  for (unsigned d = 0; d < rank; ++d) {
    int64_t least =
        d + 1 == rank ? std::max(plan.writeVector, plan.readVector) : 1;
    for (int64_t rows = shape[d] / 2; rows >= least; rows /= 2) {
      Choice piece = chooseShared(from, to, plan.writeVector, plan.readVector,
                                  bytes, folds, d, rows);
      if (piece.bytes > budget) {
        // The best refused (the error names it) when nothing fits.
        if (!bestKey && (!fewestBytes || piece.bytes < fewestBytes)) {
          fewestBytes = piece.bytes;
          plan.rounds = shape[d] / rows;
          plan.dim = d;
          plan.bytes = piece.bytes;
          plan.shared = piece.shared;
        }
        continue;
      }
      // A read whose piece is not known is repeated each round; a write
      // is only predicated.
      int dynamic = !piecesByRegister(from, d, rows) +
                    2 * !piecesByRegister(to, d, rows);
      std::tuple<int, int64_t, int64_t> key{dynamic, shape[d] / rows,
                                            piece.cost};
      if (!bestKey || key < *bestKey) {
        bestKey = key;
        plan.rounds = shape[d] / rows;
        plan.dim = d;
        plan.bytes = piece.bytes;
        plan.shared = piece.shared;
        if (cost)
          *cost = piece.cost;
      }
      break; // more pieces along `d` only cost more
    }
  }
  return plan;
}

/// The cheaper of storing the block as it is and with its last two
/// dimensions swapped: the fewer bank cycles of the writes and the reads,
/// then the fewer accesses; a tie keeps the block as it is.
SharedPlan mlir::ktc::planShared(const LinearLayout &from, const LinearLayout &to,
                      Type element, int64_t budget, bool matrixLoads,
                      bool gather, bool matrixStores) {
  int64_t cost = 0, swappedCost = 0;
  SharedPlan plan =
      planSharedInOrder(from, to, element, budget, matrixLoads, &cost,
                        /*folds=*/false, matrixStores && !gather);
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
    return from.numRegisters() /
               (p.matrixStore ? 2 * p.matrixStore->num : p.writeVector) +
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

