//===- LayoutOpToLLVM.cpp - expand_dims, broadcast, convert_layout ---------===//
//
// Ops that may move elements between threads: each result register needs
// one source element; the layouts' linear maps say which, and whether the
// thread already holds it (convertLayout, LayoutConversion.cpp).
//
// Also the kernel's shared memory itself: its declaration (static, or
// dynamic past the target's static limit), the check against the target's
// limit, and the element addresses every op here and in ReduceOpToLLVM uses.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"
#include "SharedBuffers.h"
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
  // wgmma's swizzled tiles (scratch or buffers) start at multiples of 1024
  // bytes of the kernel's shared memory: its start must be one too.
  bool wgmma = module.walk([](DotOp dot) {
                       return wgmmaOf(dot) ? WalkResult::interrupt()
                                           : WalkResult::advance();
                     }).wasInterrupted();
  LLVM::GlobalOp::create(b, module.getLoc(), type, /*isConstant=*/false,
                         dynamic ? LLVM::Linkage::External
                                 : LLVM::Linkage::Internal,
                         state.sharedMemory, Attribute(),
                         /*alignment=*/wgmma ? 1024 : 16,
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

namespace {

/// expand_dims, broadcast, convert_layout, trans and reshape: each result
/// register needs
/// one source element, found by the layouts' maps (LayoutConversion.cpp);
/// free when the layouts agree (a slice and its parent, a broadcast keeping
/// its layout), through shared memory otherwise.
template <typename Op>
struct Relayout : OpConversionPattern<Op> {
  Relayout(const TypeConverter &converter, MLIRContext *ctx,
           const LoweringState &state)
      : OpConversionPattern<Op>(converter, ctx), state(state) {}

  LogicalResult
  matchAndRewrite(Op op, typename OpConversionPattern<Op>::OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> values =
        convertLayout(rewriter, op.getLoc(), state, relayoutSource(op),
                      relayoutNeeds(op), adaptor.getSrc());
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }

  const LoweringState &state;
};

} // namespace

void mlir::ktc::populateLayoutPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns,
                                       const LoweringState &state) {
  patterns.add<Relayout<ExpandDimsOp>, Relayout<BroadcastOp>,
               Relayout<ConvertLayoutOp>, Relayout<TransOp>,
               Relayout<ReshapeOp>>(converter, patterns.getContext(), state);
}
