//===- Lowering.h - shared pieces of the ktc -> LLVM lowering ----*- C++ -*-===//
//
// A block with a layout becomes, in each thread, the scalars that thread
// holds (a 1:N type conversion): slot r holds the element the layout's
// linear map gives for register r, the thread's lane and warp
// (dialect/LinearLayout.h). Blocks smaller than the layout's tile are
// replicated: several threads hold the same elements.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_CONVERSION_LOWERING_H
#define KTC_LIB_CONVERSION_LOWERING_H

#include "TargetInfo.h"

#include "dialect/KtcDialect.h"
#include "dialect/LinearLayout.h"
#include "dialect/Relayout.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::ktc {

struct LoweringState;

/// Where a block lies in shared memory: row-major, each row of the last
/// dimension `pad` elements longer; with `maxPhase` > 1, the chunks of
/// `vec` elements of a row are permuted by XOR with the row's phase,
/// (row / perPhase) % maxPhase (a swizzle: columns of one chunk in
/// successive rows land on different banks, with no padding). With `fold`
/// > 0 the phase is taken of row ^ (row >> fold): rows 2^fold apart get
/// different phases too (a dot's operand stored transposed, whose writes
/// and reads move along different bits of the row). With `split` > 0 the
/// last dimension is cut in column blocks of `split` elements, stored one
/// after the other, each all rows x `split` columns and swizzled on its
/// own: the shape of wgmma's swizzled operand tiles
/// (lib/Conversion/WgmmaToLLVM.cpp), whose rows are 32, 64 or 128 bytes.
struct SharedLayout {
  int64_t pad = 0, vec = 1, perPhase = 1, maxPhase = 1, fold = 0, split = 0;
  /// The element offset of coordinate `c` of a block of `shape`.
  int64_t offset(ArrayRef<int32_t> c, ArrayRef<int64_t> shape) const;
};

/// The coordinates of the elements a thread holds in a block laid out by
/// `layout`: the thread's part (lane and warp bits, computed once) plus each
/// register's constant part.
class TileCoords {
public:
  TileCoords(OpBuilder &b, Location loc, const TargetInfo &target,
             const LinearLayout &layout);
  const LinearLayout &layout() const { return layout_; }
  /// The element indices (i32, one per dimension) held in register `reg`.
  SmallVector<Value, 3> at(OpBuilder &b, Location loc, int64_t reg) const;
  /// The offset of register `reg`'s element in shared memory laid out as
  /// `shared`, dimension `dim` wrapped to `rows` when nonzero (a piece of
  /// the block).
  Value linear(OpBuilder &b, Location loc, int64_t reg,
               const SharedLayout &shared = {}, int64_t rows = 0,
               unsigned dim = 0) const;

private:
  LinearLayout layout_;
  SmallVector<Value, 3> thread_;
  bool disjoint_;
};

/// Packs values[k0, k0+g) into an LLVM vector (the scalar for g = 1).
Value pack(OpBuilder &b, Location loc, ValueRange values, int64_t k0,
           int64_t g);

/// The bits of `x` (i32) selected by `mask`, packed into the low bits.
Value extractBits(OpBuilder &b, Location loc, Value x, uint64_t mask);

/// Moves `values`, a block laid out by `from`, to the layout `to`: result
/// slot r holds the element `to` puts in register r (`to` may have repeated
/// register bases -- the needs of a broadcast -- but the shape is `from`'s).
/// Free (a register permutation) when every thread already holds what it
/// needs (isRegisterPermutation); through shared memory otherwise.
SmallVector<Value> convertLayout(OpBuilder &b, Location loc,
                                 const LoweringState &state,
                                 const LinearLayout &from,
                                 const LinearLayout &to, ValueRange values);
// relayoutSource / relayoutNeeds (what expand_dims, broadcast,
// convert_layout, trans or reshape has and needs): dialect/Relayout.h.
/// True when moving from `from` to `to` needs no data exchange.
bool isRegisterPermutation(const LinearLayout &from, const LinearLayout &to);
/// The shared memory (bytes) convertLayout needs for `element`s on
/// `target`, planned as it plans them; 0 when it is a register permutation.
/// A block past conversionBudget(target) bytes goes in pieces along its
/// first dimension that can be cut enough, as few as fit.
int64_t conversionSharedBytes(const LinearLayout &from, const LinearLayout &to,
                              Type element, const TargetInfo &target);
/// The shared memory (bytes) `dot` needs to stage operands that are not in
/// its operand layouts (both at once, or one after the other when they do
/// not fit together); 0 when they are.
int64_t dotSharedBytes(DotOp dot, const TargetInfo &target);
/// The most shared memory a conversion may plan for on `target`.
int64_t conversionBudget(const TargetInfo &target);

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
  /// Per dimension, the runs of equal values (aligned, > 1 somewhere) of
  /// the integer and mask blocks arith ops compute (the axis analysis'
  /// constancy): the elementwise lowering computes one value per run.
  DenseMap<Operation *, SmallVector<int64_t, 3>> constancies;
  /// Shared memory for cross-wave reductions (an llvm.mlir.global).
  StringRef sharedMemory = "ktc_smem";
  /// The slots of each 1-D reduction over several waves; absent: offset 0
  /// with a trailing barrier.
  DenseMap<Operation *, ReductionSlots> reductionSlots;
  /// The byte offset of each ktc.local_alloc's buffer in shared memory.
  DenseMap<Operation *, int64_t> bufferOffsets;
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
void populateDotPatterns(const TypeConverter &converter,
                         RewritePatternSet &patterns,
                         const LoweringState &state);
void populateAsyncCopyPatterns(const TypeConverter &converter,
                               RewritePatternSet &patterns,
                               const LoweringState &state);
void populateAtomicPatterns(const TypeConverter &converter,
                            RewritePatternSet &patterns,
                            const LoweringState &state);
/// ktc.print and ktc.assert (DebugOpToLLVM.cpp).
void populateDebugPatterns(const TypeConverter &converter,
                           RewritePatternSet &patterns,
                           const LoweringState &state);
/// The shared memory (bytes) an atomic needs to hand its old values to the
/// threads holding copies of its elements (AtomicOpToLLVM.cpp); 0 when its
/// result is unused or no thread holds a copy.
int64_t atomicSharedBytes(Operation *op, unsigned numWarps, unsigned waveSize);

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
/// The shared memory (bytes) a reduction of rank 2 or more needs to combine
/// partials across waves (0 when no wave bit spreads its axis), or to move
/// its result to the result type's layout when that is not the source's
/// slice.
int64_t reductionSharedBytes(ReduceOp op, const TargetInfo &target);

/// ktc.reduce_with (ReduceWithOpToLLVM.cpp): its patterns, and the shared
/// memory (bytes) it needs to combine partials across waves or to move its
/// results to the result types' layouts.
void populateReduceWithPatterns(const TypeConverter &converter,
                                RewritePatternSet &patterns,
                                const LoweringState &state);
int64_t reduceWithSharedBytes(ReduceWithOp op, const TargetInfo &target);
/// Scans (ScanOpToLLVM.cpp): the patterns, and the shared memory (bytes) a
/// scan whose axis crosses waves needs for its totals (0 when none does).
void populateScanPatterns(const TypeConverter &converter,
                          RewritePatternSet &patterns,
                          const LoweringState &state);
int64_t scanSharedBytes(ScanOp op);

/// ktc.inline_asm_elementwise (InlineAsmToLLVM.cpp).
void populateInlineAsmPatterns(const TypeConverter &converter,
                               RewritePatternSet &patterns,
                               const LoweringState &state);

/// fmod(x, y) of f32 values x and y, exactly (C's, every operand; Fmod.cpp).
Value exactFmod(OpBuilder &b, Location loc, Value x, Value y);

} // namespace mlir::ktc

#endif // KTC_LIB_CONVERSION_LOWERING_H
