//===- Lowering.h - shared pieces of the ktc -> LLVM lowering ----*- C++ -*-===//
//
// A 1-D block with a #ktc.blocked layout becomes, in each thread, the E
// scalars that thread holds (a 1:N type conversion): slot k = r * v + j
// (r < reps, j < v) holds element (r * tile + tid * v + j) mod n, where
// tile = v * waveSize * numWarps. Blocks smaller than the tile are
// replicated: several threads hold the same elements.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_CONVERSION_LOWERING_H
#define KTC_LIB_CONVERSION_LOWERING_H

#include "TargetInfo.h"

#include "dialect/KtcDialect.h"

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::ktc {

/// How a 1-D block is spread over the threads.
struct Spread {
  int64_t n, v, tile, reps;

  static Spread of(RankedTensorType type);
  int64_t slots() const { return reps * v; }
  /// True when the block is smaller than the tile (threads hold copies).
  bool replicated() const { return n < tile; }
  /// The element index (i32) held in slot k of thread `tid`.
  Value index(OpBuilder &b, Location loc, Value tid, int64_t k) const;
};

/// Blocks become their per-thread scalars, pointers !llvm.ptr<1>.
class GpuTypeConverter : public TypeConverter {
public:
  explicit GpuTypeConverter(MLIRContext *ctx);
};

Value i32Const(OpBuilder &b, Location loc, int64_t v);

/// Facts the patterns need that are computed before the conversion.
struct LoweringState {
  const TargetInfo *target;
  unsigned numWarps;
  /// The vector width (elements) each ktc.load/ktc.store may use.
  DenseMap<Operation *, int64_t> vectorWidths;
  /// Shared memory for cross-wave reductions (an llvm.mlir.global).
  StringRef sharedMemory = "ktc_smem";
};

void populateSpmdPatterns(const TypeConverter &converter,
                          RewritePatternSet &patterns,
                          const LoweringState &state);
void populateElementwisePatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 const LoweringState &state);
void populateMemoryPatterns(const TypeConverter &converter,
                            RewritePatternSet &patterns,
                            const LoweringState &state);
void populateReducePatterns(const TypeConverter &converter,
                            RewritePatternSet &patterns,
                            const LoweringState &state);

} // namespace mlir::ktc

#endif // KTC_LIB_CONVERSION_LOWERING_H
