//===- AssignLayouts.cpp - the ktc-assign-layouts pass ---------------------===//
//
// See KtcAssignLayouts in KtcPasses.td. One layout per block shape: 1-D
// blocks hold `v` contiguous elements per thread, v the widest access the
// loads and stores of that shape allow (and no wider than the block spread
// over every thread); 2-D blocks spread their last dimension over the wave,
// each thread holding runs of v along it (v as for 1-D, from the axis
// analysis along the last dimension).
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
    if (!isValidNumWarps(numWarps)) {
      getOperation().emitError("ktc-assign-layouts: num-warps must be a "
                               "power of two from 1 to ")
          << kMaxNumWarps << ", got " << numWarps;
      return signalPassFailure();
    }
    getOperation().walk([&](func::FuncOp func) {
      if (!func->hasAttr(KtcDialect::getKernelAttrName()))
        return;
      assign(func);
      if (failed(checkThreadShares(func)))
        signalPassFailure();
    });
  }

  /// Registers (32-bit) a thread would need for its share of `type`.
  static int64_t registersPerThread(RankedTensorType type) {
    auto layout = cast<BlockedEncodingAttr>(type.getEncoding());
    int64_t elements = 1;
    for (unsigned d = 0; d < type.getRank(); ++d) {
      int64_t size = layout.getSizePerThread()[d];
      int64_t tile =
          size * layout.getThreadsPerWarp()[d] * layout.getWarpsPerCTA()[d];
      elements *= size * std::max<int64_t>(1, type.getDimSize(d) / tile);
    }
    Type e = type.getElementType();
    int64_t bits = isa<PtrType>(e) ? 64 : e.getIntOrFloatBitWidth();
    return elements * std::max<int64_t>(1, bits / 32);
  }

  /// Refuses kernels whose per-thread share no GPU can hold, before the
  /// lowering unrolls them into scalars and LLVM spends minutes spilling
  /// (online softmax with a 2^20 block took minutes for gfx90a): one block
  /// beyond the largest register file any target gives a thread (1024 VGPRs
  /// on gfx1250; 512 on CDNA, counting AGPRs; 255 on NVIDIA), or a kernel
  /// whose blocks add up to more scalar operations per thread than
  /// kMaxScalarOps.
  static constexpr int64_t kMaxRegisters = 1024;
  static constexpr int64_t kMaxScalarOps = 1 << 16;
  LogicalResult checkThreadShares(func::FuncOp func) {
    int64_t threads = int64_t(numWarps) * waveSize, total = 0;
    auto spread = [&] {
      return std::to_string(threads) + " threads (" +
             std::to_string(numWarps) + " waves of " +
             std::to_string(waveSize) + ")";
    };
    // The first block too large, preferring one with the user's line
    // (hoisted constants have none).
    Operation *worst = nullptr;
    RankedTensorType worstType;
    int64_t worstRegs = 0;
    func.walk([&](Operation *op) {
      total += 1;
      for (Value v : op->getResults()) {
        auto type = dyn_cast<RankedTensorType>(v.getType());
        if (!type || !isa<BlockedEncodingAttr>(type.getEncoding()))
          continue;
        int64_t regs = registersPerThread(type);
        total += regs;
        if (regs > kMaxRegisters &&
            (!worst || (isa<UnknownLoc>(worst->getLoc()) &&
                        !isa<UnknownLoc>(op->getLoc())))) {
          worst = op;
          worstType = type;
          worstRegs = regs;
        }
      }
    });
    if (worst) {
      std::string block; // printed without its layout, and unquoted
      llvm::raw_string_ostream(block) << RankedTensorType::get(
          worstType.getShape(), worstType.getElementType());
      worst->emitError()
          << "a " << block << " spread over " << spread() << " needs " << worstRegs
          << " registers per thread, more than any GPU has (" << kMaxRegisters
          << "); use a smaller block or more warps (num_warps)";
      return failure();
    }
    if (total > kMaxScalarOps) {
      func.emitError() << "kernel '" << func.getSymName() << "' is " << total
                       << " scalar operations per thread once its blocks are "
                          "spread over "
                       << spread() << ", more than ktc compiles for a GPU ("
                       << kMaxScalarOps
                       << "); use smaller blocks, more warps (num_warps), or "
                          "a for_range loop instead of repeating the body in "
                          "C++";
      return failure();
    }
    return success();
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
