//===- MatrixLoads.h - reading shared memory as 8x8 matrices ----*- C++ -*-===//
//
// A conversion's reads from shared memory are ldmatrix calls (NVIDIA) when
// the layout read is, bit for bit, what ldmatrix gives each thread: 8x8
// matrices of 16-bit elements, thread t holding row t / 4, columns
// 2 (t % 4) + {0, 1} (or the transpose: a dot's B operand read from a
// row-major K x N block), the matrices' columns starting at multiples of 8.
// Each lane then gives the address of one matrix row, a linear map of its
// own (`address`), and one call loads 4 matrices: 8 registers a thread.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_CONVERSION_MATRIXLOADS_H
#define KTC_LIB_CONVERSION_MATRIXLOADS_H

#include "Lowering.h"

#include <optional>

namespace mlir::ktc {

struct MatrixLoadPlan {
  bool trans = false;
  /// Matrices a call (1, 2 or 4): 2 * num registers of the read layout.
  unsigned num = 4;
  /// Lane l's row address of call c: the element this layout puts in
  /// register c for lane l (the row's first element).
  LinearLayout address;
};

/// The plan for reading `read` (2-D, in the order the block is stored in)
/// with matrix loads; none when its bits are not ldmatrix's.
std::optional<MatrixLoadPlan> planMatrixLoads(const LinearLayout &read,
                                              Type element);

/// One call of `plan`: the 2 * num registers from 2 * num * c on, appended
/// to `out` (`rows`: the TileCoords of plan.address; `offset`, plus `base`
/// (i32) when given: elements from the start of shared memory).
void loadMatrixCall(OpBuilder &b, Location loc, const LoweringState &state,
                    const MatrixLoadPlan &plan, const TileCoords &rows,
                    const SharedLayout &shared, Type element, int64_t offset,
                    int64_t c, SmallVectorImpl<Value> &out, Value base = {});

} // namespace mlir::ktc

#endif // KTC_LIB_CONVERSION_MATRIXLOADS_H
