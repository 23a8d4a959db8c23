//===- SharedPlan.h - how a block goes through shared memory ----*- C++ -*-===//
//
// The plan of a round through shared memory, for a layout conversion
// (LayoutConversion.cpp) and a dot's staged operands (DotOpToLLVM.cpp):
// the order the block is stored in, padding or swizzle, the vector widths
// of the writes and the reads (or 8x8 matrix loads), and pieces when it
// does not fit. Chosen by counting the bank cycles of both access
// patterns.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_CONVERSION_SHAREDPLAN_H
#define KTC_LIB_CONVERSION_SHAREDPLAN_H

#include "Lowering.h"
#include "MatrixLoads.h"

#include <optional>

namespace mlir::ktc {

/// How a conversion goes through shared memory.
struct SharedPlan {
  /// The block is stored with its dimensions in this order (row-major, the
  /// last fastest); empty: as they are. A 2-D block read along its first
  /// dimension (a dot's B operand, k in a thread's registers) is stored
  /// transposed, so that the reads are vectors.
  SmallVector<int32_t, 3> perm;
  /// The writes gather registers: the stored layout's register bases along
  /// its last dimension come first (gatherFirst), so that registers of the
  /// source that are not consecutive (k in a thread's registers, stored
  /// transposed) are written as one vector.
  bool gather = false;
  SharedLayout shared;     // padding or swizzle
  int64_t writeVector = 1; // elements per store of the source layout
  int64_t readVector = 1;  // elements per load of the result layout
  /// Pieces along dimension `dim` (the last one too: whole vectors a
  /// piece), one at a time, each laid out as `shared` says for a block of
  /// the piece's shape (pieceShape).
  int64_t rounds = 1;
  /// The reads as 8x8 matrix loads (then readVector is 8: whole rows).
  std::optional<MatrixLoadPlan> matrix;
  /// The writes as 8x8 matrix stores (then writeVector is 8: whole rows),
  /// lane l giving the row address MatrixLoadPlan::address says; never
  /// transposed, and never with `perm` or `gather`.
  std::optional<MatrixLoadPlan> matrixStore;
  unsigned dim = 0;
  int64_t bytes = 0;       // shared memory needed (one piece)
};

/// The plan for moving a block from `from` to `to` through shared memory,
/// at most `budget` bytes at once (0: no limit); `matrixLoads`: the target
/// has TargetInfo::loadMatrices; `gather`: the writer honours
/// SharedPlan::gather (StagedBlock, for a dot's staging), so the stored
/// transposed block may gather its writes (with folded swizzles);
/// `matrixStores`: the target has TargetInfo::storeMatrices, which the
/// plan takes when `from` is their fragment layout and the writes then
/// cost no more bank cycles and no more memory.
SharedPlan planShared(const LinearLayout &from, const LinearLayout &to,
                      Type element, int64_t budget, bool matrixLoads,
                      bool gather = false, bool matrixStores = false);
/// planShared with the block stored in its own order (no `perm`);
/// `cost`, when given, receives the bank cycles of the chosen layout;
/// `folds`: swizzles with SharedLayout::fold are candidates too.
SharedPlan planSharedInOrder(const LinearLayout &from, const LinearLayout &to,
                             Type element, int64_t budget, bool matrixLoads,
                             int64_t *cost = nullptr, bool folds = false,
                             bool matrixStores = false);
/// `shape` with dimension `dim` cut to `rows` when nonzero: a piece's shape.
SmallVector<int64_t, 3> pieceShape(ArrayRef<int64_t> shape, unsigned dim,
                                   int64_t rows);
/// Whether each register of `layout` lies in the same piece (`dim` cut into
/// runs of `rows`) in every thread: no lane or warp basis reaches `rows`
/// along `dim`, so the register alone decides the piece.
bool piecesByRegister(const LinearLayout &layout, unsigned dim, int64_t rows);
/// Elements of `layout` one access may move: a run of registers along the
/// last dimension, at most 16 bytes, of a type LLVM packs bytewise.
int64_t vectorOf(const LinearLayout &layout, int64_t elementBytes,
                 bool packable);
/// `layout` with the register bases that step along its last dimension by
/// 1, 2, 4, ... moved to the front (the others keep their order).
LinearLayout gatherFirst(const LinearLayout &layout);

} // namespace mlir::ktc

#endif // KTC_LIB_CONVERSION_SHAREDPLAN_H
