//===- ConvertKtcToLLVM.cpp - the convert-ktc-to-llvm pass -----------------===//
//
// Stage one of the GPU lowering: blocks with layouts become per-thread
// scalars, ktc ops become scalar arith/math/scf plus LLVM/NVVM/ROCDL ops
// (target questions go to a TargetInfo). Upstream conversions finish the way
// to the LLVM dialect (see buildGpuPipeline).
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "dialect/KtcPasses.h"
#include "lib/Transforms/AxisInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir::ktc {
#define GEN_PASS_DEF_KTCCONVERTTOLLVM
#define GEN_PASS_DEF_KTCMARKKERNELS
#include "dialect/KtcPasses.h.inc"
} // namespace mlir::ktc

/// Carries a kernel's threads per workgroup from convert-ktc-to-llvm to
/// ktc-mark-kernels (target attributes only fit on llvm.func).
static constexpr llvm::StringLiteral kKernelThreadsAttr = "ktc_kernel_threads";

using namespace mlir;
using namespace mlir::ktc;

TargetInfo::~TargetInfo() = default;

std::unique_ptr<TargetInfo> mlir::ktc::createTargetInfo(StringRef arch) {
  if (arch.starts_with("sm_"))
    return createNVPTXTargetInfo(arch);
  if (arch.starts_with("gfx"))
    return createAMDGPUTargetInfo(arch);
  return nullptr;
}

Value mlir::ktc::i32Const(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
}

Spread Spread::of(RankedTensorType type) {
  auto layout = cast<BlockedEncodingAttr>(type.getEncoding());
  Spread s;
  s.n = type.getDimSize(0);
  s.v = layout.getSizePerThread()[0];
  s.tile = s.v * layout.getWaveSize() * layout.getNumWarps();
  s.reps = std::max<int64_t>(1, s.n / s.tile);
  return s;
}

Value Spread::index(OpBuilder &b, Location loc, Value tid, int64_t k) const {
  int64_t r = k / v, j = k % v;
  Value i = arith::MulIOp::create(b, loc, tid, i32Const(b, loc, v));
  i = arith::AddIOp::create(b, loc, i, i32Const(b, loc, r * tile + j));
  if (replicated())
    i = arith::AndIOp::create(b, loc, i, i32Const(b, loc, n - 1));
  return i;
}

GpuTypeConverter::GpuTypeConverter(MLIRContext *ctx) {
  addConversion([](Type t) { return t; });
  addConversion([ctx](PtrType) -> Type {
    return LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/1);
  });
  addConversion([this](RankedTensorType t, SmallVectorImpl<Type> &out)
                    -> std::optional<LogicalResult> {
    auto layout = dyn_cast_or_null<BlockedEncodingAttr>(t.getEncoding());
    if (!layout || t.getRank() != 1)
      return failure();
    Type element = convertType(t.getElementType());
    out.append(Spread::of(t).slots(), element);
    return success();
  });
}

namespace {

struct KtcConvertToLLVMPass
    : mlir::ktc::impl::KtcConvertToLLVMBase<KtcConvertToLLVMPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    std::unique_ptr<TargetInfo> target = createTargetInfo(arch);
    if (!target) {
      module.emitError("convert-ktc-to-llvm: unknown target '")
          << arch << "' (expected sm_<N> or gfx<N>)";
      return signalPassFailure();
    }
    // What the lowering supports today: 1-D blocks, with layouts.
    WalkResult check = module.walk([&](Operation *op) {
      for (Type t : llvm::concat<Type>(op->getOperandTypes(),
                                       op->getResultTypes())) {
        auto tensor = dyn_cast<RankedTensorType>(t);
        if (!tensor)
          continue;
        if (tensor.getRank() != 1) {
          op->emitError("2-D blocks are not supported by the GPU lowering "
                        "yet");
          return WalkResult::interrupt();
        }
        auto layout = dyn_cast_or_null<BlockedEncodingAttr>(tensor.getEncoding());
        if (!layout) {
          op->emitError("block without a layout: run ktc-assign-layouts "
                        "before convert-ktc-to-llvm");
          return WalkResult::interrupt();
        }
        if (layout.getWaveSize() != target->waveSize() ||
            layout.getNumWarps() != numWarps) {
          op->emitError("the block's layout (wave ")
              << layout.getWaveSize() << ", " << layout.getNumWarps()
              << " warps) does not match the target (wave "
              << target->waveSize() << ", " << unsigned(numWarps)
              << " warps)";
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (check.wasInterrupted())
      return signalPassFailure();

    LoweringState state{target.get(), numWarps, {}, "ktc_smem"};
    bool needsShared = false;
    module.walk([&](func::FuncOp func) {
      AxisAnalysis axis(func);
      func.walk([&](Operation *op) {
        if (isa<LoadOp, StoreOp>(op))
          state.vectorWidths[op] = axis.vectorWidth(op);
        if (isa<ReduceOp>(op))
          needsShared = true;
      });
    });
    if (needsShared && numWarps > 1) {
      // One 8-byte slot per wave, reused by every reduction.
      OpBuilder b(module.getBodyRegion());
      auto type = LLVM::LLVMArrayType::get(b.getI8Type(), 8 * numWarps);
      LLVM::GlobalOp::create(b, module.getLoc(), type, /*isConstant=*/false,
                             LLVM::Linkage::Internal, state.sharedMemory,
                             Attribute(), /*alignment=*/16,
                             target->sharedAddressSpace());
    }

    // Kernels: mark for the target, drop the ktc attributes (the LLVM
    // function has no ktc pointers any more).
    unsigned numThreads = numWarps * target->waveSize();
    module.walk([&](func::FuncOp func) {
      if (!func->hasAttr(KtcDialect::getKernelAttrName()))
        return;
      func->setAttr(kKernelThreadsAttr,
                    OpBuilder(ctx).getI32IntegerAttr(numThreads));
      func->removeAttr(KtcDialect::getKernelAttrName());
      func->removeAttr(KtcDialect::getConstexprAttrName());
      for (unsigned i = 0; i < func.getNumArguments(); ++i)
        func.removeArgAttr(i, KtcDialect::getDivisibilityAttrName());
    });

    GpuTypeConverter converter(ctx);
    ConversionTarget legality(*ctx);
    legality.addIllegalDialect<KtcDialect>();
    legality.addLegalDialect<LLVM::LLVMDialect, NVVM::NVVMDialect,
                             ROCDL::ROCDLDialect>();
    // exp and exp2 always take the target's instruction, scalars included.
    legality.addIllegalOp<math::ExpOp, math::Exp2Op>();
    legality.markUnknownOpDynamicallyLegal(
        [&](Operation *op) { return converter.isLegal(op); });
    legality.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp f) {
      return converter.isSignatureLegal(f.getFunctionType()) &&
             converter.isLegal(&f.getBody());
    });

    RewritePatternSet patterns(ctx);
    populateSpmdPatterns(converter, patterns, state);
    populateElementwisePatterns(converter, patterns, state);
    populateMemoryPatterns(converter, patterns, state);
    populateReducePatterns(converter, patterns, state);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         legality);
    if (failed(applyPartialConversion(module, legality, std::move(patterns))))
      signalPassFailure();
  }
};

struct KtcMarkKernelsPass
    : mlir::ktc::impl::KtcMarkKernelsBase<KtcMarkKernelsPass> {
  using Base::Base;
  void runOnOperation() override {
    std::unique_ptr<TargetInfo> target = createTargetInfo(arch);
    if (!target) {
      getOperation().emitError("ktc-mark-kernels: unknown target '")
          << arch << "'";
      return signalPassFailure();
    }
    getOperation().walk([&](LLVM::LLVMFuncOp func) {
      auto threads = func->getAttrOfType<IntegerAttr>(kKernelThreadsAttr);
      if (!threads)
        return;
      func->removeAttr(kKernelThreadsAttr);
      target->markKernel(func, threads.getInt());
    });
  }
};

} // namespace
