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

Spread Spread::of(RankedTensorType type) {
  auto layout = cast<BlockedEncodingAttr>(type.getEncoding());
  Spread s;
  s.rank = type.getRank();
  s.waveSize = layout.getWaveSize();
  for (unsigned d = 0; d < s.rank; ++d) {
    s.shape.push_back(type.getDimSize(d));
    s.size.push_back(layout.getSizePerThread()[d]);
    s.threads.push_back(layout.getThreadsPerWarp()[d]);
    s.warps.push_back(layout.getWarpsPerCTA()[d]);
    s.tile.push_back(s.size[d] * s.threads[d] * s.warps[d]);
    s.reps.push_back(std::max<int64_t>(1, s.shape[d] / s.tile[d]));
    s.order.push_back(layout.getOrder()[d]);
  }
  s.n = s.shape[0];
  s.v = s.size[0];
  s.tileSize = s.tile[0];
  s.repeats = s.reps[0];
  return s;
}

int64_t Spread::slots() const {
  int64_t n = 1;
  for (unsigned d = 0; d < rank; ++d)
    n *= slotsAlong(d);
  return n;
}

SmallVector<Value, 2> Spread::indices(OpBuilder &b, Location loc, Value tid,
                                      int64_t k) const {
  if (rank == 1) { // warp * waveSize + lane is the thread id itself
    int64_t r = k / v, j = k % v;
    Value i = arith::MulIOp::create(b, loc, tid, i32Const(b, loc, v));
    i = arith::AddIOp::create(b, loc, i, i32Const(b, loc, r * tileSize + j));
    if (replicated())
      i = arith::AndIOp::create(b, loc, i, i32Const(b, loc, n - 1));
    return {i};
  }
  Value lane = arith::AndIOp::create(b, loc, tid, i32Const(b, loc, waveSize - 1));
  Value warp = arith::ShRUIOp::create(b, loc, tid,
                                      i32Const(b, loc, llvm::Log2_32(waveSize)));
  // Lane and warp coordinates, the fastest dimension first.
  SmallVector<Value, 2> laneCoord(rank), warpCoord(rank);
  {
    unsigned fast = order[0], slow = order[1];
    laneCoord[fast] = arith::RemUIOp::create(b, loc, lane,
                                             i32Const(b, loc, threads[fast]));
    laneCoord[slow] = arith::DivUIOp::create(b, loc, lane,
                                             i32Const(b, loc, threads[fast]));
    warpCoord[fast] = arith::RemUIOp::create(b, loc, warp,
                                             i32Const(b, loc, warps[fast]));
    warpCoord[slow] = arith::DivUIOp::create(b, loc, warp,
                                             i32Const(b, loc, warps[fast]));
  }
  SmallVector<int64_t, 2> kd(rank);
  int64_t rest = k;
  for (int d = rank - 1; d >= 0; --d) {
    kd[d] = rest % slotsAlong(d);
    rest /= slotsAlong(d);
  }
  SmallVector<Value, 2> out;
  for (unsigned d = 0; d < rank; ++d) {
    int64_t r = kd[d] / size[d], j = kd[d] % size[d];
    Value t = arith::MulIOp::create(b, loc, warpCoord[d],
                                    i32Const(b, loc, threads[d]));
    t = arith::AddIOp::create(b, loc, t, laneCoord[d]);
    Value i = arith::MulIOp::create(b, loc, t, i32Const(b, loc, size[d]));
    i = arith::AddIOp::create(b, loc, i, i32Const(b, loc, r * tile[d] + j));
    if (shape[d] < tile[d])
      i = arith::AndIOp::create(b, loc, i, i32Const(b, loc, shape[d] - 1));
    out.push_back(i);
  }
  return out;
}

GpuTypeConverter::GpuTypeConverter(MLIRContext *ctx) {
  addConversion([](Type t) { return t; });
  addConversion([ctx](PtrType) -> Type {
    return LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/1);
  });
  addConversion([this](RankedTensorType t, SmallVectorImpl<Type> &out)
                    -> std::optional<LogicalResult> {
    auto layout = dyn_cast_or_null<BlockedEncodingAttr>(t.getEncoding());
    if (!layout || t.getRank() > 2)
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
    std::string error;
    std::unique_ptr<TargetInfo> target = createTargetInfo(arch, error);
    if (!target) {
      module.emitError("convert-ktc-to-llvm: ") << error;
      return signalPassFailure();
    }
    // Every block must carry a layout (ktc-assign-layouts), of a rank the
    // lowering supports (1 or 2).
    WalkResult check = module.walk([&](Operation *op) {
      for (Type t : llvm::concat<Type>(op->getOperandTypes(),
                                       op->getResultTypes())) {
        auto tensor = dyn_cast<RankedTensorType>(t);
        if (!tensor)
          continue;
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

    LoweringState state;
    state.target = target.get();
    state.numWarps = numWarps;
    // Shared memory, reused by every op that needs it (each ends with a
    // barrier): a whole block for 2-D reductions (in the type they compute
    // in: 4 bytes an element, 8 for i64) and the ops that move elements
    // between threads; then the slots of the 1-D reductions
    // (planReductionSlots). `largest` is the op needing the most, where an
    // error about the total points (the user's file:line).
    int64_t sharedSize = 0;
    Operation *largest = nullptr;
    auto need = [&](Operation *op, RankedTensorType block, Type element) {
      int64_t bytes = block.getNumElements() * sharedBytes(element);
      if (bytes > sharedSize)
        sharedSize = bytes, largest = op;
    };
    module.walk([&](func::FuncOp func) {
      AxisAnalysis axis(func);
      func.walk([&](Operation *op) {
        if (isa<LoadOp, StoreOp>(op))
          state.vectorWidths[op] = axis.vectorWidth(op);
        if (auto reduce = dyn_cast<ReduceOp>(op)) {
          RankedTensorType src = reduce.getSrc().getType();
          if (src.getRank() == 2)
            need(op, src, reductionType(src.getElementType()));
        }
        if (isa<ExpandDimsOp, BroadcastOp>(op)) {
          auto src = cast<RankedTensorType>(op->getOperand(0).getType());
          need(op, src, src.getElementType());
        }
      });
    });
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
