//===- PairLayouts.cpp - layouts that keep join/split pairs in a thread ----===//
//
// See PairLayouts.h. A blocked layout's thread holds sizePerThread runs and
// wraps per dimension in `order`; so [..., 2n] holding runs of s along its
// fastest last dimension, and [..., n, 2] holding runs of s/2 pairs (the
// pair fastest, then the same order), map each register, lane and wave to
// the same element of the row: 2k + j for pair k, element j.
//
//===----------------------------------------------------------------------===//

#include "PairLayouts.h"

using namespace mlir;
using namespace mlir::ktc;

bool mlir::ktc::isPairAxis(ArrayRef<int64_t> shape, unsigned axis) {
  return shape.size() >= 2 && shape.size() <= 3 &&
         axis + 1 == shape.size() && shape.back() == 2;
}

bool mlir::ktc::isPairRow(ArrayRef<int64_t> pairs, ArrayRef<int64_t> row) {
  return pairs.size() >= 2 && pairs.size() == row.size() + 1 &&
         pairs.back() == 2 && pairs.drop_back(2) == row.drop_back() &&
         2 * pairs[pairs.size() - 2] == row.back();
}

/// `lead` with one more dimension, fastest: `size` elements a thread, one
/// thread and one wave along it; the other dimensions' runs from `runs`.
static BlockedEncodingAttr withPairDim(BlockedEncodingAttr lead,
                                       ArrayRef<unsigned> runs) {
  unsigned rank = lead.getRank();
  SmallVector<unsigned> size(runs), threads(lead.getThreadsPerWarp()),
      warps(lead.getWarpsPerCTA()), order{rank};
  size.push_back(2);
  threads.push_back(1);
  warps.push_back(1);
  llvm::append_range(order, lead.getOrder());
  return BlockedEncodingAttr::get(lead.getContext(), size, threads, warps,
                                  order);
}

BlockedEncodingAttr mlir::ktc::appendPairDim(BlockedEncodingAttr lead) {
  return withPairDim(lead, lead.getSizePerThread());
}

BlockedEncodingAttr mlir::ktc::splitRowIntoPairs(BlockedEncodingAttr row) {
  unsigned last = row.getRank() - 1;
  SmallVector<unsigned> runs(row.getSizePerThread());
  if (row.getRank() >= 3 || row.getOrder().front() != last ||
      runs[last] % 2 != 0)
    return {};
  runs[last] /= 2;
  return withPairDim(row, runs);
}
