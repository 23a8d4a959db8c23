//===- SharedBuffers.h - a kernel's shared memory: scratch and buffers -*- C++ -*-===//
//
// Shared memory holds two kinds of things. Scratch: what an op needs while
// it runs (a conversion's round, a dot's staged operands, a reduction's
// partials), reused by the next op from offset 0. Buffers: the slots of a
// ktc.local_alloc, alive for the whole kernel and placed past the scratch,
// which asynchronous copies fill and a dot (or a ktc.local_load) reads. A
// buffer's slot is laid out as its local_alloc says (row padding or an XOR
// swizzle of chunks); the copies and the reads both follow it.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_CONVERSION_SHAREDBUFFERS_H
#define KTC_LIB_CONVERSION_SHAREDBUFFERS_H

#include "SharedPlan.h"

namespace mlir::ktc {

/// How the slots of `alloc` are laid out.
SharedLayout bufferLayout(LocalAllocOp alloc);
/// Elements one slot of `alloc` spans (rows padded).
int64_t slotElements(LocalAllocOp alloc);
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

/// The scratch (bytes) the ops of `scope` (with `numWarps` waves) need at
/// once, and the op needing the most (`largest`, may be null), skipping the
/// ops `skip` says.
int64_t scratchBytes(Operation *scope, const TargetInfo &target,
                     unsigned numWarps, Operation **largest = nullptr,
                     function_ref<bool(Operation *)> skip = nullptr);

} // namespace mlir::ktc

#endif // KTC_LIB_CONVERSION_SHAREDBUFFERS_H
