//===- LayoutOpToLLVM.cpp - expand_dims and broadcast -----------------------===//
//
// Ops that move elements between threads (the source and result layouts
// spread elements differently) go through shared memory: every thread writes
// the elements it holds at their row-major index, a barrier, every thread
// reads the elements its result slots need, a barrier (so the memory can be
// reused). Correct for any pair of layouts; the fast paths that avoid the
// round trip (slice layouts) are future work.
//
// Also the kernel's shared memory itself: its declaration (static, or
// dynamic past the target's static limit), the check against the target's
// limit, and the element addresses every op here and in ReduceOpToLLVM uses.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"
#include "SharedMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::ktc;

LogicalResult mlir::ktc::declareSharedMemory(ModuleOp module,
                                             const TargetInfo &target,
                                             const LoweringState &state,
                                             int64_t bytes,
                                             Operation *largest) {
  if (bytes == 0)
    return success();
  int64_t limit = target.maxSharedBytes();
  if (bytes > limit) {
    // Name the kernel: the function holding the op, else the first one.
    auto func = largest ? largest->getParentOfType<func::FuncOp>() : nullptr;
    if (!func)
      module.walk([&](func::FuncOp f) {
        if (!func)
          func = f;
      });
    InFlightDiagnostic error =
        largest ? largest->emitError() : module.emitError();
    error << "kernel '" << (func ? func.getName() : "?") << "' needs "
          << bytes << " bytes of shared memory to move blocks between "
          << "threads; " << target.arch() << " allows " << limit
          << " per workgroup: use smaller blocks";
    return error;
  }
  OpBuilder b(module.getBodyRegion());
  bool dynamic = bytes > target.maxStaticSharedBytes();
  // Dynamic: an external array of no size (PTX `.extern .shared`), and the
  // size for the launch as a line of the PTX.
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), dynamic ? 0 : bytes);
  LLVM::GlobalOp::create(b, module.getLoc(), type, /*isConstant=*/false,
                         dynamic ? LLVM::Linkage::External
                                 : LLVM::Linkage::Internal,
                         state.sharedMemory, Attribute(), /*alignment=*/16,
                         target.sharedAddressSpace());
  if (dynamic) {
    std::string line =
        std::string(::ktc::kDynamicSharedMarker) + std::to_string(bytes);
    module->setAttr(LLVM::LLVMDialect::getModuleLevelAsmAttrName(),
                    b.getStrArrayAttr({line}));
  }
  return success();
}

int64_t mlir::ktc::sharedBytes(Type type) {
  if (isa<PtrType, LLVM::LLVMPointerType>(type))
    return 8;
  return std::max<int64_t>(1, (type.getIntOrFloatBitWidth() + 7) / 8);
}

Value mlir::ktc::sharedElement(OpBuilder &b, Location loc,
                               const LoweringState &state, Type type,
                               Value index) {
  auto ptrType = LLVM::LLVMPointerType::get(
      b.getContext(), state.target->sharedAddressSpace());
  Value base = LLVM::AddressOfOp::create(b, loc, ptrType, state.sharedMemory);
  return LLVM::GEPOp::create(b, loc, ptrType, type, base, ValueRange{index});
}

/// The row-major linear index of `indices` in `shape`.
static Value linear(OpBuilder &b, Location loc, ArrayRef<Value> indices,
                    ArrayRef<int64_t> shape) {
  Value i = indices[0];
  for (size_t d = 1; d < indices.size(); ++d)
    i = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, i, i32Const(b, loc, shape[d])),
        indices[d]);
  return i;
}

void mlir::ktc::storeBlockToShared(OpBuilder &b, Location loc,
                                   const LoweringState &state,
                                   const Spread &spread, ValueRange values) {
  Value tid = state.target->threadId(b, loc);
  for (int64_t k = 0; k < spread.slots(); ++k) {
    Value index = linear(b, loc, spread.indices(b, loc, tid, k), spread.shape);
    LLVM::StoreOp::create(
        b, loc, values[k],
        sharedElement(b, loc, state, values[k].getType(), index));
  }
  state.target->barrier(b, loc);
}

namespace {

/// Moves a block between layouts: result slot (i0, i1) reads source element
/// `sourceIndex(i0, i1)` (row-major in the source shape).
template <typename Op>
struct Redistribute : OpConversionPattern<Op> {
  Redistribute(const TypeConverter &converter, MLIRContext *ctx,
               const LoweringState &state)
      : OpConversionPattern<Op>(converter, ctx), state(state) {}

  LogicalResult
  matchAndRewrite(Op op, typename OpConversionPattern<Op>::OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    Spread src = Spread::of(srcType), dst = Spread::of(dstType);
    ValueRange values = adaptor.getSrc();
    Type element = values[0].getType();
    storeBlockToShared(rewriter, loc, state, src, values);
    Value tid = state.target->threadId(rewriter, loc);
    SmallVector<Value> results;
    for (int64_t k = 0; k < dst.slots(); ++k) {
      SmallVector<Value, 2> at = dst.indices(rewriter, loc, tid, k);
      Value index = sourceIndex(rewriter, loc, op, at, srcType);
      results.push_back(LLVM::LoadOp::create(
          rewriter, loc, element,
          sharedElement(rewriter, loc, state, element, index)));
    }
    state.target->barrier(rewriter, loc);
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }

  /// expand_dims: the result's non-unit coordinate is the source index.
  static Value sourceIndex(OpBuilder &, Location, ExpandDimsOp op,
                           ArrayRef<Value> at, RankedTensorType) {
    return op.getAxis() == 0 ? at[1] : at[0];
  }
  /// broadcast: a stretched dimension reads coordinate 0 of the source.
  static Value sourceIndex(OpBuilder &b, Location loc, BroadcastOp,
                           ArrayRef<Value> at, RankedTensorType src) {
    SmallVector<Value, 2> coords;
    for (size_t d = 0; d < at.size(); ++d)
      coords.push_back(src.getDimSize(d) == 1 ? i32Const(b, loc, 0) : at[d]);
    return linear(b, loc, coords, src.getShape());
  }

  const LoweringState &state;
};

} // namespace

void mlir::ktc::populateLayoutPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns,
                                       const LoweringState &state) {
  patterns.add<Redistribute<ExpandDimsOp>, Redistribute<BroadcastOp>>(
      converter, patterns.getContext(), state);
}
