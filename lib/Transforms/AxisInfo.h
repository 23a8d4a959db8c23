//===- AxisInfo.h - contiguity, divisibility, constancy ---------*- C++ -*-===//
//
// What is known about the values of a kernel along each dimension of a
// block (scalars are blocks of one element): runs of `contiguity`
// consecutive values (x, x+1, ...), starting values divisible by
// `divisibility` (bytes for pointers), runs of `constancy` equal values.
// Vector widths of loads and stores follow from it, along the dimension an
// access is contiguous in (Triton's axis analysis: a 2-D block's rows, or
// its columns, are moved in 16-byte pieces when proven). A loop's carried
// values hold what both their start and every iteration's update keep (a
// fixpoint): a pointer block advanced by BLOCK_K each iteration, as
// Triton's tutorials write it, keeps its runs and alignment.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_TRANSFORMS_AXISINFO_H
#define KTC_LIB_TRANSFORMS_AXISINFO_H

#include "dialect/KtcDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::ktc {

/// Along one dimension.
struct AxisInfo {
  int64_t contiguity = 1;
  int64_t divisibility = 1;
  int64_t constancy = 1;
};

/// Along each dimension of a value (one entry for a scalar).
using AxisInfos = SmallVector<AxisInfo, 3>;

class AxisAnalysis {
public:
  /// Analyses every value of `func`, in program order.
  explicit AxisAnalysis(FunctionOpInterface func);

  /// Along the last dimension.
  AxisInfo get(Value v) const;
  /// Along every dimension.
  AxisInfos getAll(Value v) const;

  /// The widest access (in elements) a load, store or async copy may make
  /// along `dim` of its pointers (default: the last): at most 16 bytes, as
  /// far as contiguity, alignment and the mask allow.
  int64_t vectorWidth(Operation *memoryOp, int dim = -1) const;

  /// A large power of two standing for "divisible by anything" (zero).
  static constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

private:
  void visitNested(Operation *op);
  void visitRegions(Operation *op);
  void visitFor(scf::ForOp loop);
  void visit(Operation *op);
  void visitOp(Operation *op);
  DenseMap<Value, AxisInfos> info;
};

} // namespace mlir::ktc

#endif // KTC_LIB_TRANSFORMS_AXISINFO_H
