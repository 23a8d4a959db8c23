//===- ExpandHalfFloats.cpp - f16/bf16 on the host without its features ---===//
//
// See KtcHostExpandHalfFloats in KtcPasses.td. Two steps:
//  1. arithmetic and math on f16/bf16 values happen in f32 (operands
//     extended exactly, the result rounded once);
//  2. every f32 <-> f16/bf16 conversion becomes integer code: round to
//     nearest even, subnormals kept, NaN stays NaN (quietened, sign and top
//     payload bits kept), overflow to infinity.
// What is left of the 16-bit types is loads, stores, selects, bitcasts and
// constants: no instruction or library call that differs between hosts
// (AVX512-BF16's vcvtneps2bf16 flushes subnormals; GCC 12's libgcc has no
// __truncsfbf2), and nothing that depends on the MXCSR's DAZ/FTZ bits.
//
// Moving a 16-bit float is not safe either: LLVM's x86 backend carries a
// bfloat select or phi (a masked load's `other`, `where`) in an f32
// register on hosts with AVX512-BF16 and stores it through vcvtneps2bf16,
// which flushes subnormals and quiets signalling NaNs (without AVX512-BF16
// it calls __truncsfbf2 for the same move). So once the host
// pipeline is in the LLVM dialect, `ktc-host-half-floats-as-i16` retypes
// every f16/bf16 value, block argument, constant and global as i16: LLVM
// then sees no 16-bit float at all and moves the bits as integers.
//
//===----------------------------------------------------------------------===//

#include "HostTarget.h"

#include "dialect/KtcPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::ktc {
#define GEN_PASS_DEF_KTCHOSTEXPANDHALFFLOATS
#define GEN_PASS_DEF_KTCHOSTHALFFLOATSASI16
#include "dialect/KtcPasses.h.inc"
} // namespace mlir::ktc

using namespace mlir;

namespace {

bool isHalf(Type t) {
  Type e = getElementTypeOrSelf(t);
  return e.isF16() || e.isBF16();
}

/// `type` (scalar, vector or tensor) with element type `element`.
Type withElement(Type type, Type element) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(element);
  return element;
}

/// Integer code on i32 values of the shape of `like`.
struct Bits {
  PatternRewriter &b;
  Location loc;
  Type i32;

  /// A scalar or splat constant shaped like `type`.
  Value splat(Type type, TypedAttr scalar) {
    if (auto shaped = dyn_cast<ShapedType>(type))
      return arith::ConstantOp::create(b, loc,
                                       SplatElementsAttr::get(shaped, scalar));
    return arith::ConstantOp::create(b, loc, scalar);
  }
  Value c(uint32_t v) { return splat(i32, b.getI32IntegerAttr(int32_t(v))); }
  Value f(float v) {
    return splat(withElement(i32, b.getF32Type()), b.getF32FloatAttr(v));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value band(Value x, uint32_t m) {
    return arith::AndIOp::create(b, loc, x, c(m));
  }
  Value bor(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value shr(Value x, uint32_t s) {
    return arith::ShRUIOp::create(b, loc, x, c(s));
  }
  Value shl(Value x, uint32_t s) {
    return arith::ShLIOp::create(b, loc, x, c(s));
  }
  Value uge(Value x, uint32_t v) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, x, c(v));
  }
  Value ugt(Value x, uint32_t v) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, x, c(v));
  }
  Value eq(Value x, uint32_t v) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, c(v));
  }
  Value select(Value cond, Value x, Value y) {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }
};

/// f32 -> bf16: add 0x7fff plus the kept part's lowest bit, drop 16 bits.
/// Exact for subnormals (same exponent range); the carry turns the largest
/// values into infinity as rounding should.
Value truncToBF16(Bits &k, Value u) {
  Value lsb = k.band(k.shr(u, 16), 1);
  Value rounded = k.shr(k.add(k.add(u, k.c(0x7fff)), lsb), 16);
  Value a = k.band(u, 0x7fffffff);
  Value nan = k.bor(k.shr(u, 16), k.c(0x40));
  return k.select(k.ugt(a, 0x7f800000), nan, rounded);
}

/// f32 -> f16.
Value truncToF16(Bits &k, Value u) {
  PatternRewriter &b = k.b;
  Location loc = k.loc;
  Value sign = k.band(k.shr(u, 16), 0x8000);
  Value a = k.band(u, 0x7fffffff);
  // Normal halves (|x| >= 2^-14): rebias the exponent, round away 13 bits.
  Value rebiased = k.sub(a, k.c(0x38000000));
  Value normal = k.shr(
      k.add(k.add(rebiased, k.c(0xfff)), k.band(k.shr(a, 13), 1)), 13);
  // Subnormal halves: |x| + 0.5 rounds |x| to a multiple of 2^-24 (the ulp
  // of [0.5, 1) and of f16 subnormals) in the FPU's round-to-nearest-even;
  // the bits above 0.5's are the half. Inputs that DAZ would zero round to
  // a zero half anyway.
  Type f32 = withElement(k.i32, b.getF32Type());
  Value absX = arith::BitcastOp::create(b, loc, f32, a);
  Value sum = arith::AddFOp::create(b, loc, absX, k.f(0.5f));
  Value subnormal =
      k.sub(arith::BitcastOp::create(b, loc, k.i32, sum), k.c(0x3f000000));
  Value inf = k.c(0x7c00);
  Value nan = k.bor(k.c(0x7e00), k.band(k.shr(a, 13), 0x3ff));
  Value magnitude = k.select(
      k.ugt(a, 0x7f800000), nan,
      k.select(k.uge(a, 0x477ff000), inf,
               k.select(k.uge(a, 0x38800000), normal, subnormal)));
  return k.bor(sign, magnitude);
}

/// f16 bits (in an i32) -> f32 bits.
Value extFromF16(Bits &k, Value h) {
  PatternRewriter &b = k.b;
  Location loc = k.loc;
  Value sign = k.shl(k.band(h, 0x8000), 16);
  Value exp = k.band(h, 0x7c00);
  Value mant = k.band(h, 0x3ff);
  // Normal: rebias; inf/NaN: all-ones exponent, payload kept.
  Value normal = k.add(k.shl(k.band(h, 0x7fff), 13), k.c(0x38000000));
  Value special = k.bor(k.c(0x7f800000), k.shl(mant, 13));
  // Zero and subnormal: mant * 2^-24, exact and a normal f32 (or zero).
  Type f32 = withElement(k.i32, b.getF32Type());
  Value asFloat = arith::UIToFPOp::create(b, loc, f32, mant);
  Value small = arith::BitcastOp::create(
      b, loc, k.i32, arith::MulFOp::create(b, loc, asFloat, k.f(0x1p-24f)));
  Value magnitude =
      k.select(k.eq(exp, 0x7c00), special,
               k.select(k.eq(exp, 0), small, normal));
  return k.bor(sign, magnitude);
}

struct ExpandTruncF : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Type to = getElementTypeOrSelf(op.getType());
    if (!getElementTypeOrSelf(op.getIn().getType()).isF32() ||
        !(to.isF16() || to.isBF16()))
      return rewriter.notifyMatchFailure(op, "not f32 to f16/bf16");
    Location loc = op.getLoc();
    Type i32 = withElement(op.getType(), rewriter.getI32Type());
    Type i16 = withElement(op.getType(), rewriter.getI16Type());
    Bits k{rewriter, loc, i32};
    Value u = arith::BitcastOp::create(rewriter, loc, i32, op.getIn());
    Value h = to.isBF16() ? truncToBF16(k, u) : truncToF16(k, u);
    Value narrow = arith::TruncIOp::create(rewriter, loc, i16, h);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), narrow);
    return success();
  }
};

struct ExpandExtF : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    Type from = getElementTypeOrSelf(op.getIn().getType());
    if (!getElementTypeOrSelf(op.getType()).isF32() ||
        !(from.isF16() || from.isBF16()))
      return rewriter.notifyMatchFailure(op, "not f16/bf16 to f32");
    Location loc = op.getLoc();
    Type i32 = withElement(op.getType(), rewriter.getI32Type());
    Type i16 = withElement(op.getType(), rewriter.getI16Type());
    Bits k{rewriter, loc, i32};
    Value h = arith::ExtUIOp::create(
        rewriter, loc, i32,
        arith::BitcastOp::create(rewriter, loc, i16, op.getIn()));
    Value u = from.isBF16() ? k.shl(h, 16) : extFromF16(k, h);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), u);
    return success();
  }
};

/// An arith/math op computing on f16/bf16 values: the same op in f32 on
/// exactly extended operands, its float results rounded once.
struct ComputeInF32 : RewritePattern {
  ComputeInF32(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  static bool moves(Operation *op) {
    // Ops that move bits without computing on them, and the conversions
    // expanded above.
    return isa<arith::ConstantOp, arith::BitcastOp, arith::SelectOp,
               arith::ExtFOp, arith::TruncFOp>(op);
  }

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        moves(op) || op->getNumRegions() != 0)
      return failure();
    bool any = llvm::any_of(op->getOperandTypes(), isHalf) ||
               llvm::any_of(op->getResultTypes(), isHalf);
    if (!any)
      return failure();
    Location loc = op->getLoc();
    Type f32 = rewriter.getF32Type();
    SmallVector<Value> operands;
    for (Value v : op->getOperands())
      operands.push_back(
          isHalf(v.getType())
              ? arith::ExtFOp::create(rewriter, loc,
                                      withElement(v.getType(), f32), v)
                    .getResult()
              : v);
    SmallVector<Type> types;
    for (Type t : op->getResultTypes())
      types.push_back(isHalf(t) ? withElement(t, f32) : t);
    // Rounding-mode and fast-math attributes carry over.
    OperationState state(loc, op->getName(), operands, types, op->getAttrs());
    Operation *wide = rewriter.create(state);
    SmallVector<Value> results;
    for (auto [old, now] : llvm::zip(op->getResults(), wide->getResults()))
      results.push_back(isHalf(old.getType())
                            ? arith::TruncFOp::create(rewriter, loc,
                                                      old.getType(), now)
                                  .getResult()
                            : now);
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct KtcHostExpandHalfFloatsPass
    : mlir::ktc::impl::KtcHostExpandHalfFloatsBase<
          KtcHostExpandHalfFloatsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ComputeInF32, ExpandTruncF, ExpandExtF>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

namespace {

/// `type` with every f16/bf16 in it (vector and array elements, struct
/// fields, function arguments and results) replaced by i16.
Type asBits(Type type) {
  MLIRContext *ctx = type.getContext();
  if (type.isF16() || type.isBF16())
    return IntegerType::get(ctx, 16);
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.clone(asBits(vector.getElementType()));
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.clone(asBits(tensor.getElementType()));
  if (auto array = dyn_cast<LLVM::LLVMArrayType>(type))
    return LLVM::LLVMArrayType::get(asBits(array.getElementType()),
                                    array.getNumElements());
  if (auto st = dyn_cast<LLVM::LLVMStructType>(type)) {
    if (st.isIdentified())
      return type;
    SmallVector<Type> fields;
    for (Type f : st.getBody())
      fields.push_back(asBits(f));
    return LLVM::LLVMStructType::getLiteral(ctx, fields, st.isPacked());
  }
  if (auto fn = dyn_cast<LLVM::LLVMFunctionType>(type)) {
    SmallVector<Type> params;
    for (Type p : fn.getParams())
      params.push_back(asBits(p));
    return LLVM::LLVMFunctionType::get(asBits(fn.getReturnType()), params,
                                       fn.isVarArg());
  }
  return type;
}

/// A constant's or a global's value with its 16-bit floats as i16 bits.
Attribute asBits(Attribute value) {
  if (auto f = dyn_cast<FloatAttr>(value);
      f && asBits(f.getType()) != f.getType())
    return IntegerAttr::get(asBits(f.getType()),
                            f.getValue().bitcastToAPInt());
  if (auto dense = dyn_cast<DenseElementsAttr>(value);
      dense && asBits(dense.getElementType()) != dense.getElementType())
    return dense.bitcast(asBits(dense.getElementType()));
  return value;
}

/// Ops that only move, address or hold 16-bit values (what
/// ktc-host-expand-half-floats leaves of them, lowered to LLVM).
bool onlyMoves(Operation *op) {
  return isa<LLVM::LoadOp, LLVM::StoreOp, LLVM::SelectOp, LLVM::BitcastOp,
             LLVM::ConstantOp, LLVM::ZeroOp, LLVM::UndefOp, LLVM::PoisonOp,
             LLVM::FreezeOp, LLVM::GEPOp, LLVM::AllocaOp, LLVM::GlobalOp,
             LLVM::AddressOfOp, LLVM::ExtractElementOp,
             LLVM::InsertElementOp, LLVM::ShuffleVectorOp,
             LLVM::ExtractValueOp, LLVM::InsertValueOp, LLVM::BrOp,
             LLVM::CondBrOp, LLVM::SwitchOp, LLVM::ReturnOp, LLVM::CallOp,
             LLVM::LLVMFuncOp, ModuleOp>(op);
}

bool mentionsHalf(Operation *op) {
  auto half = [](Type t) { return asBits(t) != t; };
  if (llvm::any_of(op->getOperandTypes(), half) ||
      llvm::any_of(op->getResultTypes(), half))
    return true;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (llvm::any_of(block.getArgumentTypes(), half))
        return true;
  return llvm::any_of(op->getAttrs(), [&](NamedAttribute a) {
    if (auto t = dyn_cast<TypeAttr>(a.getValue()))
      return half(t.getValue());
    return asBits(a.getValue()) != a.getValue();
  });
}

struct HalfFloatsAsI16Pass
    : mlir::ktc::impl::KtcHostHalfFloatsAsI16Base<HalfFloatsAsI16Pass> {
  void runOnOperation() override {
    // Everything that still computes on a 16-bit float is a bug of the
    // steps before (they leave only moves): say so rather than retype it.
    WalkResult checked = getOperation()->walk([&](Operation *op) {
      if (!onlyMoves(op) && mentionsHalf(op)) {
        op->emitOpError("computes on a 16-bit float after "
                        "ktc-host-expand-half-floats");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (checked.wasInterrupted())
      return signalPassFailure();

    // A kernel keeps its signature (the ktc dialect checks it, and its
    // arguments are what the launch passes): a 16-bit float argument is
    // bitcast to i16 where the body starts.
    getOperation()->walk([&](LLVM::LLVMFuncOp f) {
      if (!f->hasAttr("ktc.kernel") || f.isExternal())
        return;
      OpBuilder b = OpBuilder::atBlockBegin(&f.getBody().front());
      for (BlockArgument arg : f.getArguments()) {
        if (asBits(arg.getType()) == arg.getType() || arg.use_empty())
          continue;
        Value bits = LLVM::BitcastOp::create(b, arg.getLoc(),
                                             asBits(arg.getType()), arg);
        arg.replaceAllUsesExcept(bits, bits.getDefiningOp());
      }
    });
    auto keepsSignature = [](Operation *op) {
      return isa<LLVM::LLVMFuncOp>(op) && op->hasAttr("ktc.kernel");
    };

    SmallVector<LLVM::BitcastOp> noops;
    getOperation()->walk([&](Operation *op) {
      for (Value v : op->getResults())
        v.setType(asBits(v.getType()));
      for (Region &region : op->getRegions())
        for (Block &block : region)
          if (!(keepsSignature(op) && block.isEntryBlock()))
            for (BlockArgument arg : block.getArguments())
              arg.setType(asBits(arg.getType()));
      for (NamedAttribute a : op->getAttrs()) {
        if (keepsSignature(op) && a.getName() == "function_type")
          continue;
        Attribute now = a.getValue();
        if (auto t = dyn_cast<TypeAttr>(now))
          now = TypeAttr::get(asBits(t.getValue()));
        else
          now = asBits(now);
        if (now != a.getValue())
          op->setAttr(a.getName(), now);
      }
      if (auto cast = dyn_cast<LLVM::BitcastOp>(op))
        noops.push_back(cast);
    });
    // i16 <-> bf16 bitcasts (the expanded conversions') are now i16 -> i16.
    for (LLVM::BitcastOp cast : noops)
      if (cast.getArg().getType() == cast.getType()) {
        cast.replaceAllUsesWith(cast.getArg());
        cast.erase();
      }
  }
};

} // namespace
