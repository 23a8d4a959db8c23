//===- BlockTile.h - block pointers' tiles (builder-internal) -*- C++ -*-===//
//
// What make_block_ptr, advance and make_tensor_descriptor (BlockPtr.cpp)
// share: their checks, and the tile's pointers, mask, load and store
// (BlockTile.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_BUILDER_BLOCKTILE_H
#define KTC_LIB_BUILDER_BLOCKTILE_H

#include "Trace.h"

#include "ktc/BlockPtr.h"

#include <string>
#include <vector>

namespace ktc::detail {

/// Builds and reads BlockPtrs and TensorDescriptors.
struct BlockAccess {
  static BlockPtr blockPtr() { return BlockPtr(); }
  static TensorDescriptor descriptor() { return TensorDescriptor(); }
  static CarriedParts &parts(BlockPtr &p) { return p.parts_; }
  static const CarriedParts &parts(const BlockPtr &p) { return p.parts_; }
  static CarriedParts &parts(TensorDescriptor &d) { return d.parts_; }
  static const CarriedParts &parts(const TensorDescriptor &d) {
    return d.parts_;
  }
  static std::vector<int64_t> &block(BlockPtr &p) { return p.block_; }
  static std::vector<int> &order(BlockPtr &p) { return p.order_; }
  static std::vector<int64_t> &block(TensorDescriptor &d) { return d.block_; }
  static Padding &padding(TensorDescriptor &d) { return d.padding_; }
};

/// "{1, 2, 3}" for messages.
std::string shapeList(const std::vector<int64_t> &values);

/// Parts [from, from + n) of `parts`, as Values.
std::vector<Value> partsSlice(const CarriedParts &parts, size_t from, size_t n);

/// The scalar pointer a tile is based on.
mlir::Value basePointer(TraceImpl &t, const Operand &base, const char *what,
                        Loc loc);

std::vector<Value> integerParts(TraceImpl &t, const std::vector<Operand> &ops,
                                const char *what, const char *name, Loc loc);

/// Checks a tile's shape: 1 to 3 powers of two, within a block's limits.
void checkTile(TraceImpl &t, const std::vector<int64_t> &block,
               const char *what, Loc loc);

void checkCount(TraceImpl &t, size_t got, size_t rank, const char *what,
                const char *name, Loc loc);

/// `other` for a padded load of element type `element`.
Operand paddingValue(TraceImpl &t, Padding padding, mlir::Type element,
                     const char *what, Loc loc);

/// The checked dimensions of a load or store through a BlockPtr.
std::vector<int> boundaryDims(TraceImpl &t, const std::vector<int> &dims,
                              size_t rank, const char *what, Loc loc);

Value loadTile(TraceImpl &t, const Value &base, const std::vector<Value> &shape,
               const std::vector<Value> &strides,
               const std::vector<Value> &offsets,
               const std::vector<int64_t> &block,
               const std::vector<int> &checked, Padding padding,
               const char *what, Loc loc);

void storeTile(TraceImpl &t, const Value &base, const std::vector<Value> &shape,
               const std::vector<Value> &strides,
               const std::vector<Value> &offsets,
               const std::vector<int64_t> &block,
               const std::vector<int> &checked, const Operand &value,
               const char *what, Loc loc);

} // namespace ktc::detail

#endif // KTC_LIB_BUILDER_BLOCKTILE_H
