//===- SharedBuffers.h - a kernel's shared memory: scratch and buffers -*- C++ -*-===//
//
// Shared memory holds two kinds of things. Scratch: what an op needs while
// it runs (a conversion's round, a dot's staged operands, a reduction's
// partials), reused by the next op from offset 0. Buffers: the slots of a
// ktc.local_alloc, alive for the whole kernel and placed past the scratch,
// which asynchronous copies fill and a dot (or a ktc.local_load) reads
// (the ops after the buffers' last use reuse them: BufferLifetimes). A
// buffer's slot is laid out as its local_alloc says (row padding or an XOR
// swizzle of chunks); the copies and the reads both follow it.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_CONVERSION_SHAREDBUFFERS_H
#define KTC_LIB_CONVERSION_SHAREDBUFFERS_H

#include "SharedPlan.h"

#include "dialect/MmaLayouts.h"

namespace mlir::ktc {

/// How the slots of `alloc` are laid out.
SharedLayout bufferLayout(LocalAllocOp alloc);
/// Elements one slot of `alloc` spans (rows padded).
int64_t slotElements(LocalAllocOp alloc);
/// The alignment (bytes) of a buffer laid out as `shared`: 1024 for
/// wgmma's column blocks (their swizzle repeats every 1024 bytes, which the
/// descriptors assume start aligned), else 128.
inline int64_t bufferAlignment(const SharedLayout &shared) {
  return shared.split ? 1024 : 128;
}
/// Bytes all slots of `alloc` take.
int64_t bufferBytes(LocalAllocOp alloc);

/// The i32 element index (in the buffer's element type) of the start of
/// slot `slot` of `alloc`, at the offset the lowering gave the buffer.
Value slotStart(OpBuilder &b, Location loc, const LoweringState &state,
                LocalAllocOp alloc, Value slot);

/// The plan for reading a block laid out by `to` from a slot laid out as
/// `shared` (no permutation, nothing written): vectors as wide as the
/// layout and the slot's chunks allow, or 8x8 matrix loads.
SharedPlan slotReadPlan(const LinearLayout &to, Type element,
                        const SharedLayout &shared, bool matrixLoads);

/// Elements each asynchronous copy of a block laid out by `from` into a
/// slot laid out as `shared` moves, when the pointers and mask allow
/// `width` (AxisAnalysis::vectorWidth); 0 when that is under 4 bytes (the
/// smallest copy).
int64_t asyncCopyVector(const LinearLayout &from, int64_t elementBytes,
                        const SharedLayout &shared, int64_t width);

/// The layout a dot's operand `idx` needs, for the dot's result layout.
LinearLayout dotOperandLayout(DotOp dot, unsigned idx);
/// Whether the dot reads operand `idx` from the buffer slot a
/// ktc.local_load names (instead of registers).
LocalLoadOp bufferOperand(DotOp dot, unsigned idx);

/// The matrix instruction of `dot` when it is a wgmma (sm_90a), else null.
const MmaInstr *wgmmaOf(DotOp dot);
/// How wgmma reads operand `idx` (0: A, m x k; 1: B, k x n) of `dot` from
/// shared memory: A K-major, B N-major (both as the blocks lie in global
/// memory), each cut in column blocks of 32, 64 or 128 bytes (the widest
/// the block and one instruction allow) swizzled as the descriptor's mode
/// of that width says: 16-byte chunks XOR the row within 8 rows of 128
/// bytes. `instr` is wgmmaOf(dot).
SharedLayout wgmmaOperandLayout(const MmaInstr &instr, unsigned idx,
                                ArrayRef<int64_t> shape, int64_t elementBytes);

/// The attribute (i32) of a wgmma dot that may return with that many
/// groups of its instructions in flight (ktc-pipeline-async; ktc.dot_wait).
inline constexpr llvm::StringLiteral kDotPendingAttr = "ktc.dot_pending";

/// A wgmma dot (lib/Conversion/WgmmaToLLVM.cpp): the accumulators after
/// it, from `acc`; operands not read from a buffer slot (`a`, `b`: their
/// registers) are staged through scratch first, which needs
/// wgmmaScratchBytes.
SmallVector<Value> wgmmaDot(ConversionPatternRewriter &b, Location loc,
                            const LoweringState &state, DotOp op,
                            const MmaInstr &instr, ArrayRef<unsigned> warps,
                            ValueRange a, ValueRange bv, ValueRange acc);
int64_t wgmmaScratchBytes(DotOp dot);
/// ktc.dot_wait's lowering (a wgmma wait passing the accumulators through).
void populateWgmmaPatterns(const TypeConverter &converter,
                           RewritePatternSet &patterns);

/// Which ops run once a kernel's buffers are dead, so that their scratch
/// may overlap the buffers (as Triton's allocator reuses a pipelined loop's
/// slots for its epilogue's conversion): those after the ktc.async_wait
/// that follows, in the block of the buffers' ktc.local_alloc ops, the last
/// op using a buffer or waiting for a dot (ktc-pipeline-async ends a loop
/// with its ktc.dot_wait ops and then that wait, whose barrier orders every
/// thread's last reads of the slots before any later write).
class BufferLifetimes {
public:
  explicit BufferLifetimes(Operation *scope);
  /// Whether `op` runs after its kernel's buffers are dead.
  bool after(Operation *op) const;

private:
  DenseMap<Block *, Operation *> fences; // the wait, by the allocs' block
};

/// The scratch (bytes) the ops of `scope` (with `numWarps` waves) need at
/// once, and the op needing the most (`largest`, may be null), skipping the
/// ops `skip` says.
int64_t scratchBytes(Operation *scope, const TargetInfo &target,
                     unsigned numWarps, Operation **largest = nullptr,
                     function_ref<bool(Operation *)> skip = nullptr);

} // namespace mlir::ktc

#endif // KTC_LIB_CONVERSION_SHAREDBUFFERS_H
