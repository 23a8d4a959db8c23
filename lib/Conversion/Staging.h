//===- Staging.h - a block's round through shared memory, in parts -*- C++ -*-===//
//
// A dot stages its operands itself: both are written to shared memory (each
// its own region), one barrier, and then each instruction's operand
// registers are read just before the instruction that needs them, so that
// a thread holds one K step of A and B at a time instead of all of them
// (which made large tiles spill) and no barrier sits between the reads and
// the matrix instructions. A StagedBlock is one operand's round: the write
// of the layout it has, and reads on demand of the layout the dot needs,
// as SharedPlan plans them (vectors, or ldmatrix groups, read once each).
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_CONVERSION_STAGING_H
#define KTC_LIB_CONVERSION_STAGING_H

#include "SharedPlan.h"

#include <map>
#include <memory>

namespace mlir::ktc {

/// body() where the thread holds the first copy of what a layout with
/// `replicas` (replicatedThreadBits) spreads: for every thread when it is 0,
/// else under a branch on the thread id.
void ifFirstReplica(OpBuilder &b, Location loc, const TargetInfo &target,
                    uint64_t replicas,
                    function_ref<void(OpBuilder &, Location)> body);

class StagedBlock {
public:
  /// `from` -> `to` through shared memory from byte `offset` on (plus
  /// `base` elements, an i32, when given: a buffer slot's start), as `plan`
  /// (one piece) says.
  StagedBlock(const LoweringState &state, const LinearLayout &from,
              const LinearLayout &to, Type element, SharedPlan plan,
              int64_t offset, Value base = {});
  /// Writes the block, one copy of each element (replicas skip).
  void write(OpBuilder &b, Location loc, ValueRange values);
  /// The value of register `reg` of `to`, read with the vector (or matrix
  /// load) holding it the first time any of them is asked for.
  Value read(OpBuilder &b, Location loc, int64_t reg);

private:
  const LoweringState &state_;
  LinearLayout from_, to_, stored_, read_;
  Type element_;
  SharedPlan plan_;
  int64_t offset_; // in elements
  Value base_;     // in elements, or null
  std::unique_ptr<TileCoords> readCoords_;
  std::map<int64_t, Value> values_;
  /// The read indices computed so far (sharedIndex in Staging.cpp).
  SmallVector<std::pair<int64_t, Value>> readIndices_;
  /// plan.gather: register r of stored_ is register writeOrder_[r] of from_.
  SmallVector<int64_t> writeOrder_;
};

/// Where a dot's operands go (A from byte 0, B from `offsetB`; only those
/// `stageA`/`stageB` ask for), or `bytes` 0 when they do not fit in shared
/// memory together.
struct DotStaging {
  SharedPlan a, b;
  int64_t offsetB = 0, bytes = 0;
};
DotStaging planDotStaging(const LinearLayout &fromA, const LinearLayout &toA,
                          const LinearLayout &fromB, const LinearLayout &toB,
                          Type element, const TargetInfo &target,
                          bool stageA = true, bool stageB = true);

} // namespace mlir::ktc

#endif // KTC_LIB_CONVERSION_STAGING_H
