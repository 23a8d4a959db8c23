//===- KtcTypes.h - ktc types and the predicates over them ------*- C++ -*-===//
//
// The value domain of ktc: scalars (i1, i32, i64, f16, bf16, f32, !ktc.ptr)
// and block tensors (ranked tensors of static power-of-two 1-D, 2-D or 3-D
// shape over those scalars). One definition used by ODS constraints,
// verifiers, the builder and the passes.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_DIALECT_KTCTYPES_H
#define KTC_DIALECT_KTCTYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "dialect/KtcTypes.h.inc"

#include "dialect/KtcEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialect/KtcAttrs.h.inc"

namespace mlir::ktc {

/// Largest block rank ktc supports.
constexpr int64_t kMaxBlockRank = 3;
/// The deepest software pipeline (ktc.num_stages) a kernel may ask for.
constexpr int64_t kMaxNumStages = 8;
/// The most waves (warps) a workgroup may have (ktc.num_warps).
constexpr int64_t kMaxNumWarps = 32;
/// num_warps' rule, the only statement of it: a power of two from 1 to
/// kMaxNumWarps.
constexpr bool isValidNumWarps(int64_t numWarps) {
  return numWarps >= 1 && numWarps <= kMaxNumWarps &&
         (numWarps & (numWarps - 1)) == 0;
}

/// A type a !ktc.ptr may point to: i8, i16, i32, i64, f16, bf16, f32, f64,
/// f8E4M3FN or f8E5M2 (unsigned integers are signless here: the builder
/// tracks signedness).
bool isPointeeType(Type type);
/// i1, a pointee type, or !ktc.ptr.
bool isScalarType(Type type);
/// A ranked tensor of static power-of-two shape, rank 1 to kMaxBlockRank,
/// over a scalar type.
bool isBlockType(Type type);
bool isScalarOrBlock(Type type);
/// A !ktc.ptr or a block of them.
bool isPtrLike(Type type);
/// i32 or i64, scalar or block.
bool isIntLike(Type type);
/// i1, scalar or block.
bool isBoolLike(Type type);

/// Why `type` is not a block type, for diagnostics ("" when it is one).
std::string whyNotBlock(Type type);

class LinearLayout;
/// A layout attribute: #ktc.blocked or #ktc.slice.
bool isLayout(Attribute attr);
/// The rank of the blocks `layout` spreads (0 when it is no layout).
unsigned getLayoutRank(Attribute layout);
/// The wave size and waves per workgroup a layout spreads blocks over.
unsigned getLayoutWaveSize(Attribute layout);
unsigned getLayoutNumWarps(Attribute layout);
/// A layout as its linear map over a block of `shape` (LinearLayout.h).
LinearLayout toLinearLayout(Attribute layout, ArrayRef<int64_t> shape);
/// The linear map of a block type's layout (its encoding).
LinearLayout toLinearLayout(RankedTensorType type);

/// The shape of a scalar-or-block type: {} for a scalar.
ArrayRef<int64_t> getShapeOrScalar(Type type);
/// `elementType` with the shape of `like` (a scalar when `like` is scalar),
/// keeping `like`'s encoding.
Type getSameShape(Type like, Type elementType);
/// The pointee of a ptr-like type, with that type's shape.
Type getPointeeLike(Type ptrLike);

} // namespace mlir::ktc

#endif // KTC_DIALECT_KTCTYPES_H
