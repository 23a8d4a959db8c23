//===- MemoryOpToLLVM.cpp - masked, vectorised loads and stores ------------===//
//
// Each thread accesses its runs of v contiguous elements (along the last
// dimension of a 2-D block) in groups of g (the width the axis analysis
// allows: contiguous, aligned, and under one mask bit), as one LLVM vector
// load or store of g elements. A masked group is guarded by an scf.if on
// the group's mask bit; masked-off loads yield `other` (zero when there is
// none). The target's predicated access is taken instead where it has
// one (TargetInfo's maskedGlobalLoad/Store; NVPTX: `@p ld.global`): a mask
// that changes element by element gives no branch per element (issue 18:
// thousands of tiny blocks a loop on odd matmul shapes), and a masked
// vector stays packed until it is used (a branch's join made LLVM widen
// f16 vectors to f32 inside it: twice the registers). The target decides
// per type (NVPTX keeps vector branches where LLVM must see the vector
// loads: sm_100's f32x2 adds). Each access goes through the TargetInfo
// with the op's hints.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::ktc;

namespace {

int64_t byteSize(Type t) { return (t.getIntOrFloatBitWidth() + 7) / 8; }

/// The group width: the run of registers holding consecutive elements of
/// the layout's fastest dimension (LinearLayout::contiguousRegisters), at
/// most the width the axis analysis allows along it.
int64_t groupWidth(const LoweringState &state, Operation *op, Type ptrType) {
  auto tensor = dyn_cast<RankedTensorType>(ptrType);
  if (!tensor)
    return 1;
  LinearLayout layout = toLinearLayout(tensor);
  int64_t v = layout.contiguousRegisters(layout.fastestDim());
  auto it = state.vectorWidths.find(op);
  int64_t width = it == state.vectorWidths.end() ? 1 : it->second;
  return std::max<int64_t>(1, std::min(width, v));
}

struct LoadLowering : OpConversionPattern<LoadOp> {
  LoadLowering(const TypeConverter &converter, MLIRContext *ctx,
               const LoweringState &state)
      : OpConversionPattern(converter, ctx), state(state) {}

  LogicalResult
  matchAndRewrite(LoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = getElementTypeOrSelf(op.getType());
    // fp8 has no LLVM type: its bits move as i8.
    bool fp8 = isa<Float8E4M3FNType, Float8E5M2Type>(type);
    Type element = fp8 ? rewriter.getI8Type() : type;
    ValueRange ptrs = adaptor.getPtr(), masks = adaptor.getMask(),
               others = adaptor.getOther();
    SmallVector<Value> otherBits;
    if (fp8) {
      for (Value o : others)
        otherBits.push_back(arith::BitcastOp::create(rewriter, loc, element, o));
      others = otherBits;
    }
    int64_t g = groupWidth(state, op, op.getPtr().getType());
    Type groupType = g == 1 ? element : VectorType::get({g}, element);
    SmallVector<Value> values;
    for (int64_t k0 = 0; k0 < int64_t(ptrs.size()); k0 += g) {
      auto load = [&](OpBuilder &b, Location loc) -> Value {
        return state.target->globalLoad(
            b, loc, groupType, ptrs[k0], g * byteSize(element),
            op.getCacheModifier().value_or(""),
            op.getEvictionPolicy().value_or(""));
      };
      Value group, fill;
      if (!masks.empty())
        fill = others.empty() ? LLVM::ZeroOp::create(rewriter, loc, groupType)
                              : pack(rewriter, loc, others, k0, g);
      if (masks.empty()) {
        group = load(rewriter, loc);
      } else if (Value v = state.target->maskedGlobalLoad(
                     rewriter, loc, groupType, ptrs[k0], masks[k0], fill,
                     g * byteSize(element), op.getCacheModifier().value_or(""),
                     op.getEvictionPolicy().value_or(""))) {
        group = v;
      } else {
        auto ifOp = scf::IfOp::create(
            rewriter, loc, masks[k0],
            [&](OpBuilder &b, Location loc) {
              scf::YieldOp::create(b, loc, load(b, loc));
            },
            [&](OpBuilder &b, Location loc) {
              scf::YieldOp::create(b, loc, fill);
            });
        group = ifOp.getResult(0);
      }
      if (g == 1) {
        values.push_back(group);
        continue;
      }
      for (int64_t i = 0; i < g; ++i)
        values.push_back(LLVM::ExtractElementOp::create(
            rewriter, loc, group, i32Const(rewriter, loc, i)));
    }
    if (fp8)
      for (Value &v : values)
        v = arith::BitcastOp::create(rewriter, loc, type, v);
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
  const LoweringState &state;
};

struct StoreLowering : OpConversionPattern<StoreOp> {
  StoreLowering(const TypeConverter &converter, MLIRContext *ctx,
                const LoweringState &state)
      : OpConversionPattern(converter, ctx), state(state) {}

  LogicalResult
  matchAndRewrite(StoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type element = getElementTypeOrSelf(op.getValue().getType());
    ValueRange ptrs = adaptor.getPtr(), values = adaptor.getValue(),
               masks = adaptor.getMask();
    SmallVector<Value> bits; // fp8 has no LLVM type: its bits move as i8
    if (isa<Float8E4M3FNType, Float8E5M2Type>(element)) {
      element = rewriter.getI8Type();
      for (Value v : values)
        bits.push_back(arith::BitcastOp::create(rewriter, loc, element, v));
      values = bits;
    }
    int64_t g = groupWidth(state, op, op.getPtr().getType());
    // A kernel with a dot keeps a branch around each masked vector store:
    // predicated in the block of a wgmma loop's epilogue, ptxas serializes
    // the wgmmas ("non wgmma instructions reading accumulator registers",
    // C7514; 128x256x64 f16 at 4096^3 ran 13 % slower on the H200,
    // session 13). Elsewhere (a layer norm's rows) predicated stores are
    // the faster form.
    bool inDotKernel = false;
    if (auto func = op->getParentOfType<FunctionOpInterface>())
      inDotKernel = func->walk([](DotOp) { return WalkResult::interrupt(); })
                        .wasInterrupted();
    for (int64_t k0 = 0; k0 < int64_t(ptrs.size()); k0 += g) {
      Value group = pack(rewriter, loc, values, k0, g);
      auto store = [&](OpBuilder &b, Location loc) {
        state.target->globalStore(b, loc, group, ptrs[k0],
                                  g * byteSize(element),
                                  op.getCacheModifier().value_or(""),
                                  op.getEvictionPolicy().value_or(""));
      };
      if (masks.empty()) {
        store(rewriter, loc);
        continue;
      }
      if ((g == 1 || !inDotKernel) &&
          state.target->maskedGlobalStore(rewriter, loc, group, ptrs[k0],
                                          masks[k0], g * byteSize(element),
                                          op.getCacheModifier().value_or(""),
                                          op.getEvictionPolicy().value_or("")))
        continue;
      scf::IfOp::create(rewriter, loc, masks[k0],
                        [&](OpBuilder &b, Location loc) {
                          store(b, loc);
                          scf::YieldOp::create(b, loc);
                        });
    }
    rewriter.eraseOp(op);
    return success();
  }
  const LoweringState &state;
};

} // namespace

Value mlir::ktc::TargetInfo::globalLoad(OpBuilder &b, Location loc, Type type,
                                       Value ptr, int64_t alignment,
                                       StringRef, StringRef) const {
  return LLVM::LoadOp::create(b, loc, type, ptr, alignment);
}

void mlir::ktc::TargetInfo::globalStore(OpBuilder &b, Location loc,
                                        Value value, Value ptr,
                                        int64_t alignment, StringRef,
                                        StringRef) const {
  LLVM::StoreOp::create(b, loc, value, ptr, alignment);
}

void mlir::ktc::populateMemoryPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns,
                                       const LoweringState &state) {
  patterns.add<LoadLowering, StoreLowering>(converter, patterns.getContext(),
                                            state);
}
