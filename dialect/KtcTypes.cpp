//===- KtcTypes.cpp - ktc types and type predicates -----------------------===//

#include "dialect/KtcDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::ktc;

#define GET_TYPEDEF_CLASSES
#include "dialect/KtcTypes.cpp.inc"

#include "dialect/KtcEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialect/KtcAttrs.cpp.inc"

void KtcDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialect/KtcTypes.cpp.inc"
      >();
}

void KtcDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialect/KtcAttrs.cpp.inc"
      >();
}

LogicalResult PtrType::verify(function_ref<InFlightDiagnostic()> emitError,
                              Type pointeeType) {
  if (!isPointeeType(pointeeType))
    return emitError() << "!ktc.ptr must point to i32, i64, f16, bf16 or f32, "
                          "not "
                       << pointeeType;
  return success();
}

bool mlir::ktc::isPointeeType(Type type) {
  return type.isInteger(32) || type.isInteger(64) || type.isF16() ||
         type.isBF16() || type.isF32();
}

bool mlir::ktc::isScalarType(Type type) {
  return type.isInteger(1) || isPointeeType(type) || isa<PtrType>(type);
}

std::string mlir::ktc::whyNotBlock(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return "not a ranked tensor";
  if (!isScalarType(tensor.getElementType()))
    return "element type is not i1, i32, i64, f16, bf16, f32 or !ktc.ptr";
  if (tensor.getRank() < 1 || tensor.getRank() > kMaxBlockRank)
    return "rank must be 1 or 2";
  for (int64_t dim : tensor.getShape())
    if (ShapedType::isDynamic(dim) || dim <= 0 || !llvm::isPowerOf2_64(dim))
      return "every dimension must be a static power of two";
  return "";
}

bool mlir::ktc::isBlockType(Type type) { return whyNotBlock(type).empty(); }

bool mlir::ktc::isScalarOrBlock(Type type) {
  return isScalarType(type) || isBlockType(type);
}

static bool isScalarOrBlockOf(Type type, function_ref<bool(Type)> pred) {
  if (isScalarType(type))
    return pred(type);
  return isBlockType(type) &&
         pred(cast<RankedTensorType>(type).getElementType());
}

bool mlir::ktc::isPtrLike(Type type) {
  return isScalarOrBlockOf(type, [](Type t) { return isa<PtrType>(t); });
}

bool mlir::ktc::isIntLike(Type type) {
  return isScalarOrBlockOf(
      type, [](Type t) { return t.isInteger(32) || t.isInteger(64); });
}

bool mlir::ktc::isBoolLike(Type type) {
  return isScalarOrBlockOf(type, [](Type t) { return t.isInteger(1); });
}

ArrayRef<int64_t> mlir::ktc::getShapeOrScalar(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return {};
}

Type mlir::ktc::getSameShape(Type like, Type elementType) {
  if (auto tensor = dyn_cast<RankedTensorType>(like))
    return RankedTensorType::get(tensor.getShape(), elementType,
                                 tensor.getEncoding());
  return elementType;
}

Type mlir::ktc::getPointeeLike(Type ptrLike) {
  auto ptr = cast<PtrType>(getElementTypeOrSelf(ptrLike));
  return getSameShape(ptrLike, ptr.getPointeeType());
}
