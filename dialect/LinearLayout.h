//===- LinearLayout.h - tile layouts as linear maps over GF(2) --*- C++ -*-===//
//
// Every layout of a block over the threads of a workgroup is, for the
// power-of-two shapes ktc allows, a linear map over GF(2) from the bits of
// the hardware index -- register (the slot within a thread), lane, warp --
// to the bits of the element's coordinate, "+" being XOR. It is stored as
// its bases: per input (register, lane, warp), one coordinate per bit. The
// element a thread holds in register r is
//
//   coord(r, lane, warp) = XOR of the bases of the set bits of r, lane, warp
//
// A zero lane or warp basis means that bit replicates: the threads differing
// in it hold the same elements. Register bases are never zero (a thread
// holds each of its elements once); `canonical()` drops zero ones.
//
// The attributes (#ktc.blocked, #ktc.slice) are named constructors of these
// maps; the lowering reads only the maps (which bits move in a reduction,
// whether a conversion stays in registers, the widest vector), never the
// attribute kind. See docs/gpu-lowering.md.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_DIALECT_LINEARLAYOUT_H
#define KTC_DIALECT_LINEARLAYOUT_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <string>

namespace mlir::ktc {

class LinearLayout {
public:
  /// The hardware index's parts.
  enum In : unsigned { Register = 0, Lane = 1, Warp = 2 };
  static constexpr unsigned kNumIns = 3;
  /// An element coordinate, one entry per block dimension.
  using Coord = SmallVector<int32_t, 3>;

  LinearLayout() = default;
  LinearLayout(ArrayRef<int64_t> shape,
               std::array<SmallVector<Coord>, kNumIns> bases)
      : shape_(shape), bases_(std::move(bases)) {}

  /// Triton's blocked layout over `shape`: along each dimension a thread
  /// holds sizePerThread contiguous elements, a warp spans threadsPerWarp
  /// threads, the workgroup warpsPerCTA warps; dimensions are walked in
  /// `order` (fastest first) for registers, lanes and warps alike. A shape
  /// larger than that tile repeats it in more registers (the fastest
  /// dimension's repeats first); a smaller one wraps (threads hold copies).
  static LinearLayout blocked(ArrayRef<int64_t> shape,
                              ArrayRef<unsigned> sizePerThread,
                              ArrayRef<unsigned> threadsPerWarp,
                              ArrayRef<unsigned> warpsPerCTA,
                              ArrayRef<unsigned> order);

  unsigned rank() const { return shape_.size(); }
  ArrayRef<int64_t> shape() const { return shape_; }
  int64_t numElements() const;
  ArrayRef<Coord> bases(In in) const { return bases_[in]; }
  unsigned numBits(In in) const { return bases_[in].size(); }
  int64_t numRegisters() const { return int64_t(1) << numBits(Register); }
  int64_t numLanes() const { return int64_t(1) << numBits(Lane); }
  int64_t numWarps() const { return int64_t(1) << numBits(Warp); }

  /// The element held in register `reg` by lane `lane` of warp `warp`.
  Coord apply(int64_t reg, int64_t lane, int64_t warp) const;
  /// The XOR of the bases of `in` selected by the bits of `index`.
  Coord applyIn(In in, int64_t index) const;

  /// Drops dimension `dim` (a reduction along it, or a slice layout):
  /// bases lose that coordinate. Register bases left zero stay (each names
  /// the register holding the same element as another); canonical() drops
  /// them.
  LinearLayout dropDim(unsigned dim) const;
  /// Inserts a dimension of size 1 at `dim` (expand_dims).
  LinearLayout insertDim(unsigned dim) const;
  /// The layout over `shape` (same rank, each dimension a divisor of or
  /// equal to this one's) holding element (c mod shape) where this one
  /// holds c: a broadcast's source seen from its result. Not canonical:
  /// registers keep their numbers.
  LinearLayout wrapTo(ArrayRef<int64_t> shape) const;
  /// The same threads and registers with the dimensions permuted: result
  /// dimension i is this one's dimension perm[i] (ktc.trans).
  LinearLayout permute(ArrayRef<int32_t> perm) const;
  /// The same threads and registers over `shape` (as many elements), each
  /// element renamed by its row-major index (ktc.reshape): linear too, the
  /// index's bits being the coordinates' bits side by side.
  LinearLayout reshape(ArrayRef<int64_t> shape) const;
  /// Without zero register bases.
  LinearLayout canonical() const;

  /// True when every basis has at most one nonzero coordinate, a power of
  /// two, and no two bases share a bit: coordinates are then sums (ORs) of
  /// disjoint bits and may be computed with adds.
  bool isDisjoint() const;
  /// The number of leading registers holding consecutive elements along
  /// `dim` (1, 2, 4, ...): register bases 0..k-1 are 1, 2, ..., 2^(k-1)
  /// along `dim` and 0 elsewhere.
  int64_t contiguousRegisters(unsigned dim) const;
  /// The dimension the first registers run along (the one accesses are
  /// vectorised on): that of register basis 0 when it is 1 along one
  /// dimension, else the last.
  unsigned fastestDim() const;
  /// The lane or warp bits of `in` whose bases move along `dim` (a mask of
  /// input bits). With `pure`, false when one of them also moves along
  /// another dimension.
  uint64_t bitsAlong(In in, unsigned dim, bool *pure = nullptr) const;
  /// The lane or warp bits whose bases are zero (replication).
  uint64_t zeroBits(In in) const;

  /// The thread-id bits (lane bits, then warp bits) whose bases are zero:
  /// the threads differing only in them hold the same elements.
  uint64_t replicatedThreadBits() const {
    return zeroBits(Lane) | zeroBits(Warp) << numBits(Lane);
  }

  bool operator==(const LinearLayout &o) const {
    return shape_ == o.shape_ && bases_ == o.bases_;
  }
  bool operator!=(const LinearLayout &o) const { return !(*this == o); }

  /// The bases, one line per input: "register = [[0, 1], [0, 2]] ...".
  std::string str() const;
  /// The whole map as a table: one row per warp and lane, one column per
  /// register, each cell the element's coordinate ("r,c"); rows of lanes
  /// replicating an earlier one are marked.
  std::string table() const;

private:
  SmallVector<int64_t, 3> shape_;
  std::array<SmallVector<Coord>, kNumIns> bases_;
};

} // namespace mlir::ktc

#endif // KTC_DIALECT_LINEARLAYOUT_H
