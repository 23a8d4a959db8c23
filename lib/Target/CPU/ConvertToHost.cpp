//===- ConvertToHost.cpp - ktc to tensor/linalg/scf/llvm for the host -----===//
//
// See KtcConvertToHost in KtcPasses.td. Pointers become i64 addresses so
// that blocks of pointers are plain integer tensors (memref-friendly); loads
// and stores turn addresses back into !llvm.ptr at the access.
//
//===----------------------------------------------------------------------===//

#include "BoundsCheck.h"
#include "HostDebug.h"
#include "HostScan.h"
#include "HostShapes.h"
#include "dialect/KtcPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::ktc {
#define GEN_PASS_DEF_KTCCONVERTTOHOST
#include "dialect/KtcPasses.h.inc"
} // namespace mlir::ktc

using namespace mlir;
using namespace mlir::ktc;

namespace {

/// Pointers are i64 addresses, blocks of pointers i64 tensors.
struct HostTypeConverter : TypeConverter {
  HostTypeConverter(MLIRContext *ctx) {
    addConversion([](Type t) { return t; });
    addConversion([ctx](PtrType) -> Type { return IntegerType::get(ctx, 64); });
    addConversion([this](RankedTensorType t) -> Type {
      return RankedTensorType::get(t.getShape(),
                                   convertType(t.getElementType()));
    });
  }
};

int64_t byteSize(Type t) {
  return t.isInteger(1) ? 1 : (t.getIntOrFloatBitWidth() + 7) / 8;
}

/// A scalar or splat-tensor constant of `type`.
Value constant(OpBuilder &b, Location loc, Type type, TypedAttr scalar) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return arith::ConstantOp::create(b, loc,
                                     SplatElementsAttr::get(tensor, scalar));
  return arith::ConstantOp::create(b, loc, scalar);
}

/// An empty tensor of `type` (the destination of a linalg op).
Value empty(OpBuilder &b, Location loc, RankedTensorType type) {
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType());
}

SmallVector<utils::IteratorType> parallel(int64_t rank) {
  return SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel);
}

/// One masked scalar load from address `addr`: scf.if around llvm.load.
/// Masked-off elements are `other`, or zero when there is none. With a
/// `site` (a checked launch), an access out of bounds reads zero instead.
Value scalarLoad(OpBuilder &b, Location loc, Type type, Value addr,
                 Value mask, Value other, const AccessSite *site) {
  auto access = [&](OpBuilder &b, Location loc) -> Value {
    Value ptr = LLVM::IntToPtrOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext()), addr);
    if (isa<Float8E4M3FNType, Float8E5M2Type>(type)) // no LLVM type: i8
      return arith::BitcastOp::create(
          b, loc, type,
          LLVM::LoadOp::create(b, loc, b.getI8Type(), ptr, 1).getResult());
    return LLVM::LoadOp::create(b, loc, type, ptr, byteSize(type));
  };
  auto load = [&](OpBuilder &b, Location loc) -> Value {
    if (!site)
      return access(b, loc);
    Value ok = emitAccessCheck(b, loc, *site, addr, byteSize(type));
    return scf::IfOp::create(
               b, loc, ok,
               [&](OpBuilder &b, Location loc) {
                 scf::YieldOp::create(b, loc, access(b, loc));
               },
               [&](OpBuilder &b, Location loc) {
                 scf::YieldOp::create(
                     b, loc, constant(b, loc, type, b.getZeroAttr(type)));
               })
        .getResult(0);
  };
  if (!mask)
    return load(b, loc);
  auto ifOp = scf::IfOp::create(
      b, loc, mask,
      [&](OpBuilder &b, Location loc) {
        scf::YieldOp::create(b, loc, load(b, loc));
      },
      [&](OpBuilder &b, Location loc) {
        Value fill = other ? other : constant(b, loc, type, b.getZeroAttr(type));
        scf::YieldOp::create(b, loc, fill);
      });
  return ifOp.getResult(0);
}

void scalarStore(OpBuilder &b, Location loc, Value addr, Value value,
                 Value mask, const AccessSite *site) {
  auto access = [&](OpBuilder &b, Location loc) {
    Value ptr = LLVM::IntToPtrOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext()), addr);
    if (isa<Float8E4M3FNType, Float8E5M2Type>(value.getType())) // as i8
      value = arith::BitcastOp::create(b, loc, b.getI8Type(), value);
    LLVM::StoreOp::create(b, loc, value, ptr, byteSize(value.getType()));
  };
  auto store = [&](OpBuilder &b, Location loc) {
    if (!site)
      return access(b, loc);
    Value ok =
        emitAccessCheck(b, loc, *site, addr, byteSize(value.getType()));
    scf::IfOp::create(b, loc, ok, [&](OpBuilder &b, Location loc) {
      access(b, loc);
      scf::YieldOp::create(b, loc);
    });
  };
  if (!mask) {
    store(b, loc);
    return;
  }
  scf::IfOp::create(b, loc, mask, [&](OpBuilder &b, Location loc) {
    store(b, loc);
    scf::YieldOp::create(b, loc);
  });
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

struct ArangeLowering : OpConversionPattern<ArangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ArangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    int32_t start = op.getStart();
    auto map = rewriter.getMultiDimIdentityMap(1);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{},
        ValueRange{empty(rewriter, loc, type)}, ArrayRef<AffineMap>{map},
        parallel(1), [&](OpBuilder &b, Location loc, ValueRange) {
          Value i = linalg::IndexOp::create(b, loc, 0);
          Value v = arith::IndexCastOp::create(b, loc, b.getI32Type(), i);
          if (start != 0)
            v = arith::AddIOp::create(
                b, loc, v, arith::ConstantOp::create(
                               b, loc, b.getI32IntegerAttr(start)));
          linalg::YieldOp::create(b, loc, v);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

struct SplatLowering : OpConversionPattern<SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    Value init = empty(rewriter, op.getLoc(), type);
    rewriter.replaceOpWithNewOp<linalg::FillOp>(op, adaptor.getSrc(), init);
    return success();
  }
};

struct AddPtrLowering : OpConversionPattern<AddPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AddPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type pointee =
        cast<PtrType>(getElementTypeOrSelf(op.getPtr().getType()))
            .getPointeeType();
    Value addr = adaptor.getPtr(), offset = adaptor.getOffset();
    Type addrType = addr.getType();
    if (!getElementTypeOrSelf(offset.getType()).isInteger(64))
      offset = arith::ExtSIOp::create(rewriter, loc, addrType, offset);
    Value size = constant(rewriter, loc, addrType,
                          rewriter.getI64IntegerAttr(byteSize(pointee)));
    Value bytes = arith::MulIOp::create(rewriter, loc, offset, size);
    rewriter.replaceOpWithNewOp<arith::AddIOp>(op, addr, bytes);
    return success();
  }
};

/// The check of an access in a checked kernel (null otherwise).
const AccessSite *siteOf(const CheckedAccesses *sites, Operation *op) {
  if (!sites)
    return nullptr;
  auto it = sites->find(op);
  return it == sites->end() ? nullptr : &it->second;
}

struct LoadLowering : OpConversionPattern<LoadOp> {
  LoadLowering(const TypeConverter &converter, MLIRContext *ctx,
               const CheckedAccesses *sites)
      : OpConversionPattern(converter, ctx), sites(sites) {}
  const CheckedAccesses *sites;
  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const AccessSite *site = siteOf(sites, op);
    Value mask = adaptor.getMask(), other = adaptor.getOther();
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type) {
      rewriter.replaceOp(op, scalarLoad(rewriter, loc, op.getType(),
                                        adaptor.getPtr(), mask, other, site));
      return success();
    }
    SmallVector<Value> inputs{adaptor.getPtr()};
    if (mask)
      inputs.push_back(mask);
    if (other)
      inputs.push_back(other);
    int64_t rank = type.getRank();
    SmallVector<AffineMap> maps(inputs.size() + 1,
                                rewriter.getMultiDimIdentityMap(rank));
    Type element = type.getElementType();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, inputs,
        ValueRange{empty(rewriter, loc, type)}, maps, parallel(rank),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value m = mask ? args[1] : Value();
          Value o = other ? args[mask ? 2 : 1] : Value();
          linalg::YieldOp::create(b, loc,
                                  scalarLoad(b, loc, element, args[0], m, o,
                                             site));
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

/// A store of a block is a loop nest over its elements.
struct StoreLowering : OpConversionPattern<StoreOp> {
  StoreLowering(const TypeConverter &converter, MLIRContext *ctx,
                const CheckedAccesses *sites)
      : OpConversionPattern(converter, ctx), sites(sites) {}
  const CheckedAccesses *sites;
  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const AccessSite *site = siteOf(sites, op);
    Value addr = adaptor.getPtr(), value = adaptor.getValue(),
          mask = adaptor.getMask();
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type) {
      scalarStore(rewriter, loc, addr, value, mask, site);
      rewriter.eraseOp(op);
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
    scf::buildLoopNest(
        rewriter, loc, lbs, ubs, steps,
        [&](OpBuilder &b, Location loc, ValueRange ivs) {
          Value a = tensor::ExtractOp::create(b, loc, addr, ivs);
          Value v = tensor::ExtractOp::create(b, loc, value, ivs);
          Value m = mask ? tensor::ExtractOp::create(b, loc, mask, ivs)
                         : Value();
          scalarStore(b, loc, a, v, m, site);
        });
    rewriter.eraseOp(op);
    return success();
  }
};

struct ReduceLowering : OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType srcType = op.getSrc().getType();
    Type resultElement = srcType.getElementType();
    ReduceKind kind = op.getKind();
    bool isFloat = isa<FloatType>(resultElement);
    // 16-bit floats reduce in f32 and round once, as on the GPUs (f64
    // stays f64).
    Type element = isFloat && !resultElement.isF64() ? rewriter.getF32Type()
                                                     : resultElement;
    Value src = adaptor.getSrc();
    if (element != resultElement)
      src = arith::ExtFOp::create(rewriter, loc, srcType.clone(element), src);
    // The identity of the combiner: -0 for a float sum (-0 + x is x, signed
    // zeros included), NaN for maxnum/minnum (so that a block of NaNs gives
    // NaN, as the GPU's reductions do), the extreme values for integers.
    TypedAttr identity;
    if (kind == ReduceKind::Sum) {
      identity = isFloat ? TypedAttr(rewriter.getFloatAttr(
                               element, APFloat::getZero(
                                            cast<FloatType>(element)
                                                .getFloatSemantics(),
                                            true)))
                         : TypedAttr(rewriter.getZeroAttr(element));
    } else if (isFloat) {
      identity = rewriter.getFloatAttr(
          element,
          APFloat::getQNaN(cast<FloatType>(element).getFloatSemantics()));
    } else {
      unsigned width = element.getIntOrFloatBitWidth();
      APInt v = kind == ReduceKind::Max
                    ? (width == 1 ? APInt(1, 0) : APInt::getSignedMinValue(width))
                    : (width == 1 ? APInt(1, 1) : APInt::getSignedMaxValue(width));
      identity = rewriter.getIntegerAttr(element, v);
    }
    SmallVector<int64_t> shape(srcType.getShape());
    shape.erase(shape.begin() + op.getAxis());
    auto initType = RankedTensorType::get(shape, element);
    Value init = linalg::FillOp::create(
                     rewriter, loc,
                     ValueRange{arith::ConstantOp::create(rewriter, loc,
                                                          identity)},
                     ValueRange{empty(rewriter, loc, initType)})
                     .getResult(0);
    auto reduce = linalg::ReduceOp::create(
        rewriter, loc, ValueRange{src}, ValueRange{init},
        ArrayRef<int64_t>{op.getAxis()},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value x = args[0], acc = args[1], r;
          switch (kind) {
          case ReduceKind::Sum:
            r = isFloat ? arith::AddFOp::create(b, loc, x, acc).getResult()
                        : arith::AddIOp::create(b, loc, x, acc).getResult();
            break;
          case ReduceKind::Max:
            r = isFloat ? arith::MaxNumFOp::create(b, loc, x, acc).getResult()
                : element.isInteger(1)
                    ? arith::MaxUIOp::create(b, loc, x, acc).getResult()
                    : arith::MaxSIOp::create(b, loc, x, acc).getResult();
            break;
          case ReduceKind::Min:
            r = isFloat ? arith::MinNumFOp::create(b, loc, x, acc).getResult()
                : element.isInteger(1)
                    ? arith::MinUIOp::create(b, loc, x, acc).getResult()
                    : arith::MinSIOp::create(b, loc, x, acc).getResult();
            break;
          }
          linalg::YieldOp::create(b, loc, r);
        });
    Value result = reduce.getResult(0);
    if (element != resultElement)
      result = arith::TruncFOp::create(
          rewriter, loc, RankedTensorType::get(shape, resultElement), result);
    if (shape.empty())
      result = tensor::ExtractOp::create(rewriter, loc, result, ValueRange{});
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Any other op whose types mention pointers (arith.select, ...): the same
/// op on converted types.
struct RetypeOp : ConversionPattern {
  RetypeOp(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), 1, ctx) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (op->getNumRegions() != 0 || op->getDialect()->getNamespace() == "ktc")
      return failure();
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(), types)))
      return failure();
    OperationState state(op->getLoc(), op->getName(), operands, types,
                         op->getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// Appends the grid arguments to a kernel and replaces the id ops with them.
void addGridArguments(func::FuncOp func) {
  OpBuilder b(func.getContext());
  Type i32 = b.getI32Type();
  unsigned first = func.getNumArguments();
  for (int i = 0; i < 6; ++i)
    (void)func.insertArgument(func.getNumArguments(), i32, {}, func.getLoc());
  func.walk([&](Operation *op) {
    if (auto pid = dyn_cast<ProgramIdOp>(op)) {
      pid.replaceAllUsesWith(func.getArgument(first + pid.getAxis()));
      pid.erase();
    } else if (auto n = dyn_cast<NumProgramsOp>(op)) {
      n.replaceAllUsesWith(func.getArgument(first + 3 + n.getAxis()));
      n.erase();
    }
  });
}

struct KtcConvertToHostPass
    : mlir::ktc::impl::KtcConvertToHostBase<KtcConvertToHostPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    CheckedAccesses sites; // of kernels compiled for a checked launch
    module.walk([&](func::FuncOp func) {
      if (!func->hasAttr(KtcDialect::getKernelAttrName()))
        return;
      if (func->hasAttr(KtcDialect::getCheckBoundsAttrName()))
        prepareCheckedAccesses(func, sites); // before the grid arguments
      ::ktc::host::expandHostDebugOps(func); // before the grid arguments
      // debug_barrier: one thread runs a program on the host. assume: a
      // hint the bufferisation cannot see through (it has no memory
      // effects it knows).
      func.walk([](Operation *op) {
        if (isa<gpu::BarrierOp, LLVM::AssumeOp>(op))
          op->erase();
      });
      addGridArguments(func);
    });

    HostTypeConverter converter(ctx);
    ConversionTarget target(*ctx);
    // Everything but ktc is legal once its types are (arith.select and
    // scf ops carry pointers too).
    target.addIllegalDialect<KtcDialect>();
    target.addLegalDialect<LLVM::LLVMDialect>();
    target.markUnknownOpDynamicallyLegal(
        [&](Operation *op) { return converter.isLegal(op); });
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp f) {
      return converter.isSignatureLegal(f.getFunctionType()) &&
             converter.isLegal(&f.getBody());
    });

    RewritePatternSet patterns(ctx);
    patterns.add<ArangeLowering>(ctx);
    patterns.add<SplatLowering, AddPtrLowering, ReduceLowering, RetypeOp>(
        converter, ctx);
    populateHostShapePatterns(converter, patterns);
    populateHostDotPatterns(converter, patterns);
    populateHostReducePatterns(converter, patterns);
    populateHostScanPatterns(converter, patterns);
    patterns.add<LoadLowering, StoreLowering>(converter, ctx, &sites);
    populateHostAtomicPatterns(converter, patterns);
    populateHostInlineAsmPatterns(converter, patterns);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversions(converter, patterns);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
