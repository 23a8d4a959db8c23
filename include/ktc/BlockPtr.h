//===- ktc/BlockPtr.h - block pointers and tensor descriptors ---*- C++ -*-===//
//
// Triton's block pointers (tl.make_block_ptr, tl.advance, tl.load/tl.store
// with boundary_check and padding_option) and tensor descriptors
// (tl.make_tensor_descriptor, desc.load/desc.store): a tile of a strided
// tensor named by where it starts instead of by a block of pointers.
//
//   auto a = make_block_ptr(a_ptr, {M, K}, {stride_am, stride_ak},
//                           {pid_m * BM, 0}, {BM, BK}, {1, 0});
//   for_range(0, K, BK, [&](Value) {
//     acc = dot(load(a, {0, 1}), ..., acc);
//     a = advance(a, {0, BK});            // carried by the loop
//   });
//
// Both are compositions of the ops of Ops.h (lib/Builder/BlockPtr.cpp):
// the tile's pointers are base + sum_d (offset_d + arange(block_d)) *
// stride_d, in 64-bit arithmetic, and its mask says which elements lie in
// [0, shape_d) along the checked dimensions. A BlockPtr or a
// TensorDescriptor holds its parts (base, shape, strides, offsets) in
// ktc::Vars, so that loops and branches carry them like any Var.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_BLOCKPTR_H
#define KTC_BLOCKPTR_H

#include "ktc/Value.h"

#include <cstdint>
#include <memory>
#include <source_location>
#include <vector>

namespace ktc {

/// What a load gives where it reads outside the tensor (Triton's
/// padding_option): zeros (also Triton's "", which it now pads with
/// zeros), or NaNs (floats only).
enum class Padding { zero, nan };

namespace detail {
struct BlockAccess;
/// The scalars of a block pointer or a descriptor, one ktc::Var each (the
/// loops and branches carry them). Copying makes new Vars of the same
/// values; assigning sets the Vars (keeping them the ones loops carry).
class CarriedParts {
public:
  CarriedParts() = default;
  CarriedParts(const CarriedParts &other);
  CarriedParts(CarriedParts &&other) noexcept = default;
  CarriedParts &operator=(const CarriedParts &other);
  CarriedParts &operator=(CarriedParts &&other);
  ~CarriedParts();

  std::vector<std::unique_ptr<Var>> vars;
  /// Where the value was made (make_block_ptr, advance, ...): assignment
  /// errors point there.
  std::source_location made;
};
} // namespace detail

/// A pointer to a block_shape tile of a tensor of `shape` and `strides`
/// (elements), starting at `offsets` (Triton's block pointer). Loads and
/// stores through it check the bounds of the dimensions they are asked to.
/// Assigning one to another (`a = advance(a, {0, BK})`) needs the same
/// element type and block shape; inside a for_range, while_ or if_ the
/// assigned BlockPtr is carried, as a Var is.
class BlockPtr {
public:
  BlockPtr(const BlockPtr &) = default;
  BlockPtr(BlockPtr &&) noexcept = default;
  BlockPtr &operator=(const BlockPtr &other);
  BlockPtr &operator=(BlockPtr &&other) {
    return *this = static_cast<const BlockPtr &>(other);
  }

  Value base() const;
  /// The tensor's shape and strides (i64), the tile's offsets (i64).
  std::vector<Value> shape() const;
  std::vector<Value> strides() const;
  std::vector<Value> offsets() const;
  const std::vector<int64_t> &block_shape() const { return block_; }
  const std::vector<int> &order() const { return order_; }
  size_t rank() const { return block_.size(); }

private:
  BlockPtr() = default;
  friend struct detail::BlockAccess;
  detail::CarriedParts parts_; // base, shape..., strides..., offsets...
  std::vector<int64_t> block_;
  std::vector<int> order_;
};

/// Triton's tl.make_block_ptr: `base` a pointer argument or value; shape,
/// strides and offsets one integer each per dimension (scalars: values or
/// C++ integers; i32 or i64); block_shape powers of two (1 to 3
/// dimensions, a block's limits); `order` a permutation of the dimensions,
/// fastest-varying first in memory (Triton's hint; ktc finds the
/// contiguous dimension from the strides).
BlockPtr make_block_ptr(const Operand &base,
                        const std::vector<Operand> &shape,
                        const std::vector<Operand> &strides,
                        const std::vector<Operand> &offsets,
                        const std::vector<int64_t> &block_shape,
                        const std::vector<int> &order,
                        std::source_location loc =
                            std::source_location::current());
/// Triton's tl.advance: `ptr` with `offsets` (one per dimension) added to
/// its offsets.
BlockPtr advance(const BlockPtr &ptr, const std::vector<Operand> &offsets,
                 std::source_location loc = std::source_location::current());
/// The tile (a block of block_shape). Along the dimensions listed in
/// `boundary_check` the elements outside [0, shape_d) are not read and
/// are `padding`; the other dimensions are not checked (as in Triton, an
/// unchecked element outside the tensor reads whatever is there).
Value load(const BlockPtr &ptr, const std::vector<int> &boundary_check = {},
           Padding padding = Padding::zero,
           std::source_location loc = std::source_location::current());
/// Stores `value` (a block of block_shape or a scalar, converted to the
/// element type) to the tile; elements outside [0, shape_d) along the
/// dimensions of `boundary_check` are not written.
void store(const BlockPtr &ptr, const Operand &value,
           const std::vector<int> &boundary_check = {},
           std::source_location loc = std::source_location::current());

/// Triton's tl.tensor_descriptor: a tensor of `shape` and `strides` whose
/// block_shape tiles are loaded and stored at any offsets, every dimension
/// bounds-checked: a read outside the tensor gives the padding (zero or
/// NaN), a write outside it is dropped.
class TensorDescriptor {
public:
  TensorDescriptor(const TensorDescriptor &) = default;
  TensorDescriptor(TensorDescriptor &&) noexcept = default;
  TensorDescriptor &operator=(const TensorDescriptor &other);
  TensorDescriptor &operator=(TensorDescriptor &&other) {
    return *this = static_cast<const TensorDescriptor &>(other);
  }

  /// desc.load(offsets): the tile at `offsets` (one per dimension).
  Value load(const std::vector<Operand> &offsets,
             std::source_location loc = std::source_location::current()) const;
  /// desc.store(offsets, value): `value` (a block of block_shape or a
  /// scalar) to the tile at `offsets`.
  void store(const std::vector<Operand> &offsets, const Operand &value,
             std::source_location loc = std::source_location::current()) const;

  Value base() const;
  std::vector<Value> shape() const;
  std::vector<Value> strides() const;
  const std::vector<int64_t> &block_shape() const { return block_; }
  Padding padding() const { return padding_; }
  size_t rank() const { return block_.size(); }

private:
  TensorDescriptor() = default;
  friend struct detail::BlockAccess;
  detail::CarriedParts parts_; // base, shape..., strides...
  std::vector<int64_t> block_;
  Padding padding_ = Padding::zero;
};

/// Triton's tl.make_tensor_descriptor. As make_block_ptr, and as Triton
/// requires: the last stride must be 1 (an error when it is known to be
/// otherwise; a runtime one is used as it comes) and the last dimension of
/// the block must span at least 16 bytes.
TensorDescriptor
make_tensor_descriptor(const Operand &base, const std::vector<Operand> &shape,
                       const std::vector<Operand> &strides,
                       const std::vector<int64_t> &block_shape,
                       Padding padding = Padding::zero,
                       std::source_location loc =
                           std::source_location::current());
/// Triton's tl.load_tensor_descriptor and tl.store_tensor_descriptor: the
/// free-function spellings of desc.load and desc.store.
Value load_tensor_descriptor(const TensorDescriptor &desc,
                             const std::vector<Operand> &offsets,
                             std::source_location loc =
                                 std::source_location::current());
void store_tensor_descriptor(const TensorDescriptor &desc,
                             const std::vector<Operand> &offsets,
                             const Operand &value,
                             std::source_location loc =
                                 std::source_location::current());

} // namespace ktc

#endif // KTC_BLOCKPTR_H
