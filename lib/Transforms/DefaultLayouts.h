//===- DefaultLayouts.h - a block's default #ktc.blocked layout -*- C++ -*-===//
//
// The layout ktc-assign-layouts (AssignLayouts.cpp) gives a class of
// blocks of the highest rank: runs of the widest access along the fast
// dimension, lanes along it first and then along the others (last to
// first), waves along the slowest dimensions first, so far as the shape has
// room, any rest replicating along the slowest.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_TRANSFORMS_DEFAULTLAYOUTS_H
#define KTC_LIB_TRANSFORMS_DEFAULTLAYOUTS_H

#include "dialect/KtcTypes.h"

namespace mlir::ktc {

/// The default layout of a block of `shape` whose accesses may move
/// `vector` contiguous elements along dimension `fast`, for `numWarps`
/// waves of `waveSize` lanes; `rowRun` rows a thread where its share has
/// room (rank 2, fast dimension 1); runs of at least `minRun` along the
/// fast dimension (where the shape has room) even where the block is small
/// for the threads (a row split into pairs, PairLayouts.h).
BlockedEncodingAttr defaultBlockedLayout(MLIRContext *ctx,
                                         ArrayRef<int64_t> shape,
                                         int64_t vector, unsigned fast,
                                         unsigned waveSize, unsigned numWarps,
                                         int64_t rowRun = 1,
                                         int64_t minRun = 1);

/// For storing a block of `shape` held in the NVIDIA matrix-instruction
/// layout `mma` (a dot's result: 2 consecutive elements a thread along the
/// rows) through pointers that allow `vector` contiguous elements along
/// dimension 1: a blocked layout whose threads hold `vector` consecutive
/// elements of 2 rows, 8 lanes along the rows and 4 along them, over the
/// same warp tiles as `mma` (each warp regroups its own rows: through
/// shared memory, 3 shuffles a register being more than
/// kMaxShufflesPerRegister), and the stores move `vector` elements each
/// (16 bytes of f16). Null where no such layout
/// exists (another rank or instruction family, warps along the columns,
/// a block narrower than a warp's tile, or `vector` < 4).
BlockedEncodingAttr warpLocalStoreLayout(Attribute mma,
                                         ArrayRef<int64_t> shape,
                                         int64_t vector);

} // namespace mlir::ktc

#endif // KTC_LIB_TRANSFORMS_DEFAULTLAYOUTS_H
