//===- AxisInfo.h - contiguity, divisibility, constancy ---------*- C++ -*-===//
//
// What is known about the values of a kernel along the last (fastest)
// dimension of a block (the whole of a 1-D block; scalars are blocks of
// one): runs of `contiguity` consecutive values (x, x+1, ...), starting
// values divisible by `divisibility` (bytes for pointers), runs of
// `constancy` equal values. Vector widths of loads and stores follow from it
// (Triton's axis analysis, along the dimension accesses are vectorised on:
// a 2-D block's rows are read in 16-byte pieces when proven).
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_TRANSFORMS_AXISINFO_H
#define KTC_LIB_TRANSFORMS_AXISINFO_H

#include "dialect/KtcDialect.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::ktc {

struct AxisInfo {
  int64_t contiguity = 1;
  int64_t divisibility = 1;
  int64_t constancy = 1;
};

class AxisAnalysis {
public:
  /// Analyses every value of `func`, in program order.
  explicit AxisAnalysis(FunctionOpInterface func);

  AxisInfo get(Value v) const;

  /// The widest access (in elements) a load or store may make: at most 16
  /// bytes, as far as contiguity, alignment and the mask allow.
  int64_t vectorWidth(Operation *memoryOp) const;

  /// A large power of two standing for "divisible by anything" (zero).
  static constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

private:
  void visit(Operation *op);
  DenseMap<Value, AxisInfo> info;
};

} // namespace mlir::ktc

#endif // KTC_LIB_TRANSFORMS_AXISINFO_H
