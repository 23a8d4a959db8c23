//===- KtcDialect.cpp - the ktc dialect ------------------------------------===//

#include "dialect/KtcDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::ktc;

#include "dialect/KtcDialect.cpp.inc"

namespace {
/// Prints layouts as `#blocked`, `#blocked1`, ... aliases.
struct KtcOpAsmInterface : OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedEncodingAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void KtcDialect::initialize() {
  registerTypes();
  registerAttributes();
  addInterfaces<KtcOpAsmInterface>();
  addOperations<
#define GET_OP_LIST
#include "dialect/KtcOps.cpp.inc"
      >();
}

Operation *KtcDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  if (auto typed = dyn_cast<TypedAttr>(value);
      typed && arith::ConstantOp::isBuildableWith(typed, type))
    return arith::ConstantOp::create(builder, loc, type, typed);
  return nullptr;
}

/// Kernel arguments are scalars: pointers, integers, floats, booleans.
static LogicalResult verifyKernel(FunctionOpInterface func) {
  if (func.getNumResults() != 0)
    return func.emitOpError("is a ktc.kernel and must not return values");
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
    if (!isScalarType(type))
      return func.emitOpError("is a ktc.kernel; argument #")
             << i << " has type " << type
             << ", but kernel arguments must be i1, i8, i16, i32, i64, f16, "
                "bf16, f32, f64, f8E4M3FN, f8E5M2 or !ktc.ptr";
  return success();
}

static LogicalResult verifyConstexprs(Operation *op, Attribute attr) {
  auto dict = dyn_cast<DictionaryAttr>(attr);
  if (!dict)
    return op->emitOpError("attribute 'ktc.constexpr' must be a dictionary "
                           "of name = value");
  for (NamedAttribute entry : dict)
    if (!isa<IntegerAttr, FloatAttr, BoolAttr>(entry.getValue()))
      return op->emitOpError("constexpr '")
             << entry.getName().getValue()
             << "' must be an integer, float or boolean, not "
             << entry.getValue();
  return success();
}

LogicalResult KtcDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == getKernelAttrName() || name == getConstexprAttrName()) {
    auto func = dyn_cast<FunctionOpInterface>(op);
    if (!func)
      return op->emitError("'") << name << "' may only be set on a function";
    if (name == getConstexprAttrName())
      return verifyConstexprs(op, attr.getValue());
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitOpError("attribute 'ktc.kernel' must be a unit attribute");
    return verifyKernel(func);
  }
  if (name == getNumWarpsAttrName()) {
    if (!isa<FunctionOpInterface>(op) || !op->hasAttr(getKernelAttrName()))
      return op->emitError("'ktc.num_warps' may only be set on a kernel");
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!value || !value.getType().isInteger(32) ||
        value.getValue().getSExtValue() < 1 ||
        value.getValue().getSExtValue() > 32 ||
        !llvm::isPowerOf2_64(value.getValue().getSExtValue()))
      return op->emitError("'ktc.num_warps' must be an i32 power of two "
                           "from 1 to 32, got ")
             << attr.getValue();
    return success();
  }
  if (name == getNumStagesAttrName()) {
    if (!isa<FunctionOpInterface>(op) || !op->hasAttr(getKernelAttrName()))
      return op->emitError("'ktc.num_stages' may only be set on a kernel");
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!value || !value.getType().isInteger(32) ||
        value.getValue().getSExtValue() < 1 ||
        value.getValue().getSExtValue() > kMaxNumStages)
      return op->emitError("'ktc.num_stages' must be an i32 from 1 to ")
             << kMaxNumStages << ", got " << attr.getValue();
    return success();
  }
  if (name == getCheckBoundsAttrName()) {
    if (!isa<FunctionOpInterface>(op) || !op->hasAttr(getKernelAttrName()))
      return op->emitError("'ktc.check_bounds' may only be set on a kernel");
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError("'ktc.check_bounds' must be a unit attribute");
    return success();
  }
  if (name == "ktc.dot_pending") { // ktc-pipeline-async, wgmma dots
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!isa<DotOp>(op) || !value || !value.getType().isInteger(32) ||
        value.getValue().getSExtValue() < 0)
      return op->emitError("'ktc.dot_pending' must be an i32 >= 0 on a "
                           "ktc.dot");
    return success();
  }
  if (name == getMultipleOfAttrName() || name == getMaxContiguousAttrName() ||
      name == "ktc.max_constancy") { // tl.max_constancy (lib/Builder/Hints)
    // Hints (Triton's tl.multiple_of, tl.max_contiguous) on a value.
    auto values = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
    Type type = op->getNumResults() == 1 ? op->getResult(0).getType() : Type();
    Type element = type ? getElementTypeOrSelf(type) : Type();
    if (!element || !(isa<PtrType>(element) || element.isInteger(32) ||
                      element.isInteger(64)))
      return op->emitError("'")
             << name << "' needs an op with one i32, i64 or pointer result";
    auto shaped = dyn_cast<RankedTensorType>(type);
    size_t rank = shaped ? std::max<int64_t>(1, shaped.getRank()) : 1;
    if (!values || values.size() != int64_t(rank) ||
        llvm::any_of(values.asArrayRef(), [](int64_t v) {
          return v <= 0 || !llvm::isPowerOf2_64(v);
        }))
      return op->emitError("'")
             << name << "' must be " << rank
             << " positive power(s) of two (array<i64>), one per dimension";
    return success();
  }
  return op->emitError("unknown ktc attribute '") << name << "'";
}

LogicalResult KtcDialect::verifyRegionArgAttribute(Operation *op,
                                                   unsigned regionIndex,
                                                   unsigned argIndex,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name != getDivisibilityAttrName())
    return op->emitError("unknown ktc argument attribute '") << name << "'";
  auto value = dyn_cast<IntegerAttr>(attr.getValue());
  if (!value || value.getValue().getSExtValue() <= 0 ||
      !llvm::isPowerOf2_64(value.getValue().getSExtValue()))
    return op->emitError("'ktc.divisibility' of argument #")
           << argIndex << " must be a positive power-of-two integer";
  Type argType = op->getRegion(regionIndex).getArgument(argIndex).getType();
  if (!isa<PtrType>(argType) && !argType.isInteger(32) &&
      !argType.isInteger(64))
    return op->emitError("'ktc.divisibility' of argument #")
           << argIndex << " needs a pointer or an i32/i64 argument, not "
           << argType;
  return success();
}
