//===- AtomicOps.cpp - ktc.atomic_rmw and ktc.atomic_cas ------------------===//
//
// Verifiers and syntax of the atomics (their ODS is at the end of
// KtcOps.td). Both print one type, the pointers'; the value, compare,
// mask and result types follow from it, as for ktc.load and ktc.store.
// `sem` and `scope` are keywords after the operands, printed only when
// they are not the defaults (acq_rel, gpu).
//
//===----------------------------------------------------------------------===//

#include "dialect/KtcDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::ktc;

namespace {

std::string shapeOf(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return "scalar";
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleave(tensor.getShape(), os, "x");
  return s;
}

/// Checks one operand (value or compare) against the pointee type in the
/// pointers' shape, and the mask's shape.
LogicalResult verifyOperands(Operation *op, Type ptrType, ValueRange values,
                             ArrayRef<StringRef> names, Value mask) {
  Type expected = getPointeeLike(ptrType);
  for (auto [v, name] : llvm::zip(values, names))
    if (v.getType() != expected)
      return op->emitOpError() << name << " must have type " << expected
                               << " (the pointee type in the pointer shape), "
                                  "got "
                               << v.getType();
  if (op->getResult(0).getType() != expected)
    return op->emitOpError("result type must be ")
           << expected << ", got " << op->getResult(0).getType();
  if (mask && (isa<RankedTensorType>(mask.getType()) !=
                   isa<RankedTensorType>(ptrType) ||
               getShapeOrScalar(mask.getType()) != getShapeOrScalar(ptrType)))
    return op->emitOpError("mask shape (")
           << shapeOf(mask.getType()) << ") must match the pointer shape ("
           << shapeOf(ptrType) << ")";
  return success();
}

/// `[, mask %m] [sem = s] [scope = s] attr-dict : ptr-type`, after the
/// operands. Resolves the mask and fills the sem and scope attributes.
template <typename Props>
ParseResult parseTail(OpAsmParser &parser, OperationState &result,
                      Props &props, Type &ptrType, bool &hasMask,
                      OpAsmParser::UnresolvedOperand &mask) {
  MLIRContext *ctx = parser.getContext();
  hasMask = false;
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("mask") || parser.parseOperand(mask))
      return failure();
    hasMask = true;
  }
  if (succeeded(parser.parseOptionalKeyword("sem"))) {
    llvm::SMLoc loc = parser.getCurrentLocation();
    StringRef word;
    if (parser.parseEqual() || parser.parseKeyword(&word))
      return failure();
    std::optional<MemSem> sem = symbolizeMemSem(word);
    if (!sem)
      return parser.emitError(loc, "expected sem relaxed, acquire, release "
                                   "or acq_rel, got '")
             << word << "'";
    props.sem = MemSemAttr::get(ctx, *sem);
  }
  if (succeeded(parser.parseOptionalKeyword("scope"))) {
    llvm::SMLoc loc = parser.getCurrentLocation();
    StringRef word;
    if (parser.parseEqual() || parser.parseKeyword(&word))
      return failure();
    std::optional<MemScope> scope = symbolizeMemScope(word);
    if (!scope)
      return parser.emitError(loc, "expected scope gpu, cta or sys, got '")
             << word << "'";
    props.scope = MemScopeAttr::get(ctx, *scope);
  }
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon())
    return failure();
  llvm::SMLoc typeLoc = parser.getCurrentLocation();
  if (parser.parseType(ptrType))
    return failure();
  if (!isPtrLike(ptrType))
    return parser.emitError(typeLoc, "expected !ktc.ptr or a block of "
                                     "!ktc.ptr, got ")
           << ptrType;
  return success();
}

void printTail(OpAsmPrinter &p, Operation *op, Value mask, MemSem sem,
               MemScope scope, Type ptrType) {
  if (mask)
    p << ", mask " << mask;
  if (sem != MemSem::AcqRel)
    p << " sem = " << stringifyMemSem(sem);
  if (scope != MemScope::Gpu)
    p << " scope = " << stringifyMemScope(scope);
  p.printOptionalAttrDict(op->getAttrs(),
                          {"kind", "sem", "scope", "operandSegmentSizes"});
  p << " : " << ptrType;
}

} // namespace

//===----------------------------------------------------------------------===//
// atomic_rmw
//===----------------------------------------------------------------------===//

LogicalResult AtomicRMWOp::verify() {
  Type ptrType = getPtr().getType();
  if (failed(verifyOperands(*this, ptrType, getVal(), {"value"}, getMask())))
    return failure();
  Type element = getElementTypeOrSelf(getVal().getType());
  bool isInt = element.isInteger(32) || element.isInteger(64);
  bool ok = false;
  switch (getKind()) {
  case AtomicKind::Add:
  case AtomicKind::Max:
  case AtomicKind::Min:
  case AtomicKind::Xchg:
    ok = isInt || element.isF32();
    break;
  case AtomicKind::And:
  case AtomicKind::Or:
  case AtomicKind::Xor:
  case AtomicKind::UMax:
  case AtomicKind::UMin:
    ok = isInt;
    break;
  }
  if (!ok)
    return emitOpError("atomic ")
           << stringifyAtomicKind(getKind()) << " does not take " << element
           << " elements (add, max, min, xchg: i32, i64, f32; and, or, xor, "
              "umax, umin: i32, i64)";
  return success();
}

// ktc.atomic_rmw kind %ptr, %val [, mask %m] [sem = s] [scope = s] : type
ParseResult AtomicRMWOp::parse(OpAsmParser &parser, OperationState &result) {
  Properties &props = result.getOrAddProperties<Properties>();
  llvm::SMLoc kindLoc = parser.getCurrentLocation();
  StringRef word;
  if (parser.parseKeyword(&word))
    return failure();
  std::optional<AtomicKind> kind = symbolizeAtomicKind(word);
  if (!kind)
    return parser.emitError(kindLoc, "expected atomic kind add, max, min, "
                                     "umax, umin, xchg, and, or or xor, "
                                     "got '")
           << word << "'";
  props.kind = AtomicKindAttr::get(parser.getContext(), *kind);
  OpAsmParser::UnresolvedOperand ptr, val, mask;
  bool hasMask;
  Type ptrType;
  if (parser.parseOperand(ptr) || parser.parseComma() ||
      parser.parseOperand(val) ||
      parseTail(parser, result, props, ptrType, hasMask, mask))
    return failure();
  Type element = getPointeeLike(ptrType);
  Type maskType = getSameShape(ptrType, parser.getBuilder().getI1Type());
  if (parser.resolveOperand(ptr, ptrType, result.operands) ||
      parser.resolveOperand(val, element, result.operands) ||
      (hasMask && parser.resolveOperand(mask, maskType, result.operands)))
    return failure();
  result.addTypes(element);
  return success();
}

void AtomicRMWOp::print(OpAsmPrinter &p) {
  p << ' ' << stringifyAtomicKind(getKind()) << ' ' << getPtr() << ", "
    << getVal();
  printTail(p, *this, getMask(), getSem(), getScope(), getPtr().getType());
}

//===----------------------------------------------------------------------===//
// atomic_cas
//===----------------------------------------------------------------------===//

LogicalResult AtomicCASOp::verify() {
  Type ptrType = getPtr().getType();
  if (failed(verifyOperands(*this, ptrType, {getCmp(), getVal()},
                            {"compare value", "value"}, getMask())))
    return failure();
  Type element = getElementTypeOrSelf(getVal().getType());
  if (!element.isInteger(32) && !element.isInteger(64) && !element.isF32())
    return emitOpError("atomic cas does not take ")
           << element << " elements (i32, i64, f32)";
  return success();
}

// ktc.atomic_cas %ptr, %cmp, %val [, mask %m] [sem = s] [scope = s] : type
ParseResult AtomicCASOp::parse(OpAsmParser &parser, OperationState &result) {
  Properties &props = result.getOrAddProperties<Properties>();
  OpAsmParser::UnresolvedOperand ptr, cmp, val, mask;
  bool hasMask;
  Type ptrType;
  if (parser.parseOperand(ptr) || parser.parseComma() ||
      parser.parseOperand(cmp) || parser.parseComma() ||
      parser.parseOperand(val) ||
      parseTail(parser, result, props, ptrType, hasMask, mask))
    return failure();
  Type element = getPointeeLike(ptrType);
  Type maskType = getSameShape(ptrType, parser.getBuilder().getI1Type());
  if (parser.resolveOperand(ptr, ptrType, result.operands) ||
      parser.resolveOperand(cmp, element, result.operands) ||
      parser.resolveOperand(val, element, result.operands) ||
      (hasMask && parser.resolveOperand(mask, maskType, result.operands)))
    return failure();
  result.addTypes(element);
  return success();
}

void AtomicCASOp::print(OpAsmPrinter &p) {
  p << ' ' << getPtr() << ", " << getCmp() << ", " << getVal();
  printTail(p, *this, getMask(), getSem(), getScope(), getPtr().getType());
}
