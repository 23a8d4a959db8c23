//===- Relayout.h - what a layout change costs, and how it moves --*- C++ -*-===//
//
// expand_dims, broadcast, convert_layout, trans and reshape all change which
// thread holds which element. Each is read as a pair of linear maps over
// the same shape (dialect/LinearLayout.h): what the threads have (`from`)
// and what each result register needs (`to`). This file says how such a
// change moves data, cheapest first:
//
// - Registers: every thread already holds what it needs (a register
//   permutation, free);
// - Shuffles: every thread finds what it needs in its own warp: solved
//   over GF(2), the source lane and register of each result register are
//   XORs of terms selected by the bits of the register and of the thread id
//   (WarpShufflePlan), one warp shuffle per result register (a few more
//   where the source register depends on the thread);
// - SharedMemory: anything else goes through shared memory.
//
// Used by the lowering (lib/Conversion/LayoutConversion.cpp) and by
// ktc-remove-layout-conversions to count what a conversion costs.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_DIALECT_RELAYOUT_H
#define KTC_DIALECT_RELAYOUT_H

#include "dialect/LinearLayout.h"

#include "mlir/IR/Operation.h"

#include <optional>

namespace mlir::ktc {

/// What expand_dims, broadcast, convert_layout, trans or reshape `op` has
/// (the source's layout, its elements renamed by trans and reshape) and
/// needs in each result register (over the same shape).
LinearLayout relayoutSource(Operation *op);
LinearLayout relayoutNeeds(Operation *op);

/// For each register of `to`, the register of `from` holding the same
/// element in the same thread; none when some thread lacks an element it
/// needs.
std::optional<SmallVector<int64_t>>
registerPermutation(const LinearLayout &from, const LinearLayout &to);

/// A conversion within each warp. Thread bits are the lane bits, then the
/// warp bits (as the thread id). Result register r of thread t reads
/// register srcRegister(r, t) of lane srcLane(r, t) of its own warp:
///
///   srcLane     = XOR of laneOfThread[i] (bits i of t) ^ XOR of laneOfReg[k]
///   srcRegister = XOR of regOfThread[i]  (bits i of t) ^ XOR of regOfReg[k]
///
/// (bits k of r). Where regOfThread is not all zero the source register
/// depends on the thread: each result register then takes one shuffle per
/// value of the thread part (numRegisterChoices), keeping the one it needs.
struct WarpShufflePlan {
  SmallVector<uint64_t> laneOfThread, regOfThread; // per thread-id bit
  SmallVector<uint64_t> laneOfReg, regOfReg;       // per register bit of `to`
  unsigned laneBits = 0;

  int64_t srcLane(int64_t reg, int64_t thread) const;
  int64_t srcRegister(int64_t reg, int64_t thread) const;
  /// The thread part of srcRegister (regOfThread applied to `thread`).
  int64_t threadRegister(int64_t thread) const;
  /// The distinct values of threadRegister over all threads.
  SmallVector<int64_t> registerChoices() const;
  /// True when no thread reads another lane (a register permutation).
  bool inRegisters() const;
  /// Shuffles of 32-bit words per word of each result register.
  int64_t shufflesPerRegister() const { return registerChoices().size(); }
};

/// The plan moving `from` to `to` within each warp; none when some thread
/// needs an element no lane of its warp holds.
std::optional<WarpShufflePlan> planWarpShuffles(const LinearLayout &from,
                                                const LinearLayout &to);

enum class RelayoutKind { Registers, Shuffles, SharedMemory };
/// How the lowering moves `from` to `to` (Shuffles only where they are
/// cheap: at most two per result register and word).
RelayoutKind relayoutKind(const LinearLayout &from, const LinearLayout &to);
/// relayoutKind(relayoutSource(op), relayoutNeeds(op)).
RelayoutKind relayoutKind(Operation *op);
/// The most shuffles per result register (and word) worth doing instead of
/// a round through shared memory.
constexpr int64_t kMaxShufflesPerRegister = 2;

} // namespace mlir::ktc

#endif // KTC_DIALECT_RELAYOUT_H
