//===- KtcOps.cpp - ktc operations: builders, verifiers, syntax -----------===//

#include "dialect/KtcDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::ktc;

//===----------------------------------------------------------------------===//
// Custom directives (declared before the generated code that calls them)
//===----------------------------------------------------------------------===//

/// The reduction kind as a bare keyword: `sum`, `max` or `min`.
static ParseResult parseReduceKind(OpAsmParser &parser, ReduceKindAttr &kind) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<ReduceKind> value = symbolizeReduceKind(keyword);
  if (!value)
    return parser.emitError(loc, "expected reduction kind sum, max or min, "
                                 "got '")
           << keyword << "'";
  kind = ReduceKindAttr::get(parser.getContext(), *value);
  return success();
}

static void printReduceKind(OpAsmPrinter &printer, Operation *,
                            ReduceKindAttr kind) {
  printer << stringifyReduceKind(kind.getValue());
}

#define GET_OP_CLASSES
#include "dialect/KtcOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Prints a shape as "scalar" or "128x64", for diagnostics.
static std::string shapeString(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return "scalar";
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleave(tensor.getShape(), os, "x");
  return s;
}

static bool sameShape(Type a, Type b) {
  return isa<RankedTensorType>(a) == isa<RankedTensorType>(b) &&
         getShapeOrScalar(a) == getShapeOrScalar(b);
}

//===----------------------------------------------------------------------===//
// program_id, num_programs
//===----------------------------------------------------------------------===//

static LogicalResult verifyGridAxis(Operation *op, int32_t axis) {
  if (axis < 0 || axis > 2)
    return op->emitOpError("axis must be 0, 1 or 2, got ") << axis;
  return success();
}

LogicalResult ProgramIdOp::verify() { return verifyGridAxis(*this, getAxis()); }
LogicalResult NumProgramsOp::verify() {
  return verifyGridAxis(*this, getAxis());
}

//===----------------------------------------------------------------------===//
// arange
//===----------------------------------------------------------------------===//

void ArangeOp::build(OpBuilder &builder, OperationState &state, int32_t start,
                     int32_t end) {
  int64_t length = static_cast<int64_t>(end) - start;
  auto type = RankedTensorType::get({std::max<int64_t>(length, 1)},
                                    builder.getI32Type());
  build(builder, state, type, start, end);
}

LogicalResult ArangeOp::verify() {
  int64_t start = getStart(), end = getEnd();
  if (end <= start)
    return emitOpError("end (") << end << ") must be greater than start ("
                                << start << ")";
  int64_t length = end - start;
  if (!llvm::isPowerOf2_64(length))
    return emitOpError("length end - start = ")
           << length << " must be a power of two";
  auto type = getType();
  if (type.getRank() != 1 || type.getDimSize(0) != length)
    return emitOpError("result must be tensor<")
           << length << "xi32> for the range [" << start << ", " << end
           << "), got " << type;
  return success();
}

//===----------------------------------------------------------------------===//
// splat, expand_dims, broadcast
//===----------------------------------------------------------------------===//

LogicalResult SplatOp::verify() {
  Type elementType = getType().getElementType();
  if (elementType != getSrc().getType())
    return emitOpError("result element type ")
           << elementType << " must equal the operand type "
           << getSrc().getType();
  return success();
}

void ExpandDimsOp::build(OpBuilder &builder, OperationState &state, Value src,
                         int32_t axis) {
  auto srcType = cast<RankedTensorType>(src.getType());
  SmallVector<int64_t> shape(srcType.getShape());
  int64_t at = std::clamp<int64_t>(axis, 0, shape.size());
  shape.insert(shape.begin() + at, 1);
  auto type = RankedTensorType::get(shape, srcType.getElementType());
  build(builder, state, type, src, axis);
}

LogicalResult ExpandDimsOp::verify() {
  RankedTensorType srcType = getSrc().getType(), type = getType();
  int64_t axis = getAxis();
  if (axis < 0 || axis > srcType.getRank())
    return emitOpError("axis ") << axis << " is out of range [0, "
                                << srcType.getRank() << "]";
  SmallVector<int64_t> expected(srcType.getShape());
  expected.insert(expected.begin() + axis, 1);
  if (type.getShape() != ArrayRef<int64_t>(expected) || // layouts may differ
      type.getElementType() != srcType.getElementType())
    return emitOpError("result must be ")
           << RankedTensorType::get(expected, srcType.getElementType())
           << " (a unit dimension inserted at axis " << axis << "), got "
           << type;
  return success();
}

LogicalResult BroadcastOp::verify() {
  RankedTensorType srcType = getSrc().getType(), type = getType();
  if (srcType.getElementType() != type.getElementType())
    return emitOpError("element types differ: ")
           << srcType.getElementType() << " vs " << type.getElementType();
  if (srcType.getRank() != type.getRank())
    return emitOpError("source rank ")
           << srcType.getRank() << " must equal result rank "
           << type.getRank() << "; use ktc.expand_dims to add a dimension";
  for (int64_t i = 0; i < type.getRank(); ++i) {
    int64_t from = srcType.getDimSize(i), to = type.getDimSize(i);
    if (from != 1 && from != to)
      return emitOpError("cannot broadcast dimension ")
             << i << " of size " << from << " to " << to
             << " (only size-1 dimensions stretch)";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// trans, reshape
//===----------------------------------------------------------------------===//

/// Whether `perm` is a permutation of 0 .. rank - 1.
static bool isPermutation(ArrayRef<int32_t> perm, int64_t rank) {
  if (static_cast<int64_t>(perm.size()) != rank)
    return false;
  SmallVector<bool> seen(rank, false);
  for (int32_t p : perm) {
    if (p < 0 || p >= rank || seen[p])
      return false;
    seen[p] = true;
  }
  return true;
}

/// `shape` permuted: dimension i of the result is shape[perm[i]].
static SmallVector<int64_t> permuted(ArrayRef<int64_t> shape,
                                     ArrayRef<int32_t> perm) {
  SmallVector<int64_t> out;
  for (int32_t p : perm)
    out.push_back(shape[p]);
  return out;
}

void TransOp::build(OpBuilder &builder, OperationState &state, Value src,
                    ArrayRef<int32_t> perm) {
  auto srcType = cast<RankedTensorType>(src.getType());
  // A bad permutation keeps the source's type; the verifier says why.
  SmallVector<int64_t> shape(srcType.getShape());
  if (isPermutation(perm, srcType.getRank()))
    shape = permuted(srcType.getShape(), perm);
  auto type = RankedTensorType::get(shape, srcType.getElementType());
  build(builder, state, type, src, perm);
}

LogicalResult TransOp::verify() {
  RankedTensorType srcType = getSrc().getType(), type = getType();
  ArrayRef<int32_t> perm = getPerm();
  int64_t rank = srcType.getRank();
  if (!isPermutation(perm, rank)) {
    auto diag = emitOpError("perm [");
    llvm::interleaveComma(perm, diag);
    return diag << "] is not a permutation of the " << rank
                << " dimensions of the source (each of 0 .. " << rank - 1
                << " once)";
  }
  SmallVector<int64_t> expected = permuted(srcType.getShape(), perm);
  if (type.getShape() != ArrayRef<int64_t>(expected) || // layouts may differ
      type.getElementType() != srcType.getElementType())
    return emitOpError("result must be ")
           << RankedTensorType::get(expected, srcType.getElementType())
           << " (the source's dimensions in the order of perm), got " << type;
  return success();
}

/// log2 of a block's element count (its dimensions are powers of two, so
/// this never overflows where the count itself could).
static int64_t log2Elements(RankedTensorType type) {
  int64_t bits = 0;
  for (int64_t d : type.getShape())
    bits += llvm::Log2_64(d);
  return bits;
}

LogicalResult ReshapeOp::verify() {
  RankedTensorType srcType = getSrc().getType(), type = getType();
  if (srcType.getElementType() != type.getElementType())
    return emitOpError("element types differ: ")
           << srcType.getElementType() << " vs " << type.getElementType();
  if (log2Elements(srcType) != log2Elements(type))
    return emitOpError("cannot reshape ")
           << shapeString(srcType) << " to " << shapeString(type)
           << ": the element counts 2^" << log2Elements(srcType) << " and 2^"
           << log2Elements(type) << " differ";
  return success();
}

//===----------------------------------------------------------------------===//
// addptr
//===----------------------------------------------------------------------===//

LogicalResult AddPtrOp::verify() {
  Type ptrType = getPtr().getType(), offsetType = getOffset().getType();
  if (!sameShape(ptrType, offsetType)) {
    auto diag = emitOpError("pointer shape (")
                << shapeString(ptrType) << ") and offset shape ("
                << shapeString(offsetType) << ") must agree";
    if (!isa<RankedTensorType>(ptrType))
      diag << "; splat the pointer first";
    return diag;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// load
//===----------------------------------------------------------------------===//

void LoadOp::build(OpBuilder &builder, OperationState &state, Value ptr,
                   Value mask, Value other) {
  build(builder, state, getPointeeLike(ptr.getType()), ptr, mask, other,
        /*cache_modifier=*/StringAttr(), /*eviction_policy=*/StringAttr());
}

/// Checks a memory op's mask against its pointers.
static LogicalResult verifyMask(Operation *op, Type ptrType, Value mask) {
  if (mask && !sameShape(ptrType, mask.getType()))
    return op->emitOpError("mask shape (")
           << shapeString(mask.getType()) << ") must match the pointer shape ("
           << shapeString(ptrType) << ")";
  return success();
}

/// Triton's cache modifiers and eviction policies: one or the other (PTX's
/// ld/st take a cache operator or an eviction priority, not both).
static LogicalResult verifyCacheHints(Operation *op,
                                      std::optional<StringRef> cache,
                                      std::optional<StringRef> evict,
                                      ArrayRef<StringRef> modifiers) {
  if (cache && !llvm::is_contained(modifiers, *cache)) {
    auto diag = op->emitOpError("unknown cache_modifier '") << *cache
                                                            << "' (expected ";
    llvm::interleave(modifiers, diag, ", ");
    return diag << ")";
  }
  if (evict && *evict != "evict_first" && *evict != "evict_last")
    return op->emitOpError("unknown eviction_policy '")
           << *evict << "' (expected evict_first or evict_last)";
  if (cache && evict)
    return op->emitOpError("takes a cache_modifier or an eviction_policy, "
                           "not both");
  return success();
}

LogicalResult LoadOp::verify() {
  if (failed(verifyCacheHints(*this, getCacheModifier(), getEvictionPolicy(),
                              {".ca", ".cg", ".cv"})))
    return failure();
  Type ptrType = getPtr().getType();
  Type expected = getPointeeLike(ptrType);
  if (getType() != expected)
    return emitOpError("result type must be ")
           << expected << " (the pointee type in the pointer shape), got "
           << getType();
  if (failed(verifyMask(*this, ptrType, getMask())))
    return failure();
  if (getOther()) {
    if (!getMask())
      return emitOpError("'other' needs a mask: it is the value of the "
                         "masked-off elements");
    if (getOther().getType() != expected)
      return emitOpError("'other' must have the result type ")
             << expected << ", got " << getOther().getType();
  }
  return success();
}

// ktc.load %ptr [, mask %m [, other %o]] attr-dict : ptr-type
ParseResult LoadOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand ptr, mask, other;
  bool hasMask = false, hasOther = false;
  if (parser.parseOperand(ptr))
    return failure();
  while (succeeded(parser.parseOptionalComma())) {
    StringRef keyword;
    llvm::SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword))
      return failure();
    if (keyword == "mask" && !hasMask && !hasOther) {
      hasMask = true;
      if (parser.parseOperand(mask))
        return failure();
    } else if (keyword == "other" && !hasOther) {
      hasOther = true;
      if (parser.parseOperand(other))
        return failure();
    } else {
      return parser.emitError(loc, "expected 'mask' then 'other', got '")
             << keyword << "'";
    }
  }
  Type ptrType;
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon())
    return failure();
  llvm::SMLoc typeLoc = parser.getCurrentLocation();
  if (parser.parseType(ptrType))
    return failure();
  if (!isPtrLike(ptrType))
    return parser.emitError(typeLoc, "expected !ktc.ptr or a block of "
                                     "!ktc.ptr, got ")
           << ptrType;
  Type resultType = getPointeeLike(ptrType);
  Type maskType = getSameShape(ptrType, parser.getBuilder().getI1Type());
  if (parser.resolveOperand(ptr, ptrType, result.operands) ||
      (hasMask && parser.resolveOperand(mask, maskType, result.operands)) ||
      (hasOther && parser.resolveOperand(other, resultType, result.operands)))
    return failure();
  result.getOrAddProperties<Properties>().operandSegmentSizes = {
      1, hasMask ? 1 : 0, hasOther ? 1 : 0};
  result.addTypes(resultType);
  return success();
}

void LoadOp::print(OpAsmPrinter &p) {
  p << ' ' << getPtr();
  if (getMask())
    p << ", mask " << getMask();
  if (getOther())
    p << ", other " << getOther();
  p.printOptionalAttrDict((*this)->getAttrs(),
                          /*elidedAttrs=*/{"operandSegmentSizes"});
  p << " : " << getPtr().getType();
}

//===----------------------------------------------------------------------===//
// store
//===----------------------------------------------------------------------===//

LogicalResult StoreOp::verify() {
  if (failed(verifyCacheHints(*this, getCacheModifier(), getEvictionPolicy(),
                              {".wb", ".cg", ".cs", ".wt"})))
    return failure();
  Type ptrType = getPtr().getType();
  Type expected = getPointeeLike(ptrType);
  if (getValue().getType() != expected)
    return emitOpError("stored value must have type ")
           << expected << " (the pointee type in the pointer shape), got "
           << getValue().getType();
  return verifyMask(*this, ptrType, getMask());
}

// ktc.store %ptr, %value [, mask %m] attr-dict : ptr-type
ParseResult StoreOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand ptr, value, mask;
  bool hasMask = false;
  if (parser.parseOperand(ptr) || parser.parseComma() ||
      parser.parseOperand(value))
    return failure();
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("mask") || parser.parseOperand(mask))
      return failure();
    hasMask = true;
  }
  Type ptrType;
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon())
    return failure();
  llvm::SMLoc typeLoc = parser.getCurrentLocation();
  if (parser.parseType(ptrType))
    return failure();
  if (!isPtrLike(ptrType))
    return parser.emitError(typeLoc, "expected !ktc.ptr or a block of "
                                     "!ktc.ptr, got ")
           << ptrType;
  Type maskType = getSameShape(ptrType, parser.getBuilder().getI1Type());
  if (parser.resolveOperand(ptr, ptrType, result.operands) ||
      parser.resolveOperand(value, getPointeeLike(ptrType),
                            result.operands) ||
      (hasMask && parser.resolveOperand(mask, maskType, result.operands)))
    return failure();
  return success();
}

void StoreOp::print(OpAsmPrinter &p) {
  p << ' ' << getPtr() << ", " << getValue();
  if (getMask())
    p << ", mask " << getMask();
  p.printOptionalAttrDict((*this)->getAttrs());
  p << " : " << getPtr().getType();
}

//===----------------------------------------------------------------------===//
// reduce
//===----------------------------------------------------------------------===//

/// The type of reducing `src` along `axis`: the shape without that axis, or
/// the element type for a 1-D block.
static Type reducedType(RankedTensorType src, int64_t axis) {
  if (src.getRank() == 1)
    return src.getElementType();
  SmallVector<int64_t> shape(src.getShape());
  shape.erase(shape.begin() + axis);
  return RankedTensorType::get(shape, src.getElementType());
}

void ReduceOp::build(OpBuilder &builder, OperationState &state,
                     ReduceKind kind, Value src, int32_t axis) {
  auto srcType = cast<RankedTensorType>(src.getType());
  int64_t at = std::clamp<int64_t>(axis, 0, srcType.getRank() - 1);
  build(builder, state, reducedType(srcType, at), kind, src, axis);
}

LogicalResult ReduceOp::verify() {
  RankedTensorType srcType = getSrc().getType();
  int64_t axis = getAxis();
  if (axis < 0 || axis >= srcType.getRank())
    return emitOpError("axis ") << axis << " is out of range for a rank-"
                                << srcType.getRank() << " block";
  Type element = srcType.getElementType();
  if (isa<PtrType>(element))
    return emitOpError("cannot reduce a block of pointers");
  if (element.isInteger(1) && getKind() == ReduceKind::Sum)
    return emitOpError("cannot sum a block of i1; extend it to i32 first");
  // Layouts (encodings) may differ: compare shapes and element types.
  Type expected = reducedType(srcType, axis);
  if (getShapeOrScalar(getType()) != getShapeOrScalar(expected) ||
      getElementTypeOrSelf(getType()) != getElementTypeOrSelf(expected) ||
      isa<RankedTensorType>(getType()) != isa<RankedTensorType>(expected))
    return emitOpError("result type must be ")
           << expected << " (the input without axis " << axis << "), got "
           << getType();
  return success();
}
