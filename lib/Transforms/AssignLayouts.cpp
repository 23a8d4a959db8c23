//===- AssignLayouts.cpp - the ktc-assign-layouts pass ---------------------===//
//
// See KtcAssignLayouts in KtcPasses.td. One layout per block shape: 1-D
// blocks hold `v` contiguous elements per thread, v the widest access the
// loads and stores of that shape allow (and no wider than the block spread
// over every thread); 2-D blocks spread their last dimension over the wave.
//
//===----------------------------------------------------------------------===//

#include "AxisInfo.h"

#include "dialect/KtcPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <map>

namespace mlir::ktc {
#define GEN_PASS_DEF_KTCASSIGNLAYOUTS
#include "dialect/KtcPasses.h.inc"
} // namespace mlir::ktc

using namespace mlir;
using namespace mlir::ktc;

namespace {

struct KtcAssignLayoutsPass
    : mlir::ktc::impl::KtcAssignLayoutsBase<KtcAssignLayoutsPass> {
  using Base::Base;

  BlockedEncodingAttr layoutFor(ArrayRef<int64_t> shape, int64_t vector) {
    MLIRContext *ctx = &getContext();
    unsigned w = waveSize, nw = numWarps;
    if (shape.size() == 1) {
      int64_t perThread = std::max<int64_t>(1, shape[0] / (int64_t(w) * nw));
      unsigned v = std::max<int64_t>(1, std::min(vector, perThread));
      return BlockedEncodingAttr::get(ctx, {v}, {w}, {nw}, {0});
    }
    // 2-D: the last dimension is fastest; lanes go along it first.
    int64_t cols = shape[1];
    unsigned v = std::max<int64_t>(1, std::min<int64_t>(vector, cols));
    unsigned lanesAlong = std::min<int64_t>(w, std::max<int64_t>(1, cols / v));
    return BlockedEncodingAttr::get(ctx, {1, v}, {w / lanesAlong, lanesAlong},
                                    {nw, 1}, {1, 0});
  }

  void runOnOperation() override {
    if (waveSize != 32 && waveSize != 64) {
      getOperation().emitError("ktc-assign-layouts: wave-size must be 32 or "
                               "64, got ")
          << waveSize;
      return signalPassFailure();
    }
    if (numWarps == 0 || !llvm::isPowerOf2_32(numWarps)) {
      getOperation().emitError("ktc-assign-layouts: num-warps must be a "
                               "power of two, got ")
          << numWarps;
      return signalPassFailure();
    }
    getOperation().walk([&](func::FuncOp func) {
      if (func->hasAttr(KtcDialect::getKernelAttrName()))
        assign(func);
    });
  }

  void assign(func::FuncOp func) {
    AxisAnalysis axis(func);
    // The widest access of each shape.
    std::map<SmallVector<int64_t>, int64_t> widths;
    func.walk([&](Operation *op) {
      if (!isa<LoadOp, StoreOp>(op))
        return;
      auto type = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
      if (!type)
        return;
      SmallVector<int64_t> shape(type.getShape());
      int64_t &w = widths[shape];
      w = std::max(w, axis.vectorWidth(op));
    });
    auto encode = [&](Type t) -> Type {
      auto tensor = dyn_cast<RankedTensorType>(t);
      if (!tensor)
        return t;
      SmallVector<int64_t> shape(tensor.getShape());
      auto it = widths.find(shape);
      int64_t width = it == widths.end() ? 1 : it->second;
      return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                                   layoutFor(tensor.getShape(), width));
    };
    func.walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            arg.setType(encode(arg.getType()));
      for (OpResult result : op->getResults())
        result.setType(encode(result.getType()));
      // Constants keep their value in the new type.
      if (auto c = dyn_cast<arith::ConstantOp>(op))
        if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue()))
          if (dense.getType() != c.getType())
            c.setValueAttr(dense.reshape(cast<ShapedType>(c.getType())));
    });
  }
};

} // namespace
