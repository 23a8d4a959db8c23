//===- DefaultLayouts.cpp - a block's default #ktc.blocked layout ----------===//
//
// See DefaultLayouts.h.
//
//===----------------------------------------------------------------------===//

#include "DefaultLayouts.h"

#include "dialect/LinearLayout.h"
#include "dialect/MmaLayouts.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::ktc;

BlockedEncodingAttr mlir::ktc::defaultBlockedLayout(
    MLIRContext *ctx, ArrayRef<int64_t> shape, int64_t vector, unsigned fast,
    unsigned waveSize, unsigned numWarps, int64_t rowRun, int64_t minRun) {
  unsigned w = waveSize, nw = numWarps;
  if (shape.size() == 1) {
    int64_t perThread = std::max<int64_t>(1, shape[0] / (int64_t(w) * nw));
    unsigned v = std::max<int64_t>(1, std::min(vector, perThread));
    v = std::max<int64_t>(v, std::min(minRun, shape[0]));
    return BlockedEncodingAttr::get(ctx, {v}, {w}, {nw}, {0});
  }
  // Runs of v along the fast dimension, lanes along it first, then along
  // the others (last to first); waves along the slowest dimensions first
  // (a reduction along the fast one then stays within a wave), so far as
  // the shape has room, any rest replicating along the slowest.
  unsigned rank = shape.size();
  SmallVector<unsigned> size(rank, 1), threads(rank, 1), warps(rank, 1),
      order{fast};
  for (unsigned d = rank; d-- > 0;)
    if (d != fast)
      order.push_back(d);
  size[fast] = std::max<int64_t>(1, std::min(std::max(vector, minRun),
                                             shape[fast]));
  if (rank == 2 && fast == 1) {
    // `rowRun` rows a thread where its share has room (AssignLayouts.cpp's
    // kRuns).
    int64_t share = shape[0] * shape[1] / (int64_t(w) * nw);
    size[0] = std::max<int64_t>(
        1, std::min({rowRun, shape[0], share / size[1]}));
  }
  unsigned lanes = w;
  for (unsigned d : order) {
    int64_t room = std::max<int64_t>(1, shape[d] / size[d]);
    threads[d] = std::min<int64_t>(lanes, room);
    lanes /= threads[d];
  }
  threads[order.back()] *= lanes;
  unsigned waves = nw;
  for (unsigned d : llvm::reverse(order)) {
    int64_t room =
        std::max<int64_t>(1, shape[d] / (int64_t(size[d]) * threads[d]));
    warps[d] = std::min<int64_t>(waves, room);
    waves /= warps[d];
  }
  warps[order.back()] *= waves;
  return BlockedEncodingAttr::get(ctx, size, threads, warps, order);
}

BlockedEncodingAttr mlir::ktc::warpLocalStoreLayout(Attribute layout,
                                                    ArrayRef<int64_t> shape,
                                                    int64_t vector) {
  auto mma = dyn_cast_or_null<MmaEncodingAttr>(layout);
  const MmaInstr *instr = mma ? lookupMmaInstr(mma.getInstr()) : nullptr;
  if (!instr ||
      (instr->family != MmaInstr::NvMma &&
       instr->family != MmaInstr::NvWgmma) ||
      shape.size() != 2 || vector < 4 ||
      mma.getWarpsPerCTA().size() != 2 || mma.getWarpsPerCTA()[1] != 1)
    return {};
  vector = std::min<int64_t>(vector, 8);
  unsigned warps = mma.getWarpsPerCTA()[0];
  if (shape[0] < 16 * int64_t(warps) || shape[1] < 4 * vector)
    return {};
  MLIRContext *ctx = mma.getContext();
  auto blocked = BlockedEncodingAttr::get(ctx, {2, unsigned(vector)}, {8, 4},
                                          {warps, 1}, {1, 0});
  // The same warp tiles, every element once: a permutation within warps.
  LinearLayout from = toLinearLayout(mma, shape);
  LinearLayout to = toLinearLayout(blocked, shape);
  if (from.bases(LinearLayout::Warp) != to.bases(LinearLayout::Warp) ||
      from.numRegisters() != to.numRegisters() || !from.isDisjoint() ||
      !to.isDisjoint())
    return {};
  return blocked;
}
