//===- MmaLayouts.h - the matrix instructions and their layouts -*- C++ -*-===//
//
// A matrix instruction (NVIDIA mma.sync, AMD MFMA and WMMA) multiplies an
// m x k tile of A by a k x n tile of B into an m x n tile of C, each tile
// spread over one wave's lanes and registers in a fixed way: a linear map,
// like every layout (LinearLayout.h). This file holds, per instruction,
// those maps for one tile, and builds from them the layouts of whole
// blocks: #ktc.mma (C, the dot's result) and #ktc.dot_operand (A and B),
// the waves tiling the block along M and N, each thread repeating the
// instruction over the tiles left. Registers come in a fixed order, which
// the lowering (lib/Conversion/DotOpToLLVM.cpp) indexes by arithmetic:
//
//   C: instruction registers, then N repeats, then M repeats
//   A: instruction registers, then K repeats, then M repeats
//   B: instruction registers, then K repeats, then N repeats
//
// A #ktc.dot_operand whose parent is #ktc.blocked is the FMA path's operand
// (targets or shapes without a matrix instruction): each thread holds the
// rows of A (columns of B) of its own results, and all of K.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_DIALECT_MMALAYOUTS_H
#define KTC_DIALECT_MMALAYOUTS_H

#include "dialect/LinearLayout.h"

#include "mlir/IR/Types.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir::ktc {

struct MmaInstr {
  enum Family { NvMma, NvWgmma, AmdMfma, AmdWmma };
  /// The name #ktc.mma carries: "mma16816_f16", "mfma32x32x8_f16", ...
  StringRef name;
  Family family;
  unsigned m, n, k;
  unsigned waveSize;
  /// The operands' element type: bf16, f16 (neither flag), or f32
  /// rounded to tf32 (input_precision = tf32).
  bool bf16 = false, tf32 = false;
  /// i8 operands and an i32 accumulator (issue 18's integer dot).
  bool int8 = false;
  /// The LLVM intrinsic (wgmma: the PTX instruction, written inline).
  StringRef intrinsic;
  /// The intrinsic takes B first and A second (computing C^T; the C bases
  /// below are C's, already transposed): AMD MFMA, for stores along n.
  bool swapAB = false;
  /// One tile's bases, (row, column) of A (m, k), B (k, n) and C (m, n):
  /// registers, lanes, and the waves of an instruction that several waves
  /// issue together (wgmma: the 4 warps of a warpgroup, 16 rows each).
  SmallVector<LinearLayout::Coord> aReg, aLane, bReg, bLane, cReg, cLane;
  SmallVector<LinearLayout::Coord> aWarp, bWarp, cWarp;
  /// Waves issuing one instruction together (wgmma: 4).
  unsigned waves = 1;

  int64_t aRegisters() const { return int64_t(1) << aReg.size(); }
  int64_t bRegisters() const { return int64_t(1) << bReg.size(); }
  int64_t cRegisters() const { return int64_t(1) << cReg.size(); }
};

/// The instruction named `name`; null for an unknown name.
const MmaInstr *lookupMmaInstr(StringRef name);
/// Every instruction, for tests and diagnostics.
ArrayRef<MmaInstr> allMmaInstrs();

/// The instruction a dot of `element` operands (a: m x k, b: k x n) uses on
/// `arch` ("sm_90", "gfx942", ...), or null when it takes the FMA path:
/// f32 operands in ieee precision (tf32 ones too, but on NVIDIA), i8 ones
/// on sm_90a's wgmma shapes' other forms (mma.sync there), an
/// architecture without one, or a block smaller than every instruction
/// that architecture has.
/// On sm_90a, f16 and bf16 dots of 4, 8, ... warps whose blocks have room
/// take wgmma (a warpgroup's 64 x n tiles, n up to 256), others mma.sync.
const MmaInstr *chooseMmaInstr(StringRef arch, Type element, bool tf32,
                               int64_t m, int64_t n, int64_t k,
                               unsigned numWarps = 4);
/// How `numWarps` waves tile an m x n result of `instr`: [along M, along N],
/// as square in tiles as the shape allows (waves past the shape replicate);
/// for wgmma, warpgroups along M first (each 64 rows), then along N, the
/// first count a multiple of 4.
SmallVector<unsigned, 2> mmaWarps(const MmaInstr &instr, int64_t m, int64_t n,
                                  unsigned numWarps);

/// The layout of operand `opIdx` (0: A, 1: B; -1: C) of a block of `shape`
/// for `instr` with `warps` ([along M, along N]).
LinearLayout mmaLayout(const MmaInstr &instr, ArrayRef<unsigned> warps,
                       int opIdx, ArrayRef<int64_t> shape);
/// The FMA path's operand `opIdx` (0: A, m x k; 1: B, k x n) of a dot whose
/// result is laid out by `result` (m x n, any shape; only its rows, for A,
/// or columns, for B, matter).
LinearLayout fmaOperandLayout(const LinearLayout &result, int opIdx,
                              ArrayRef<int64_t> shape);

} // namespace mlir::ktc

#endif // KTC_DIALECT_MMALAYOUTS_H
