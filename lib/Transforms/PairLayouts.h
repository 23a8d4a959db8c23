//===- PairLayouts.h - layouts that keep join/split pairs in a thread -*- C++ -*-===//
//
// join(a, b) makes a block whose new last dimension (of size 2) holds the
// pair; split reduces it away; interleave reshapes the pairs into a row
// twice as long (JoinSplit.cpp). Each is free in registers only where every
// thread holds whole pairs: the last dimension of size 2 in the thread
// (sizePerThread 2 there) and fastest in the order. Then the join's
// expand_dims and broadcasts are register copies, its select folds, the
// split's reduction stays in the thread, and a reshape between [..., n, 2]
// and [..., 2n] (interleave; split of a loaded row) renames registers only
// when the row's layout holds even runs along its last dimension.
//
// ktc-assign-layouts (AssignLayouts.cpp) calls these for the classes it
// finds joined into or split from along a last dimension of size 2.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_TRANSFORMS_PAIRLAYOUTS_H
#define KTC_LIB_TRANSFORMS_PAIRLAYOUTS_H

#include "dialect/KtcTypes.h"

namespace mlir::ktc {

/// Whether a block of `shape` expanded into, or reduced along, `axis` holds
/// pairs there: its last dimension, of size 2, in a block of rank 2 or 3.
bool isPairAxis(ArrayRef<int64_t> shape, unsigned axis);

/// Whether `pairs` is [..., n, 2] and `row` the same block as [..., 2n]
/// (the two sides of interleave's reshape, or of a split's).
bool isPairRow(ArrayRef<int64_t> pairs, ArrayRef<int64_t> row);

/// The layout of [..., n, 2] that is `lead`'s (a layout of [..., n]) with
/// each pair in one thread, its dimension the fastest.
BlockedEncodingAttr appendPairDim(BlockedEncodingAttr lead);

/// The layout of [..., n, 2] holding, in each thread's registers, what
/// `row` (a layout of [..., 2n]) holds: the row's runs along its last
/// dimension halved, the pair dimension fastest. Null where `row` does not
/// hold even runs along its last dimension, that dimension the fastest.
BlockedEncodingAttr splitRowIntoPairs(BlockedEncodingAttr row);

} // namespace mlir::ktc

#endif // KTC_LIB_TRANSFORMS_PAIRLAYOUTS_H
