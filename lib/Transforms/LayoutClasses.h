//===- LayoutClasses.h - blocks that must share a layout --------*- C++ -*-===//
//
// ktc-assign-layouts' first step: the blocks whose layouts an op ties
// together (an elementwise op's operands and result, a load's pointers,
// mask and result, a loop's carried values, ...) form classes, and a class
// that expand_dims or a reduction takes from another is that class's slice
// along an axis.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_TRANSFORMS_LAYOUTCLASSES_H
#define KTC_LIB_TRANSFORMS_LAYOUTCLASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include <utility>

namespace mlir::ktc {

/// Blocks that must have one layout (union-find over values; values that
/// are not ranked tensors join nothing).
class LayoutClasses {
public:
  Value find(Value v) {
    auto it = parent.find(v);
    if (it == parent.end() || it->second == v)
      return v;
    return parent[v] = find(it->second);
  }
  void join(Value a, Value b) {
    if (!isa<RankedTensorType>(a.getType()) ||
        !isa<RankedTensorType>(b.getType()))
      return;
    a = find(a), b = find(b);
    if (a != b)
      parent[b] = a;
  }

private:
  DenseMap<Value, Value> parent;
};

/// A class that is the slice of another (`parent`'s) along `axis`: an
/// expand_dims' source, or a reduction's result (`fromReduce`).
struct LayoutDerivation {
  Value parent;
  unsigned axis;
  bool fromReduce;
};

/// Joins in `classes` the blocks `func`'s ops tie together (a store's value
/// is left to the caller: it may be better converted), and returns each
/// derived block with what it derives from.
SmallVector<std::pair<Value, LayoutDerivation>>
joinLayoutClasses(func::FuncOp func, LayoutClasses &classes);

} // namespace mlir::ktc

#endif // KTC_LIB_TRANSFORMS_LAYOUTCLASSES_H
