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

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::ktc {

/// How a block is spread over the threads. Per dimension d the thread holds
/// reps[d] runs of size[d] elements; slot k = k0 * slots(1) + k1 (row-major
/// over the dimensions) holds, along d, element
///   (r * tile[d] + (warpCoord[d] * threads[d] + laneCoord[d]) * size[d] + j)
///   mod shape[d],  with k_d = r * size[d] + j,
/// where lanes and warps are numbered along `order` (fastest first).
struct Spread {
  unsigned rank;
  SmallVector<int64_t, 2> shape, size, threads, warps, tile, reps;
  SmallVector<unsigned, 2> order;
  unsigned waveSize;
  // The 1-D view (dimension 0): n elements, runs of v, tile, reps.
  int64_t n, v, tileSize, repeats;

  static Spread of(RankedTensorType type);
  int64_t slotsAlong(unsigned d) const { return reps[d] * size[d]; }
  int64_t slots() const;
  /// True when a 1-D block is smaller than the tile (threads hold copies).
  bool replicated() const { return n < tileSize; }
  /// The element indices (i32, one per dimension) held in slot k.
  SmallVector<Value, 2> indices(OpBuilder &b, Location loc, Value tid,
                                int64_t k) const;
  /// The element index of slot k of a 1-D block.
  Value index(OpBuilder &b, Location loc, Value tid, int64_t k) const {
    return indices(b, loc, tid, k)[0];
  }
};

/// Blocks become their per-thread scalars, pointers !llvm.ptr<1>.
class GpuTypeConverter : public TypeConverter {
public:
  explicit GpuTypeConverter(MLIRContext *ctx);
};

Value i32Const(OpBuilder &b, Location loc, int64_t v);

/// Where a 1-D cross-wave reduction keeps its per-wave partials, and whether
/// it must wait after reading them (see planReductionSlots).
struct ReductionSlots {
  /// Byte offset of slot 0 in the kernel's shared memory.
  int64_t offset = 0;
  /// A barrier after the partials are read, so that the slots can be
  /// written again: needed unless nothing else can write them before every
  /// thread has passed another barrier.
  bool trailingBarrier = true;
};

/// Facts the patterns need that are computed before the conversion.
struct LoweringState {
  const TargetInfo *target;
  unsigned numWarps;
  /// The vector width (elements) each ktc.load/ktc.store may use.
  DenseMap<Operation *, int64_t> vectorWidths;
  /// Shared memory for cross-wave reductions (an llvm.mlir.global).
  StringRef sharedMemory = "ktc_smem";
  /// The slots of each 1-D reduction over several waves; absent: offset 0
  /// with a trailing barrier.
  DenseMap<Operation *, ReductionSlots> reductionSlots;
};

/// Plans the slots of the 1-D reductions over `numWarps` > 1 waves in
/// `kernel`. A reduction that runs at most once per program, or that
/// shares a loop body with another such reduction (whose first barrier
/// every thread passes between one run of it reading its partials and the
/// next writing them), gets slots of its own, allocated from `sharedSize`
/// up (which grows by 8 bytes a wave for each), and no trailing barrier.
/// The others keep the shared slots at offset 0 and their trailing barrier.
void planReductionSlots(func::FuncOp kernel, unsigned numWarps,
                        int64_t &sharedSize,
                        DenseMap<Operation *, ReductionSlots> &plan);

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
void populateLayoutPatterns(const TypeConverter &converter,
                            RewritePatternSet &patterns,
                            const LoweringState &state);

/// Declares the kernel's shared memory (`state.sharedMemory`, `bytes` of
/// it), static or -- past the target's static limit -- dynamic with the
/// size recorded for the launch (SharedMemory.h). A need past the target's
/// limit is an error at `largest` (the op needing the most; null: the
/// module) naming the need and the limit.
LogicalResult declareSharedMemory(ModuleOp module, const TargetInfo &target,
                                  const LoweringState &state, int64_t bytes,
                                  Operation *largest);
/// Bytes one element of `type` takes in shared memory (pointers: 8).
int64_t sharedBytes(Type type);
/// The type a reduction of `element`s computes (and keeps its partials and
/// 2-D blocks in shared memory) in: f32 for floats, i64 for i64, else i32.
Type reductionType(Type element);
/// The address of element `index` (i32) of an array of `type` at the start
/// of the kernel's shared memory.
Value sharedElement(OpBuilder &b, Location loc, const LoweringState &state,
                    Type type, Value index);
/// Every thread writes the elements it holds (`values`, spread by `spread`)
/// at their row-major index in shared memory, then all wait.
void storeBlockToShared(OpBuilder &b, Location loc, const LoweringState &state,
                        const Spread &spread, ValueRange values);

/// fmod(x, y) of f32 values x and y, exactly (C's, every operand; Fmod.cpp).
Value exactFmod(OpBuilder &b, Location loc, Value x, Value y);

} // namespace mlir::ktc

#endif // KTC_LIB_CONVERSION_LOWERING_H
