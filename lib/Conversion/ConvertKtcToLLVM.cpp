//===- ConvertKtcToLLVM.cpp - the convert-ktc-to-llvm pass -----------------===//
//
// Stage one of the GPU lowering: blocks with layouts become per-thread
// scalars, ktc ops become scalar arith/math/scf plus LLVM/NVVM/ROCDL ops
// (target questions go to a TargetInfo). Upstream conversions finish the way
// to the LLVM dialect (see buildGpuPipeline).
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"
#include "SharedBuffers.h"

#include "dialect/KtcPasses.h"
#include "lib/Transforms/AxisInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
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

std::unique_ptr<TargetInfo> mlir::ktc::createTargetInfo(StringRef name,
                                                        std::string &error) {
  auto target = ::ktc::target::Target::parse(name);
  if (!target) {
    error = llvm::toString(target.takeError());
    return nullptr;
  }
  switch (target->kind) {
  case ::ktc::target::Target::Kind::NVPTX:
    return createNVPTXTargetInfo(*target);
  case ::ktc::target::Target::Kind::AMDGPU:
    return createAMDGPUTargetInfo(*target);
  case ::ktc::target::Target::Kind::Host:
    break;
  }
  error = "'host' is not a GPU target";
  return nullptr;
}

Value mlir::ktc::i32Const(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
}

GpuTypeConverter::GpuTypeConverter(MLIRContext *ctx) {
  addConversion([](Type t) { return t; });
  addConversion([ctx](PtrType) -> Type {
    return LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/1);
  });
  addConversion([this](RankedTensorType t, SmallVectorImpl<Type> &out)
                    -> std::optional<LogicalResult> {
    if (!isLayout(t.getEncoding()))
      return failure();
    Type element = convertType(t.getElementType());
    out.append(toLinearLayout(t).numRegisters(), element);
    return success();
  });
  // A buffer is the element index of its first slot (SharedBuffers.h).
  addConversion([ctx](SharedBufferType) -> Type {
    return IntegerType::get(ctx, 32);
  });
}

namespace {

/// Records in `constancies` the runs of equal values the axis analysis
/// proves for `op`'s result, when it is an integer or mask block computed
/// by an arith op (a comparison, the `&` of two masks, an index): e.g.
/// `cols < n` with n a multiple of 16 is one bit per 16 columns.
void recordConstancy(Operation *op, const AxisAnalysis &axis,
                     DenseMap<Operation *, SmallVector<int64_t, 3>> &out) {
  if (op->getNumResults() != 1 || !isa<arith::ArithDialect>(op->getDialect()))
    return;
  auto tensor = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!tensor || !tensor.getElementType().isSignlessInteger())
    return;
  SmallVector<int64_t, 3> runs;
  bool any = false;
  for (const AxisInfo &info : axis.getAll(op->getResult(0))) {
    runs.push_back(std::max<int64_t>(1, info.constancy));
    any |= runs.back() > 1;
  }
  if (any && runs.size() == size_t(tensor.getRank()))
    out[op] = std::move(runs);
}

struct KtcConvertToLLVMPass
    : mlir::ktc::impl::KtcConvertToLLVMBase<KtcConvertToLLVMPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    std::string error;
    std::unique_ptr<TargetInfo> target = createTargetInfo(arch, error);
    if (!target) {
      module.emitError("convert-ktc-to-llvm: ") << error;
      return signalPassFailure();
    }
    // Every block must carry a layout (ktc-assign-layouts) for the target's
    // wave size and the kernel's waves.
    WalkResult check = module.walk([&](Operation *op) {
      for (Type t : llvm::concat<Type>(op->getOperandTypes(),
                                       op->getResultTypes())) {
        auto tensor = dyn_cast<RankedTensorType>(t);
        if (!tensor)
          continue;
        Attribute layout = tensor.getEncoding();
        if (!isLayout(layout)) {
          op->emitError("block without a layout: run ktc-assign-layouts "
                        "before convert-ktc-to-llvm");
          return WalkResult::interrupt();
        }
        if (getLayoutWaveSize(layout) != target->waveSize() ||
            getLayoutNumWarps(layout) != numWarps) {
          op->emitError("the block's layout (wave ")
              << getLayoutWaveSize(layout) << ", " << getLayoutNumWarps(layout)
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

    LoweringState state;
    state.target = target.get();
    state.numWarps = numWarps;
    // Shared memory: the scratch every op that needs it reuses (each ends
    // with a barrier) -- the partials of reductions across waves and the
    // ops that move elements between threads --, then the buffers of
    // ktc.local_alloc, then the slots of the 1-D reductions
    // (planReductionSlots). `largest` is the op needing the most scratch,
    // where an error about the total points (the user's file:line).
    // The ops after a kernel's buffers are dead reuse them for their
    // scratch (BufferLifetimes).
    Operation *largest = nullptr, *largestAfter = nullptr;
    BufferLifetimes lifetimes(module);
    int64_t sharedSize =
        scratchBytes(module, *target, numWarps, &largest,
                     [&](Operation *op) { return lifetimes.after(op); });
    int64_t afterBuffers =
        scratchBytes(module, *target, numWarps, &largestAfter,
                     [&](Operation *op) { return !lifetimes.after(op); });
    module.walk([&](func::FuncOp func) {
      AxisAnalysis axis(func);
      func.walk([&](Operation *op) {
        if (isa<LoadOp, StoreOp, AsyncCopyOp>(op)) {
          // Along the dimension the pointers' layout runs registers on.
          auto ptrs = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
          state.vectorWidths[op] = axis.vectorWidth(
              op, ptrs ? int(toLinearLayout(ptrs).fastestDim()) : -1);
        }
        recordConstancy(op, axis, state.constancies);
      });
    });
    module.walk([&](LocalAllocOp alloc) {
      int64_t offset =
          llvm::alignTo(sharedSize, bufferAlignment(bufferLayout(alloc)));
      state.bufferOffsets[alloc] = offset;
      sharedSize = offset + bufferBytes(alloc);
    });
    if (afterBuffers > sharedSize) {
      sharedSize = afterBuffers;
      largest = largestAfter;
    }
    // Reductions that need not wait after reading their partials get slots
    // of their own past the shared ones.
    module.walk([&](func::FuncOp func) {
      if (func->hasAttr(KtcDialect::getKernelAttrName()))
        planReductionSlots(func, numWarps, sharedSize, state.reductionSlots);
    });
    if (failed(declareSharedMemory(module, *target, state, sharedSize,
                                   largest)))
      return signalPassFailure();

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
      func->removeAttr(KtcDialect::getNumWarpsAttrName());
      func->removeAttr(KtcDialect::getNumStagesAttrName());
      for (unsigned i = 0; i < func.getNumArguments(); ++i)
        func.removeArgAttr(i, KtcDialect::getDivisibilityAttrName());
    });

    GpuTypeConverter converter(ctx);
    ConversionTarget legality(*ctx);
    legality.addIllegalDialect<KtcDialect>();
    legality.addLegalDialect<LLVM::LLVMDialect, NVVM::NVVMDialect,
                             ROCDL::ROCDLDialect>();
    // exp and exp2 always take the target's instruction, scalars included;
    // log and log2 the target's log2 (llvm.log2 where LLVM lowers it).
    legality.addIllegalOp<math::ExpOp, math::Exp2Op, math::LogOp,
                          math::Log2Op>();
    legality.addIllegalOp<gpu::BarrierOp>(); // debug_barrier (DebugOpToLLVM)
    legality.markUnknownOpDynamicallyLegal(
        [&](Operation *op) { return converter.isLegal(op); });
    // f32 `/` and `%` take the target's division and fmod, scalars included
    // (ElementwiseOpToLLVM: DivLowering, RemLowering).
    legality.addDynamicallyLegalOp<arith::DivFOp, arith::RemFOp>(
        [&](Operation *op) {
          return converter.isLegal(op) &&
                 !getElementTypeOrSelf(op->getResult(0).getType()).isF32();
        });
    legality.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp f) {
      return converter.isSignatureLegal(f.getFunctionType()) &&
             converter.isLegal(&f.getBody());
    });

    RewritePatternSet patterns(ctx);
    populateSpmdPatterns(converter, patterns, state);
    populateElementwisePatterns(converter, patterns, state);
    populateMemoryPatterns(converter, patterns, state);
    populateReducePatterns(converter, patterns, state);
    populateLayoutPatterns(converter, patterns, state);
    populateDotPatterns(converter, patterns, state);
    populateAsyncCopyPatterns(converter, patterns, state);
    populateReduceWithPatterns(converter, patterns, state);
    populateScanPatterns(converter, patterns, state);
    populateAtomicPatterns(converter, patterns, state);
    populateDebugPatterns(converter, patterns, state);
    populateInlineAsmPatterns(converter, patterns, state);
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
    std::string error;
    std::unique_ptr<TargetInfo> target = createTargetInfo(arch, error);
    if (!target) {
      getOperation().emitError("ktc-mark-kernels: ") << error;
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
