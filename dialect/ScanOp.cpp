//===- ScanOp.cpp - the verifier of ktc.scan -------------------------------===//
//
// A scan takes blocks of one shape and a combine region over their scalars:
// 2n arguments (an earlier group's elements, then a later one's) yielding n
// scalars with ktc.scan_return. The builder (lib/Builder/Scans.cpp) makes
// the same checks at the user's line; these catch hand-written IR.
//
//===----------------------------------------------------------------------===//

#include "dialect/KtcDialect.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::ktc;

void ScanOp::build(OpBuilder &builder, OperationState &state, ValueRange srcs,
                   int32_t axis, bool reverse) {
  state.addOperands(srcs);
  state.addAttribute(getAxisAttrName(state.name),
                     builder.getI32IntegerAttr(axis));
  if (reverse)
    state.addAttribute(getReverseAttrName(state.name), builder.getUnitAttr());
  SmallVector<Type> elements;
  for (Value v : srcs) {
    state.addTypes(v.getType());
    elements.push_back(cast<RankedTensorType>(v.getType()).getElementType());
  }
  Region *region = state.addRegion();
  Block *block = new Block();
  region->push_back(block);
  SmallVector<Location> locs(2 * srcs.size(), state.location);
  SmallVector<Type> args(elements);
  args.append(elements);
  block->addArguments(args, locs);
}

LogicalResult ScanOp::verify() {
  if (getSrcs().empty())
    return emitOpError("needs at least one operand");
  if (getResults().size() != getSrcs().size())
    return emitOpError("has ") << getResults().size() << " results for "
                               << getSrcs().size() << " operands";
  auto first = cast<RankedTensorType>(getSrcs().front().getType());
  int64_t axis = getAxis();
  if (axis < 0 || axis >= first.getRank())
    return emitOpError("axis ") << axis << " is out of range for a rank-"
                                << first.getRank() << " block";
  for (auto [i, src, result] :
       llvm::enumerate(getSrcs().getTypes(), getResults().getTypes())) {
    auto type = cast<RankedTensorType>(src);
    if (type.getShape() != first.getShape())
      return emitOpError("operands must have one shape, got ")
             << first << " and " << type;
    if (isa<PtrType>(type.getElementType()))
      return emitOpError("cannot scan a block of pointers");
    if (result != src)
      return emitOpError("result ") << i << " must have its operand's type "
                                    << src << ", got " << result;
  }
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  Block &block = getCombineBlock();
  size_t n = getSrcs().size();
  SmallVector<Type> elements;
  for (Type t : getSrcs().getTypes())
    elements.push_back(cast<RankedTensorType>(t).getElementType());
  if (block.getNumArguments() != 2 * n)
    return emitOpError("combine region must take ")
           << 2 * n << " scalars (two per operand), got "
           << block.getNumArguments();
  for (size_t i = 0; i < 2 * n; ++i)
    if (block.getArgument(i).getType() != elements[i % n])
      return emitOpError("combine region argument ")
             << i << " must be " << elements[i % n] << ", got "
             << block.getArgument(i).getType();
  auto ret = block.empty() ? ScanReturnOp() : dyn_cast<ScanReturnOp>(block.back());
  if (!ret)
    return emitOpError("combine region must end with ktc.scan_return");
  if (ret.getResults().size() != n)
    return ret.emitOpError("must return ")
           << n << " scalars (one per operand), got "
           << ret.getResults().size();
  for (size_t i = 0; i < n; ++i)
    if (ret.getResults()[i].getType() != elements[i])
      return ret.emitOpError("result ")
             << i << " must be " << elements[i] << ", got "
             << ret.getResults()[i].getType();
  return success();
}

SmallVector<Value> ScanOp::combine(OpBuilder &b, ValueRange earlier,
                                   ValueRange later) {
  Block &block = getCombineBlock();
  IRMapping map;
  size_t n = earlier.size();
  for (size_t i = 0; i < n; ++i) {
    map.map(block.getArgument(i), earlier[i]);
    map.map(block.getArgument(n + i), later[i]);
  }
  for (Operation &op : block.without_terminator())
    b.clone(op, map);
  SmallVector<Value> results;
  for (Value v : block.getTerminator()->getOperands())
    results.push_back(map.lookupOrDefault(v));
  return results;
}
