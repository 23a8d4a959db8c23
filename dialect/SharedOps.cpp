//===- SharedOps.cpp - verifiers of the shared-memory buffer ops ----------===//
//
// ktc.local_alloc, ktc.async_copy and ktc.local_load: a buffer is a ring of
// slots, each a block; copies and reads move one slot, so their blocks have
// the slot's shape and element type. ktc-pipeline-async makes these ops;
// the verifiers catch hand-written IR.
//
//===----------------------------------------------------------------------===//

#include "dialect/KtcDialect.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::ktc;

LogicalResult LocalAllocOp::verify() {
  auto type = cast<SharedBufferType>(getType());
  int64_t cols = type.getShape().back();
  int64_t pad = getPad(), vec = getVec(), maxPhase = getMaxPhase();
  if (pad < 0 || pad > 1024)
    return emitOpError("pad must be in [0, 1024], not ") << pad;
  for (auto [name, v] : {std::pair<StringRef, int64_t>{"vec", vec},
                         {"per_phase", int64_t(getPerPhase())},
                         {"max_phase", maxPhase}})
    if (v < 1 || v > 1024 || !llvm::isPowerOf2_64(v))
      return emitOpError() << name << " must be a power of two in [1, 1024], "
                           << "not " << v;
  if (maxPhase > 1 && vec * maxPhase > cols)
    return emitOpError("swizzles chunks of ")
           << vec << " elements over " << maxPhase
           << " phases, which needs rows of at least " << vec * maxPhase
           << " elements, not " << cols;
  if (maxPhase > 1 && pad)
    return emitOpError("pads or swizzles, not both");
  int64_t split = getSplit();
  if (split) {
    if (split < 0 || !llvm::isPowerOf2_64(split) || split > cols)
      return emitOpError("split must be a power of two no larger than the "
                         "rows (")
             << cols << " elements), not " << split;
    if (pad)
      return emitOpError("pads or splits its rows, not both");
    if (maxPhase > 1 && vec * maxPhase > split)
      return emitOpError("swizzles chunks of ")
             << vec << " elements over " << maxPhase
             << " phases, which needs column blocks of at least "
             << vec * maxPhase << " elements, not " << split;
  }
  return success();
}

/// A block of the buffer's slot shape and element type (`what` names it).
static LogicalResult checkSlot(Operation *op, Type buffer, Type block,
                               Type element, StringRef what) {
  auto type = cast<SharedBufferType>(buffer);
  auto tensor = cast<RankedTensorType>(block);
  if (tensor.getShape() != type.getSlotShape())
    return op->emitOpError() << what << " must have the slot's shape "
                             << type << ", got " << tensor;
  if (element != type.getElementType())
    return op->emitOpError() << what << " must have the buffer's element type "
                             << type.getElementType() << ", got " << element;
  return success();
}

LogicalResult AsyncCopyOp::verify() {
  auto ptrs = cast<RankedTensorType>(getPtr().getType());
  auto ptr = dyn_cast<PtrType>(ptrs.getElementType());
  if (!ptr)
    return emitOpError("copies through a block of pointers, got ") << ptrs;
  if (failed(checkSlot(*this, getBuffer().getType(), ptrs,
                       ptr.getPointeeType(), "the pointer block")))
    return failure();
  if (Value mask = getMask()) {
    auto m = cast<RankedTensorType>(mask.getType());
    if (!m.getElementType().isInteger(1) || m.getShape() != ptrs.getShape())
      return emitOpError("mask must be an i1 block of the pointers' shape, "
                         "got ")
             << m;
  }
  return success();
}

LogicalResult LocalLoadOp::verify() {
  auto result = cast<RankedTensorType>(getType());
  return checkSlot(*this, getBuffer().getType(), result,
                   result.getElementType(), "the result");
}
