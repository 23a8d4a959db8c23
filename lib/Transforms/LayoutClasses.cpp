//===- LayoutClasses.cpp - blocks that must share a layout ----------------===//
//
// See LayoutClasses.h.
//
//===----------------------------------------------------------------------===//

#include "LayoutClasses.h"

#include "dialect/KtcDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::ktc;

SmallVector<std::pair<Value, LayoutDerivation>>
mlir::ktc::joinLayoutClasses(func::FuncOp func, LayoutClasses &classes) {
  auto joinAll = [&](ValueRange values) {
    for (Value v : values.drop_front())
      classes.join(values.front(), v);
  };
  SmallVector<std::pair<Value, LayoutDerivation>> derivations;
  func.walk([&](Operation *op) {
    StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
    if ((dialect == "arith" || dialect == "math") && op->getNumResults() == 1 &&
        isa<RankedTensorType>(op->getResult(0).getType())) {
      for (Value v : op->getOperands())
        classes.join(op->getResult(0), v);
    } else if (auto p = dyn_cast<AddPtrOp>(op)) {
      joinAll({p.getResult(), p.getPtr(), p.getOffset()});
    } else if (auto load = dyn_cast<LoadOp>(op)) {
      classes.join(load.getResult(), load.getPtr());
      if (load.getMask())
        classes.join(load.getResult(), load.getMask());
      if (load.getOther())
        classes.join(load.getResult(), load.getOther());
    } else if (auto store = dyn_cast<StoreOp>(op)) {
      // The value joins below unless it is better converted.
      if (store.getMask())
        classes.join(store.getPtr(), store.getMask());
    } else if (isa<AtomicRMWOp, AtomicCASOp>(op)) {
      // Pointers, values, mask and old values: one layout (the lowering
      // does each element once, in the thread holding its first copy).
      if (isa<RankedTensorType>(op->getResult(0).getType())) {
        SmallVector<Value> all(op->getOperands());
        all.push_back(op->getResult(0));
        joinAll(all);
      }
    } else if (auto b = dyn_cast<BroadcastOp>(op)) {
      classes.join(b.getResult(), b.getSrc());
    } else if (auto d = dyn_cast<DotOp>(op)) {
      classes.join(d.getResult(), d.getAcc());
    } else if (auto e = dyn_cast<ExpandDimsOp>(op)) {
      derivations.push_back(
          {e.getSrc(), {e.getResult(), unsigned(e.getAxis()), false}});
    } else if (auto r = dyn_cast<ReduceOp>(op)) {
      if (r.getSrc().getType().getRank() >= 2)
        derivations.push_back(
            {r.getResult(), {r.getSrc(), unsigned(r.getAxis()), true}});
    } else if (auto r = dyn_cast<ReduceWithOp>(op)) {
      joinAll(r.getSrcs()); // one layout for the blocks reduced together
      for (Value v : r.getResults())
        if (isa<RankedTensorType>(v.getType()))
          derivations.push_back(
              {v, {r.getSrcs().front(), unsigned(r.getAxis()), true}});
    } else if (auto s = dyn_cast<ScanOp>(op)) {
      // A scan's results and operands share one layout.
      for (auto [src, result] : llvm::zip(s.getSrcs(), s.getResults()))
        joinAll({s.getSrcs().front(), src, result});
    } else if (isa<InlineAsmElementwiseOp>(op)) {
      // One layout for every operand and result: slot k of each is the
      // same element (lib/Conversion/InlineAsmToLLVM.cpp).
      if (isa<RankedTensorType>(op->getResult(0).getType())) {
        SmallVector<Value> all(op->getOperands());
        all.append(op->getResults().begin(), op->getResults().end());
        joinAll(all);
      }
    } else if (auto f = dyn_cast<scf::ForOp>(op)) {
      for (auto [init, arg, result] :
           llvm::zip(f.getInitArgs(), f.getRegionIterArgs(), f.getResults()))
        joinAll({init, arg, result});
      auto yield = cast<scf::YieldOp>(f.getBody()->getTerminator());
      for (auto [v, result] : llvm::zip(yield.getOperands(), f.getResults()))
        classes.join(result, v);
    } else if (auto i = dyn_cast<scf::IfOp>(op)) {
      for (Region *region : {&i.getThenRegion(), &i.getElseRegion()}) {
        if (region->empty())
          continue;
        auto yield = cast<scf::YieldOp>(region->front().getTerminator());
        for (auto [v, result] : llvm::zip(yield.getOperands(), i.getResults()))
          classes.join(result, v);
      }
    }
  });
  return derivations;
}
