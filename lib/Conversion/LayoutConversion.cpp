//===- LayoutConversion.cpp - coordinates and layout conversions -----------===//
//
// Reads layouts only as linear maps (dialect/LinearLayout.h):
// - TileCoords: the coordinates of a thread's elements, the thread's part
//   computed once from the thread id (runs of bits become a shift and a
//   mask) and each register's part a constant;
// - convertLayout: a register permutation when each thread already holds
//   what the new layout gives it; otherwise a round through shared memory,
//   rows padded so that the writes of one layout and the reads of the other
//   spread over the banks (the padding chosen by counting bank conflicts of
//   both access patterns), vectorised along the last dimension where both
//   layouts hold runs of it; a 2-D block may be stored transposed when
//   that makes the accesses cheaper (a dot's B operand, whose threads hold
//   runs along k, the first dimension).
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"
#include "SharedPlan.h"
#include "Staging.h"
#include "WarpShuffles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

#include <map>
#include <optional>
#include <set>

using namespace mlir;
using namespace mlir::ktc;

using In = LinearLayout::In;
using Coord = LinearLayout::Coord;

/// The bases of the thread id's bits: the lane bits, then the warp bits.
static SmallVector<Coord> threadBases(const LinearLayout &layout) {
  SmallVector<Coord> bases(layout.bases(LinearLayout::Lane));
  llvm::append_range(bases, layout.bases(LinearLayout::Warp));
  return bases;
}

TileCoords::TileCoords(OpBuilder &b, Location loc, const TargetInfo &target,
                       const LinearLayout &layout)
    : layout_(layout), disjoint_(layout.isDisjoint()) {
  Value tid = target.threadId(b, loc);
  SmallVector<Coord> bases = threadBases(layout);
  unsigned total = bases.size();
  for (unsigned d = 0; d < layout.rank(); ++d) {
    Value acc;
    auto add = [&](Value term) {
      acc = !acc         ? term
            : disjoint_ ? arith::AddIOp::create(b, loc, acc, term).getResult()
                        : arith::XOrIOp::create(b, loc, acc, term).getResult();
    };
    for (unsigned i = 0; i < total;) {
      int64_t basis = bases[i][d];
      if (!basis) {
        ++i;
        continue;
      }
      if (!disjoint_) {
        // (tid >> i & 1) * basis, XORed in.
        Value bit = arith::AndIOp::create(
            b, loc, arith::ShRUIOp::create(b, loc, tid, i32Const(b, loc, i)),
            i32Const(b, loc, 1));
        add(arith::MulIOp::create(b, loc, bit, i32Const(b, loc, basis)));
        ++i;
        continue;
      }
      // A run of bits i..j-1 with bases basis, 2 basis, ...: one field.
      unsigned j = i + 1;
      while (j < total && bases[j][d] == basis << (j - i))
        ++j;
      Value term = tid;
      if (i)
        term = arith::ShRUIOp::create(b, loc, term, i32Const(b, loc, i));
      if (j < total) // the thread id has no bits past `total`
        term = arith::AndIOp::create(b, loc, term,
                                     i32Const(b, loc, (int64_t(1) << (j - i)) - 1));
      if (basis > 1)
        term = arith::ShLIOp::create(b, loc, term,
                                     i32Const(b, loc, llvm::Log2_64(basis)));
      add(term);
      i = j;
    }
    thread_.push_back(acc ? acc : i32Const(b, loc, 0));
  }
}

SmallVector<Value, 3> TileCoords::at(OpBuilder &b, Location loc,
                                     int64_t reg) const {
  Coord c = layout_.applyIn(LinearLayout::Register, reg);
  SmallVector<Value, 3> out;
  for (unsigned d = 0; d < layout_.rank(); ++d) {
    if (!c[d]) {
      out.push_back(thread_[d]);
      continue;
    }
    Value k = i32Const(b, loc, c[d]);
    out.push_back(disjoint_
                      ? arith::AddIOp::create(b, loc, thread_[d], k).getResult()
                      : arith::XOrIOp::create(b, loc, thread_[d], k).getResult());
  }
  return out;
}

int64_t SharedLayout::offset(ArrayRef<int32_t> c,
                             ArrayRef<int64_t> shape) const {
  int64_t row = 0;
  for (size_t d = 0; d + 1 < c.size(); ++d)
    row = row * shape[d] + c[d];
  int64_t col = c.back(), block = 0, width = shape.back() + pad;
  if (split && split < shape.back()) {
    int64_t rows = 1;
    for (int64_t d : shape.drop_back())
      rows *= d;
    block = col / split * rows * split;
    col %= split;
    width = split;
  }
  if (maxPhase > 1) {
    int64_t folded = fold ? row ^ (row >> fold) : row;
    col = ((col / vec) ^ (folded / perPhase % maxPhase)) * vec + col % vec;
  }
  return block + row * width + col;
}

Value TileCoords::linear(OpBuilder &b, Location loc, int64_t reg,
                         const SharedLayout &shared, int64_t rows,
                         unsigned dim) const {
  SmallVector<Value, 3> c = at(b, loc, reg);
  // A piece is laid out as a block of its own shape.
  SmallVector<int64_t, 3> shape = pieceShape(layout_.shape(), dim, rows);
  if (rows && rows < layout_.shape()[dim])
    c[dim] = arith::AndIOp::create(b, loc, c[dim], i32Const(b, loc, rows - 1));
  auto mul = [&](Value x, int64_t k) -> Value {
    return k == 1 ? x : arith::MulIOp::create(b, loc, x, i32Const(b, loc, k));
  };
  // The row: the leading dimensions, row-major.
  Value row;
  for (size_t d = 0; d + 1 < c.size(); ++d)
    row = row ? arith::AddIOp::create(b, loc, mul(row, shape[d]), c[d])
                    .getResult()
              : c[d];
  Value col = c.back();
  if (!row)
    return col;
  // Column blocks (split): the block's start, and the column within it.
  Value block;
  int64_t width = shape.back() + shared.pad;
  if (shared.split && shared.split < shape.back()) {
    int64_t rowsAll = 1;
    for (int64_t d : ArrayRef<int64_t>(shape).drop_back())
      rowsAll *= d;
    int64_t shift = llvm::Log2_64(shared.split);
    block = arith::ShLIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, col, i32Const(b, loc, shift)),
        i32Const(b, loc, llvm::Log2_64(rowsAll * shared.split)));
    col = arith::AndIOp::create(b, loc, col, i32Const(b, loc, shared.split - 1));
    width = shared.split;
  }
  if (shared.maxPhase > 1) {
    Value folded = row;
    if (shared.fold)
      folded = arith::XOrIOp::create(
          b, loc, row,
          arith::ShRUIOp::create(b, loc, row, i32Const(b, loc, shared.fold)));
    Value phase = arith::AndIOp::create(
        b, loc,
        arith::ShRUIOp::create(b, loc, folded,
                               i32Const(b, loc, llvm::Log2_64(shared.perPhase))),
        i32Const(b, loc, shared.maxPhase - 1));
    // XOR the chunk index (col / vec) with the phase: col ^ (phase * vec).
    col = arith::XOrIOp::create(
        b, loc, col,
        arith::ShLIOp::create(b, loc, phase,
                              i32Const(b, loc, llvm::Log2_64(shared.vec))));
  }
  Value index = arith::AddIOp::create(b, loc, mul(row, width), col);
  return block ? arith::AddIOp::create(b, loc, index, block).getResult()
               : index;
}

Value mlir::ktc::extractBits(OpBuilder &b, Location loc, Value x,
                             uint64_t mask) {
  Value acc;
  unsigned out = 0;
  for (unsigned i = 0; i < 64 && (mask >> i);) {
    if (!(mask >> i & 1)) {
      ++i;
      continue;
    }
    unsigned j = i;
    while (j < 64 && (mask >> j & 1))
      ++j;
    Value field = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, x, i32Const(b, loc, i)),
        i32Const(b, loc, (int64_t(1) << (j - i)) - 1));
    if (out)
      field = arith::ShLIOp::create(b, loc, field, i32Const(b, loc, out));
    acc = acc ? arith::OrIOp::create(b, loc, acc, field).getResult() : field;
    out += j - i;
    i = j;
  }
  return acc ? acc : i32Const(b, loc, 0);
}

bool mlir::ktc::isRegisterPermutation(const LinearLayout &from,
                                      const LinearLayout &to) {
  return registerPermutation(from, to).has_value();
}


/// convertLayout's plan through shared memory on `target`: its budget, its
/// matrix loads and stores. Sizing and lowering both take it from here.
static SharedPlan conversionPlan(const LinearLayout &from,
                                 const LinearLayout &to, Type element,
                                 const TargetInfo &target) {
  return planShared(from, to, element, conversionBudget(target),
                    target.hasMatrixLoads(), /*gather=*/false,
                    target.hasMatrixStores());
}

int64_t mlir::ktc::conversionSharedBytes(const LinearLayout &from,
                                         const LinearLayout &to, Type element,
                                         const TargetInfo &target) {
  if (relayoutKind(from, to) != RelayoutKind::SharedMemory)
    return 0;
  return conversionPlan(from, to, element, target).bytes;
}

int64_t mlir::ktc::conversionBudget(const TargetInfo &target) {
  // Room for the 1-D reductions' slots, allocated past the rest.
  return target.maxSharedBytes() - 1024;
}

Value mlir::ktc::pack(OpBuilder &b, Location loc, ValueRange values,
                      int64_t k0, int64_t g) {
  if (g == 1)
    return values[k0];
  auto type = VectorType::get({g}, values[k0].getType());
  Value v = LLVM::PoisonOp::create(b, loc, type);
  for (int64_t i = 0; i < g; ++i)
    v = LLVM::InsertElementOp::create(b, loc, v, values[k0 + i],
                                      i32Const(b, loc, i));
  return v;
}

SmallVector<Value> mlir::ktc::convertLayout(OpBuilder &b, Location loc,
                                            const LoweringState &state,
                                            const LinearLayout &from,
                                            const LinearLayout &to,
                                            ValueRange values) {
  SmallVector<Value> out;
  if (std::optional<SmallVector<int64_t>> sources =
          registerPermutation(from, to)) {
    for (int64_t r : *sources)
      out.push_back(values[r]);
    return out;
  }
  const TargetInfo &target = *state.target;
  // Within each warp: shuffles, no shared memory (WarpShuffles.h).
  if (relayoutKind(from, to) != RelayoutKind::SharedMemory)
    return shuffleWithinWarps(b, loc, target, *planWarpShuffles(from, to),
                              to.numRegisters(), values);
  Type element = values[0].getType();
  SharedPlan plan = conversionPlan(from, to, element, target);
  if (plan.rounds == 1) {
    // One piece: written whole, read back register by register (the
    // dot's operands go the same way, Staging.h).
    StagedBlock staged(state, from, to, element, plan, 0);
    staged.write(b, loc, values);
    target.barrier(b, loc);
    for (int64_t r = 0; r < to.numRegisters(); ++r)
      out.push_back(staged.read(b, loc, r));
    // The memory is reused by the next op that needs it.
    target.barrier(b, loc);
    return out;
  }
  // In pieces along `dim` (no matrix loads: planShared), one round each.
  int64_t bytes = sharedBytes(element);
  // The coordinates in the order the block is stored in (the registers
  // stay the same).
  LinearLayout stored = plan.perm.empty() ? from : from.permute(plan.perm);
  LinearLayout read = plan.perm.empty() ? to : to.permute(plan.perm);
  int64_t rows = stored.shape()[plan.dim] / plan.rounds; // of `dim` a piece
  TileCoords source(b, loc, target, stored);
  TileCoords result(b, loc, target, read);
  // Where no lane or warp basis reaches past a piece, each register's
  // piece is known here: it is written and read in its own round only,
  // unpredicated. Otherwise each access asks in each round.
  bool writesKnown = piecesByRegister(stored, plan.dim, rows);
  bool readsKnown = piecesByRegister(read, plan.dim, rows);
  auto pieceOf = [&](const LinearLayout &layout, int64_t reg) {
    return layout.applyIn(LinearLayout::Register, reg)[plan.dim] / rows;
  };
  // In round t, the elements whose coordinate along `dim` is in piece t.
  auto inPiece = [&](OpBuilder &b, Location loc, const TileCoords &coords,
                     int64_t reg, int64_t t) -> Value {
    Value piece = arith::ShRUIOp::create(b, loc,
                                         coords.at(b, loc, reg)[plan.dim],
                                         i32Const(b, loc, llvm::Log2_64(rows)));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, piece,
                                 i32Const(b, loc, t));
  };
  // Writes: one copy of each element (threads that replicate another skip).
  uint64_t replicas = from.replicatedThreadBits();
  Value first;
  if (replicas) {
    Value tid = target.threadId(b, loc);
    first = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::AndIOp::create(b, loc, tid, i32Const(b, loc, replicas)),
        i32Const(b, loc, 0));
  }
  int64_t g = plan.readVector;
  Type type = g == 1 ? element : VectorType::get({g}, element);
  out.assign(to.numRegisters(), Value());
  for (int64_t t = 0; t < plan.rounds; ++t) {
    auto write = [&](OpBuilder &b, Location loc) {
      for (int64_t k0 = 0; k0 < from.numRegisters(); k0 += plan.writeVector) {
        auto store = [&](OpBuilder &b, Location loc) {
          Value at = sharedElement(b, loc, state, element,
                                   source.linear(b, loc, k0, plan.shared, rows, plan.dim));
          LLVM::StoreOp::create(b, loc,
                                pack(b, loc, values, k0, plan.writeVector), at,
                                plan.writeVector * bytes);
        };
        if (writesKnown) {
          if (pieceOf(stored, k0) == t)
            store(b, loc);
          continue;
        }
        scf::IfOp::create(b, loc, inPiece(b, loc, source, k0, t),
                          [&](OpBuilder &b, Location loc) {
                            store(b, loc);
                            scf::YieldOp::create(b, loc);
                          });
      }
    };
    if (first) {
      scf::IfOp::create(b, loc, first, [&](OpBuilder &b, Location loc) {
        write(b, loc);
        scf::YieldOp::create(b, loc);
      });
    } else {
      write(b, loc);
    }
    target.barrier(b, loc);
    for (int64_t k0 = 0; k0 < to.numRegisters(); k0 += g) {
      if (readsKnown && pieceOf(read, k0) != t)
        continue;
      // A register whose element is in another piece reads an element of
      // this one (in bounds), kept only in its own round.
      Value at = sharedElement(b, loc, state, element,
                               result.linear(b, loc, k0, plan.shared, rows, plan.dim));
      Value v = LLVM::LoadOp::create(b, loc, type, at, g * bytes);
      Value mine =
          t == 0 || readsKnown ? Value() : inPiece(b, loc, result, k0, t);
      for (int64_t i = 0; i < g; ++i) {
        Value e = g == 1 ? v
                         : LLVM::ExtractElementOp::create(b, loc, v,
                                                          i32Const(b, loc, i))
                               .getResult();
        Value &slot = out[k0 + i];
        slot = mine ? arith::SelectOp::create(b, loc, mine, e, slot).getResult()
                    : e;
      }
    }
    if (t + 1 < plan.rounds)
      target.barrier(b, loc);
  }
  // The memory is reused by the next op that needs it.
  target.barrier(b, loc);
  return out;
}
