//===- ReduceWithOp.cpp - the verifier of ktc.reduce_with ------------------===//
//
// A reduction of N blocks of one shape with a combine region of 2N scalar
// arguments returning N scalars. The builder (lib/Builder/Reductions.cpp)
// makes the same checks at the user's line; these catch hand-written IR.
//
//===----------------------------------------------------------------------===//

#include "dialect/KtcDialect.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::ktc;

Type ReduceWithOp::reducedType(RankedTensorType src, int64_t axis) {
  if (src.getRank() == 1)
    return src.getElementType();
  SmallVector<int64_t> shape(src.getShape());
  shape.erase(shape.begin() + axis);
  return RankedTensorType::get(shape, src.getElementType());
}

LogicalResult ReduceWithOp::verify() {
  if (getSrcs().empty())
    return emitOpError("needs at least one block to reduce");
  auto first = cast<RankedTensorType>(getSrcs().front().getType());
  int64_t axis = getAxis();
  if (axis < 0 || axis >= first.getRank())
    return emitOpError("axis ") << axis << " is out of range for a rank-"
                                << first.getRank() << " block";
  if (getResults().size() != getSrcs().size())
    return emitOpError("has ") << getSrcs().size() << " blocks but "
                               << getResults().size() << " results";
  for (auto [i, src, result] :
       llvm::enumerate(getSrcs(), getResults().getTypes())) {
    auto type = cast<RankedTensorType>(src.getType());
    // Layouts (encodings) may differ from the first's only where the
    // shapes agree; the layout pass gives them all one.
    if (type.getShape() != first.getShape())
      return emitOpError("reduces blocks of one shape, got ")
             << first << " and " << type;
    Type element = type.getElementType();
    if (!isa<IntegerType, FloatType>(element))
      return emitOpError("cannot reduce a block of ") << element;
    Type expected = reducedType(type, axis);
    if (getShapeOrScalar(result) != getShapeOrScalar(expected) ||
        getElementTypeOrSelf(result) != element ||
        isa<RankedTensorType>(result) != isa<RankedTensorType>(expected))
      return emitOpError("result ")
             << i << " must be " << expected << " (block " << i
             << " without axis " << axis << "), got " << result;
  }
  return success();
}

LogicalResult ReduceWithOp::verifyRegions() {
  Block &block = getCombineBlock();
  size_t n = getSrcs().size();
  SmallVector<Type> elements;
  for (Value src : getSrcs())
    elements.push_back(getElementTypeOrSelf(src.getType()));
  if (block.getNumArguments() != 2 * n)
    return emitOpError("combine region must take ")
           << 2 * n << " scalars (two partials of " << n
           << " values), got " << block.getNumArguments();
  for (auto [i, arg] : llvm::enumerate(block.getArgumentTypes()))
    if (arg != elements[i % n])
      return emitOpError("combine argument ")
             << i << " must be " << elements[i % n] << ", got " << arg;
  auto ret = dyn_cast<ReduceReturnOp>(block.getTerminator());
  if (!ret)
    return emitOpError("combine region must end with ktc.reduce_return");
  if (ret.getValues().size() != n)
    return ret.emitOpError("returns ")
           << ret.getValues().size() << " values, the reduction combines "
           << n;
  for (auto [i, v] : llvm::enumerate(ret.getValues()))
    if (v.getType() != elements[i])
      return ret.emitOpError("value ")
             << i << " must be " << elements[i] << ", got " << v.getType();
  for (Operation &op : block.without_terminator()) {
    if (op.getNumRegions() != 0)
      return op.emitOpError("cannot be in a combine region (it holds "
                            "regions)");
    for (Type t : llvm::concat<Type>(op.getOperandTypes(),
                                           op.getResultTypes()))
      if (!isa<IntegerType, FloatType, IndexType>(t))
        return op.emitOpError("in a combine region must compute on "
                              "scalars, got ")
               << t;
  }
  return success();
}
