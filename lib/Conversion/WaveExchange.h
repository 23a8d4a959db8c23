//===- WaveExchange.h - partials of a reduction across waves ----*- C++ -*-===//
//
// Which threads write a reduction's partials to shared memory and where,
// read off the block's layout: shared by ktc.reduce (ReduceOpToLLVM.cpp)
// and ktc.reduce_with (ReduceWithOpToLLVM.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_CONVERSION_WAVEEXCHANGE_H
#define KTC_LIB_CONVERSION_WAVEEXCHANGE_H

#include "Lowering.h"

namespace mlir::ktc {

/// A reduction along `axis` within the thread: the register bits whose
/// bases move along the axis (`along`: combined) and the others (`rest`:
/// numbering the result's registers).
struct RegisterSplit {
  SmallVector<unsigned> along, rest;
  /// Fails, with the error at `op`, where a register basis moves along the
  /// axis and another dimension at once.
  static FailureOr<RegisterSplit> of(Operation *op, const LinearLayout &layout,
                                     unsigned axis) {
    RegisterSplit split;
    for (auto [i, basis] :
         llvm::enumerate(layout.bases(LinearLayout::Register))) {
      bool moves = basis[axis] != 0;
      for (unsigned d = 0; d < basis.size(); ++d)
        if (d != axis && basis[d] && moves)
          return op->emitOpError("cannot reduce a layout whose registers "
                                 "move along the axis and another dimension "
                                 "at once");
      (moves ? split.along : split.rest).push_back(i);
    }
    return split;
  }
  /// The register holding element `j` along the axis of result register
  /// `out`.
  int64_t source(int64_t out, int64_t j) const {
    return deposit(out, rest) | deposit(j, along);
  }

private:
  static int64_t deposit(int64_t bits, ArrayRef<unsigned> at) {
    int64_t r = 0;
    for (auto [k, i] : llvm::enumerate(at))
      if (bits >> k & 1)
        r |= int64_t(1) << i;
    return r;
  }
};

/// How a reduction along `axis` exchanges partials across the waves whose
/// bases move along it. After the lanes are combined, the threads differing
/// only in lane bits along the axis, or in bits whose bases are zero, hold
/// the same partials: one of them writes them (`writers`), at a place
/// numbered by the other bits (`place`); `group` numbers the waves along
/// the axis.
struct WaveExchange {
  uint64_t group = 0;   // warp bits along the axis
  uint64_t place = 0;   // thread-id bits (lanes, then warps) a slot keeps
  uint64_t replica = 0; // thread-id bits of threads holding a copy
  int64_t groups = 1, places = 1;

  WaveExchange(const LinearLayout &layout, unsigned axis) {
    unsigned laneBits = layout.numBits(LinearLayout::Lane);
    group = layout.bitsAlong(LinearLayout::Warp, axis);
    auto keep = [&](LinearLayout::In in, unsigned i) {
      ArrayRef<int32_t> basis = layout.bases(in)[i];
      return basis[axis] == 0 &&
             llvm::any_of(basis, [](int32_t v) { return v != 0; });
    };
    for (unsigned i = 0; i < laneBits; ++i)
      if (keep(LinearLayout::Lane, i))
        place |= uint64_t(1) << i;
    for (unsigned i = 0; i < layout.numBits(LinearLayout::Warp); ++i)
      if (keep(LinearLayout::Warp, i))
        place |= uint64_t(1) << (laneBits + i);
    uint64_t all = (uint64_t(1) << (laneBits + layout.numBits(LinearLayout::Warp))) - 1;
    replica = all & ~place & ~(group << laneBits);
    groups = int64_t(1) << llvm::popcount(group);
    places = int64_t(1) << llvm::popcount(place);
  }
  /// Registers a round: at most 16 KiB of shared memory a round.
  int64_t chunk(int64_t registers, Type type) const {
    int64_t perRegister = groups * places * sharedBytes(type);
    return std::clamp<int64_t>(16384 / perRegister, 1, registers);
  }
};

} // namespace mlir::ktc

#endif // KTC_LIB_CONVERSION_WAVEEXCHANGE_H
