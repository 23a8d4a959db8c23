//===- WarpShuffles.h - layout conversions within a warp --------*- C++ -*-===//
//
// A layout conversion in which every thread finds what it needs in its own
// warp (dialect/Relayout.h: WarpShufflePlan) moves each result register
// with one warp shuffle of 32-bit words (shfl.sync.idx on NVIDIA,
// ds_bpermute on AMD): no shared memory and no barrier.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_CONVERSION_WARPSHUFFLES_H
#define KTC_LIB_CONVERSION_WARPSHUFFLES_H

#include "TargetInfo.h"

#include "dialect/Relayout.h"

namespace mlir::ktc {

/// The `numResults` registers of the result of moving `values` (one per
/// register of the source layout) as `plan` says.
SmallVector<Value> shuffleWithinWarps(OpBuilder &b, Location loc,
                                      const TargetInfo &target,
                                      const WarpShufflePlan &plan,
                                      int64_t numResults, ValueRange values);

/// Any scalar of up to 64 bits (ints, floats, pointers) of lane `srcLane`,
/// moved as 32-bit words.
Value shuffleScalar(OpBuilder &b, Location loc, const TargetInfo &target,
                    Value value, Value srcLane);

} // namespace mlir::ktc

#endif // KTC_LIB_CONVERSION_WARPSHUFFLES_H
