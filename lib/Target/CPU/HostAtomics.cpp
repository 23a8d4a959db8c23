//===- HostAtomics.cpp - ktc.atomic_rmw and ktc.atomic_cas on the host ----===//
//
// Part of convert-ktc-to-host. The host runs a kernel's programs on a pool
// of threads at once, so an atomic is a real one: each element one
// llvm.atomicrmw or llvm.cmpxchg (lib/Conversion/AtomicEmit.h, the GPUs'
// own core) at its address, system scope, the op's ordering. A block is a
// loop nest over its elements in row-major order (scf.for, not a linalg
// op: the accesses must neither be fused, reordered nor dropped when the
// old values are unused), the old values inserted into the result tensor.
// Masked-off elements do nothing and are zero (undefined by the dialect).
// A checked launch (check_bounds) does not check atomics' addresses.
//
//===----------------------------------------------------------------------===//

#include "HostShapes.h"

#include "lib/Conversion/AtomicEmit.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::ktc;

namespace {

template <typename OpT>
struct HostAtomicLowering : OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;
  using Adaptor = typename OpConversionPattern<OpT>::OpAdaptor;

  /// The atomic on one element: `addr` an i64 address.
  Value element(OpBuilder &b, Location loc, OpT op, Value addr, Value cmp,
                Value val, Value mask) const {
    AtomicSpec spec;
    spec.sem = op.getSem();
    auto atomic = [&](OpBuilder &b, Location loc) -> Value {
      Value ptr = LLVM::IntToPtrOp::create(
          b, loc, LLVM::LLVMPointerType::get(b.getContext()), addr);
      if constexpr (std::is_same_v<OpT, AtomicCASOp>)
        return emitAtomicCAS(b, loc, ptr, cmp, val, spec);
      else
        return emitAtomicRMW(b, loc, op.getKind(), ptr, val, spec);
    };
    if (!mask)
      return atomic(b, loc);
    Type type = val.getType();
    return scf::IfOp::create(
               b, loc, mask,
               [&](OpBuilder &b, Location loc) {
                 scf::YieldOp::create(b, loc, atomic(b, loc));
               },
               [&](OpBuilder &b, Location loc) {
                 Value zero = arith::ConstantOp::create(
                     b, loc, cast<TypedAttr>(b.getZeroAttr(type)));
                 scf::YieldOp::create(b, loc, zero);
               })
        .getResult(0);
  }

  LogicalResult
  matchAndRewrite(OpT op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value addr = adaptor.getPtr(), val = adaptor.getVal(),
          mask = adaptor.getMask(), cmp;
    if constexpr (std::is_same_v<OpT, AtomicCASOp>)
      cmp = adaptor.getCmp();
    auto type = dyn_cast<RankedTensorType>(val.getType());
    if (!type) {
      rewriter.replaceOp(op, element(rewriter, loc, op, addr, cmp, val, mask));
      return success();
    }
    SmallVector<Value> lbs, ubs, steps;
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    for (int64_t d : type.getShape()) {
      lbs.push_back(zero);
      ubs.push_back(arith::ConstantIndexOp::create(rewriter, loc, d));
      steps.push_back(one);
    }
    // The old values go to a buffer of their own, read as the result
    // tensor after the loops: loops carrying a tensor (a buffer, once
    // bufferised) around an atomic are refused by the buffer deallocation
    // (llvm.atomicrmw declares no memory effects).
    auto bufferType = MemRefType::get(type.getShape(), type.getElementType());
    Value buffer = memref::AllocOp::create(rewriter, loc, bufferType);
    scf::buildLoopNest(
        rewriter, loc, lbs, ubs, steps,
        [&](OpBuilder &b, Location loc, ValueRange ivs) {
          auto at = [&](Value t) -> Value {
            return t ? tensor::ExtractOp::create(b, loc, t, ivs).getResult()
                     : Value();
          };
          Value old = element(b, loc, op, at(addr), at(cmp), at(val),
                              at(mask));
          memref::StoreOp::create(b, loc, old, buffer, ivs);
        });
    rewriter.replaceOp(op, bufferization::ToTensorOp::create(
                               rewriter, loc, type, buffer,
                               /*restrict=*/true, /*writable=*/true));
    return success();
  }
};

} // namespace

namespace {
/// llvm.atomicrmw and llvm.cmpxchg declare no memory effects, which the
/// buffer deallocation refuses ("ops with unknown memory side effects");
/// they read and write what their pointer points to.
template <typename OpT>
struct AtomicEffects
    : MemoryEffectOpInterface::ExternalModel<AtomicEffects<OpT>, OpT> {
  void getEffects(
      Operation *op,
      SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
          &effects) const {
    OpOperand &ptr = cast<OpT>(op).getPtrMutable();
    effects.emplace_back(MemoryEffects::Read::get(), &ptr);
    effects.emplace_back(MemoryEffects::Write::get(), &ptr);
  }
};
} // namespace

void mlir::ktc::registerHostAtomicEffects(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, LLVM::LLVMDialect *) {
    LLVM::AtomicRMWOp::attachInterface<AtomicEffects<LLVM::AtomicRMWOp>>(*ctx);
    LLVM::AtomicCmpXchgOp::attachInterface<
        AtomicEffects<LLVM::AtomicCmpXchgOp>>(*ctx);
  });
}

void mlir::ktc::populateHostAtomicPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<HostAtomicLowering<AtomicRMWOp>,
               HostAtomicLowering<AtomicCASOp>>(converter,
                                                patterns.getContext());
}
