//===- DotOpToLLVM.cpp - ktc.dot on the matrix cores, or in FMAs -----------===//
//
// ktc-assign-layouts has put the operands in the #ktc.dot_operand layouts
// of the result's layout, so each thread already holds what it multiplies:
//
// - #ktc.mma result: per result tile (m, n) and K step k, the thread's
//   registers of A (m, k), B (k, n) and C (m, n) are packed into the
//   instruction's operands and the instruction called (mma.sync, MFMA,
//   WMMA); the register order of dialect/MmaLayouts.h makes the indices
//   arithmetic.
// - blocked result (the FMA path): each result register r is
//   fma(a[m, k], b[k, n], acc) for k from 0 up, m and n r's coordinates;
//   the thread holds row m of A and column n of B in registers whose
//   coordinates the operand layouts give. The host computes the same sums
//   in the same order (lib/Target/CPU/HostDot.cpp): the same bits.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"
#include "SharedBuffers.h"
#include "Staging.h"

#include "dialect/DotOp.h"
#include "dialect/MmaLayouts.h"

#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

#include <functional>
#include <map>
#include <memory>

using namespace mlir;
using namespace mlir::ktc;

namespace {

/// An f16/bf16/f32 operand as f32, rounded to tf32 when asked; an i8 one
/// sign-extended to i32.
Value widen(OpBuilder &b, Location loc, Value x, bool tf32) {
  if (x.getType().isInteger(8))
    return LLVM::SExtOp::create(b, loc, b.getI32Type(), x);
  Type f32 = b.getF32Type();
  if (x.getType() != f32)
    return LLVM::FPExtOp::create(b, loc, f32, x);
  return tf32 ? roundToTf32(b, loc, x) : x; // the host's rounding
}

/// Register coordinates of `layout` -> register index.
std::map<LinearLayout::Coord, int64_t> registerIndex(const LinearLayout &l) {
  std::map<LinearLayout::Coord, int64_t> index;
  for (int64_t r = 0; r < l.numRegisters(); ++r)
    index.emplace(l.applyIn(LinearLayout::Register, r), r);
  return index;
}

/// Register `reg` of operand A or B, however the dot gets it: from the
/// registers it was given, or read from where it was staged.
using OperandRegister = function_ref<Value(int64_t reg)>;

SmallVector<Value> fmaDot(OpBuilder &b, Location loc, DotOp op,
                          OperandRegister a, OperandRegister bv,
                          ValueRange acc) {
  LinearLayout lc = toLinearLayout(op.getType());
  LinearLayout la = dotOperandLayout(op, 0), lb = dotOperandLayout(op, 1);
  auto ia = registerIndex(la), ib = registerIndex(lb);
  int64_t K = op.getA().getType().getDimSize(1);
  bool tf32 = op.getInputPrecision() == InputPrecision::TF32;
  // Each operand register widened once.
  DenseMap<int64_t, Value> wa, wb;
  auto get = [&](DenseMap<int64_t, Value> &cache, OperandRegister f,
                 int64_t r) {
    Value &v = cache[r];
    if (!v)
      v = widen(b, loc, f(r), tf32);
    return v;
  };
  SmallVector<Value> out;
  for (int64_t r = 0; r < lc.numRegisters(); ++r) {
    LinearLayout::Coord c = lc.applyIn(LinearLayout::Register, r);
    Value sum = acc[r];
    for (int64_t k = 0; k < K; ++k) {
      int64_t sa = ia.at({c[0], int32_t(k)}), sb = ib.at({int32_t(k), c[1]});
      Value x = get(wa, a, sa), y = get(wb, bv, sb);
      if (isa<IntegerType>(sum.getType())) // i8: exact, modulo 2^32
        sum = LLVM::AddOp::create(b, loc, LLVM::MulOp::create(b, loc, x, y),
                                  sum);
      else
        sum = LLVM::FMAOp::create(b, loc, x, y, sum);
    }
    out.push_back(sum);
  }
  return out;
}

/// gfx1250's WMMA (16x16x32): neg modifiers for A, B and C and reuse
/// hints around the operands, bf16 as bfloat lanes.
bool wmmaWithModifiers(const MmaInstr &instr) {
  return instr.family == MmaInstr::AmdWmma && instr.name.ends_with("_gfx1250");
}

/// Values [k0, k0 + g) as one instruction operand: a vector of them, as
/// the intrinsic takes it (i16 lanes for bf16 where the intrinsic wants
/// integers; 32-bit words of two for mma.sync's bf16).
Value operand(OpBuilder &b, Location loc, const MmaInstr &instr,
              OperandRegister reg, int64_t k0, int64_t g) {
  if (instr.tf32) // one element a register, rounded (as cvt.rna.tf32.f32)
    return LLVM::BitcastOp::create(b, loc, b.getI32Type(),
                                   widen(b, loc, reg(k0), true));
  SmallVector<Value> values;
  for (int64_t i = 0; i < g; ++i)
    values.push_back(reg(k0 + i));
  Value v = pack(b, loc, values, 0, g);
  if (instr.int8) {
    // i8s as the intrinsic's integers: one i32 (mma.sync's word, gfx90a's
    // MFMA) or i64 (gfx942's MFMA), else 32-bit lanes (gfx950's MFMA,
    // WMMA).
    Type word = g <= 4 || (g == 8 && instr.family == MmaInstr::AmdMfma)
                    ? Type(b.getIntegerType(8 * g))
                    : Type(VectorType::get({g / 4}, b.getI32Type()));
    return LLVM::BitcastOp::create(b, loc, word, v);
  }
  if (!instr.bf16 || wmmaWithModifiers(instr))
    return v;
  bool integerLanes = instr.intrinsic.ends_with(".1k") ||
                      instr.family == MmaInstr::AmdWmma;
  if (integerLanes)
    return LLVM::BitcastOp::create(
        b, loc, VectorType::get({g}, b.getI16Type()), v);
  if (instr.family == MmaInstr::NvMma) // two bf16 a word
    return LLVM::BitcastOp::create(b, loc, b.getI32Type(), v);
  return v;
}

SmallVector<Value> mmaDot(OpBuilder &b, Location loc, DotOp op,
                          const MmaInstr &instr, ArrayRef<unsigned> warps,
                          OperandRegister av, OperandRegister bvals,
                          ValueRange acc) {
  RankedTensorType at = op.getA().getType(), bt = op.getB().getType();
  int64_t M = at.getDimSize(0), K = at.getDimSize(1), N = bt.getDimSize(1);
  int64_t wm = std::min<int64_t>(warps[0], M / instr.m);
  int64_t wn = std::min<int64_t>(warps[1], N / instr.n);
  int64_t repM = M / (instr.m * wm), repN = N / (instr.n * wn),
          repK = K / instr.k;
  int64_t nA = instr.aRegisters(), nB = instr.bRegisters(),
          nC = instr.cRegisters();
  SmallVector<Value> out(acc);
  Type f32 = instr.int8 ? Type(b.getI32Type()) : Type(b.getF32Type()); // C
  // K outermost: a thread needs one K step of its operands at a time (read
  // from shared memory just before, when staged).
  for (int64_t k = 0; k < repK; ++k)
    for (int64_t m = 0; m < repM; ++m)
      for (int64_t n = 0; n < repN; ++n) {
        int64_t c0 = nC * (n + repN * m);
        {
        int64_t a0 = nA * (k + repK * m), b0 = nB * (k + repK * n);
        SmallVector<Value> args;
        Type result;
        switch (instr.family) {
        case MmaInstr::NvMma: {
          // A: four words of two halves (four i8, or one tf32), B: two,
          // C: four floats (i32); a struct back.
          int64_t per = instr.tf32 ? 1 : instr.int8 ? 4 : 2;
          for (int64_t w = 0; w < nA; w += per)
            args.push_back(operand(b, loc, instr, av, a0 + w, per));
          for (int64_t w = 0; w < nB; w += per)
            args.push_back(operand(b, loc, instr, bvals, b0 + w, per));
          for (int64_t c = 0; c < nC; ++c)
            args.push_back(out[c0 + c]);
          result = LLVM::LLVMStructType::getLiteral(
              b.getContext(), SmallVector<Type>(nC, f32));
          break;
        }
        case MmaInstr::AmdMfma:
        case MmaInstr::AmdWmma:
          args.push_back(operand(b, loc, instr, av, a0, nA));
          args.push_back(operand(b, loc, instr, bvals, b0, nB));
          if (instr.swapAB) // C^T = B^T A^T: the lanes hold runs of n
            std::swap(args[0], args[1]);
          if (instr.int8 && instr.family == MmaInstr::AmdWmma) {
            // iu8: (A signed, A, B signed, B, C, clamp = 0: wrap).
            Value yes = LLVM::ConstantOp::create(b, loc, b.getI1Type(),
                                                 b.getBoolAttr(true));
            args.insert(args.begin(), yes);
            args.insert(args.begin() + 2, yes);
          }
          if (wmmaWithModifiers(instr)) {
            // (neg A = 0, A, neg B = 0, B, C modifier = 0, C, reuse A = 0,
            // reuse B = 0).
            Value no = LLVM::ConstantOp::create(b, loc, b.getI1Type(),
                                                b.getBoolAttr(false));
            args.insert(args.begin(), no);
            args.insert(args.begin() + 2, no);
            args.push_back(LLVM::ConstantOp::create(
                b, loc, b.getI16Type(), b.getI16IntegerAttr(0)));
          }
          args.push_back(pack(b, loc, out, c0, nC));
          if (wmmaWithModifiers(instr))
            args.append({LLVM::ConstantOp::create(b, loc, b.getI1Type(),
                                                  b.getBoolAttr(false)),
                         LLVM::ConstantOp::create(b, loc, b.getI1Type(),
                                                  b.getBoolAttr(false))});
          if (instr.int8 && instr.family == MmaInstr::AmdWmma)
            args.push_back(LLVM::ConstantOp::create(b, loc, b.getI1Type(),
                                                    b.getBoolAttr(false)));
          if (instr.family == MmaInstr::AmdMfma) // cbsz, abid, blgp
            for (int i = 0; i < 3; ++i)
              args.push_back(i32Const(b, loc, 0));
          result = VectorType::get({nC}, f32);
          break;
        case MmaInstr::NvWgmma:
          llvm_unreachable("wgmma dots lower in WgmmaToLLVM.cpp");
        }
        Value d = LLVM::CallIntrinsicOp::create(
                      b, loc, result, b.getStringAttr(instr.intrinsic), args)
                      .getResult(0);
        for (int64_t c = 0; c < nC; ++c)
          out[c0 + c] =
              instr.family == MmaInstr::NvMma
                  ? LLVM::ExtractValueOp::create(b, loc, d, c).getResult()
                  : LLVM::ExtractElementOp::create(b, loc, d,
                                                   i32Const(b, loc, c))
                        .getResult();
      }
    }
  return out;
}

/// A barrier for the dot's LDS on AMD: __syncthreads' workgroup fences
/// narrowed to LDS (the MMRA amdgpu-synchronize-as:local, as MLIR's
/// gpu.barrier with a workgroup memfence). A plain workgroup fence also
/// orders global memory, and in WGP mode (gfx11, gfx12) that waits for
/// every load in flight (s_waitcnt vmcnt(0) before s_barrier): in a K loop,
/// for the next tile's prefetched loads before the matrix instructions.
void ldsBarrier(OpBuilder &b, Location loc) {
  auto tag = LLVM::MMRATagAttr::get(b.getContext(), "amdgpu-synchronize-as",
                                    "local");
  auto fence = [&](LLVM::AtomicOrdering ordering) {
    LLVM::FenceOp::create(b, loc, ordering, "workgroup")
        ->setAttr(LLVM::LLVMDialect::getMmraAttrName(), tag);
  };
  fence(LLVM::AtomicOrdering::release);
  ROCDL::SBarrierOp::create(b, loc);
  fence(LLVM::AtomicOrdering::acquire);
}

struct DotLowering : OpConversionPattern<DotOp> {
  DotLowering(const TypeConverter &converter, MLIRContext *ctx,
              const LoweringState &state)
      : OpConversionPattern<DotOp>(converter, ctx), state(state) {}

  LogicalResult
  matchAndRewrite(DotOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Attribute layout = op.getType().getEncoding();
    auto inOperandLayout = [&](Value v, unsigned idx) {
      auto d = dyn_cast_or_null<DotOperandEncodingAttr>(
          cast<RankedTensorType>(v.getType()).getEncoding());
      return d && d.getOpIdx() == idx && d.getParent() == layout;
    };
    SmallVector<Value> a(adaptor.getA()), b(adaptor.getB());
    if (auto mma = dyn_cast<MmaEncodingAttr>(layout))
      if (const MmaInstr *instr = wgmmaOf(op)) {
        rewriter.replaceOpWithMultiple(
            op, {wgmmaDot(rewriter, loc, state, op, *instr,
                          mma.getWarpsPerCTA(), a, b, adaptor.getAcc())});
        return success();
      }
    std::function<Value(int64_t)> getA = [&](int64_t r) { return a[r]; };
    std::function<Value(int64_t)> getB = [&](int64_t r) { return b[r]; };
    Type element = a[0].getType();
    // Operands from a buffer slot (ktc.local_load) are read from it, each
    // register just before its use.
    std::unique_ptr<StagedBlock> fromSlot[2];
    for (unsigned i = 0; i < 2; ++i) {
      LocalLoadOp load = bufferOperand(op, i);
      if (!load)
        continue;
      auto alloc = load.getBuffer().getDefiningOp<LocalAllocOp>();
      LinearLayout to = dotOperandLayout(op, i);
      fromSlot[i] = std::make_unique<StagedBlock>(
          state, to, to, element,
          slotReadPlan(to, element, bufferLayout(alloc),
                       state.target->hasMatrixLoads()),
          0,
          slotStart(rewriter, loc, state, alloc,
                    rewriter.getRemappedValue(load.getSlot())));
      (i == 0 ? getA : getB) = [&, i](int64_t r) {
        return fromSlot[i]->read(rewriter, loc, r);
      };
    }
    // Operands in other layouts are staged here: written to shared memory
    // (both at once when both need it), one barrier, each register read
    // just before its use.
    const MmaInstr *amd = nullptr;
    if (auto mma = dyn_cast<MmaEncodingAttr>(layout))
      if (lookupMmaInstr(mma.getInstr())->family != MmaInstr::NvMma)
        amd = lookupMmaInstr(mma.getInstr());
    auto barrier = [&] {
      if (amd)
        ldsBarrier(rewriter, loc);
      else
        state.target->barrier(rewriter, loc);
    };
    std::unique_ptr<StagedBlock> stagedA, stagedB;
    bool needA = !fromSlot[0] && !inOperandLayout(op.getA(), 0),
         needB = !fromSlot[1] && !inOperandLayout(op.getB(), 1);
    bool staged = false;
    if (needA || needB) {
      LinearLayout fromA = toLinearLayout(op.getA().getType()),
                   fromB = toLinearLayout(op.getB().getType()),
                   toA = dotOperandLayout(op, 0), toB = dotOperandLayout(op, 1);
      DotStaging plan = planDotStaging(fromA, toA, fromB, toB, element,
                                       *state.target, needA, needB);
      if (plan.bytes) {
        if (needA) {
          stagedA = std::make_unique<StagedBlock>(state, fromA, toA, element,
                                                  plan.a, 0);
          stagedA->write(rewriter, loc, a);
          getA = [&](int64_t r) { return stagedA->read(rewriter, loc, r); };
        }
        if (needB) {
          stagedB = std::make_unique<StagedBlock>(state, fromB, toB, element,
                                                  plan.b, plan.offsetB);
          stagedB->write(rewriter, loc, b);
          getB = [&](int64_t r) { return stagedB->read(rewriter, loc, r); };
        }
        barrier();
        staged = true;
      } else { // too big together: one conversion after the other
        if (needA)
          a = convertLayout(rewriter, loc, state, fromA, toA, a);
        if (needB)
          b = convertLayout(rewriter, loc, state, fromB, toB, b);
      }
    }
    SmallVector<Value> values;
    if (auto mma = dyn_cast<MmaEncodingAttr>(layout))
      values = mmaDot(rewriter, loc, op, *lookupMmaInstr(mma.getInstr()),
                      mma.getWarpsPerCTA(), getA, getB, adaptor.getAcc());
    else
      values = fmaDot(rewriter, loc, op, getA, getB, adaptor.getAcc());
    // AMD: nothing after the dot (in a K loop: the next tile's registers,
    // prefetched by ktc-pipeline-loads, gathered for their LDS write) is
    // scheduled among its matrix instructions; it would wait there for
    // those loads (s_waitcnt vmcnt(0) after the first MFMA).
    if (amd)
        LLVM::CallIntrinsicOp::create(
            rewriter, loc, rewriter.getStringAttr("llvm.amdgcn.sched.barrier"),
            ValueRange{i32Const(rewriter, loc, 0)});
    // The memory is reused by the next op that needs it.
    if (staged)
      barrier();
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }

  const LoweringState &state;
};

} // namespace

int64_t mlir::ktc::dotSharedBytes(DotOp op, const TargetInfo &target) {
  if (wgmmaOf(op))
    return wgmmaScratchBytes(op);
  Attribute layout = op.getType().getEncoding();
  int64_t bytes = 0;
  bool need[2];
  SmallVector<LinearLayout> from, to;
  for (unsigned i = 0; i < 2; ++i) {
    auto type = cast<RankedTensorType>(op->getOperand(i).getType());
    auto d = dyn_cast_or_null<DotOperandEncodingAttr>(type.getEncoding());
    need[i] = !bufferOperand(op, i) &&
              (!d || d.getOpIdx() != i || d.getParent() != layout);
    from.push_back(toLinearLayout(type));
    to.push_back(dotOperandLayout(op, i));
  }
  if (!need[0] && !need[1])
    return 0;
  Type element = op.getA().getType().getElementType();
  DotStaging plan = planDotStaging(from[0], to[0], from[1], to[1], element,
                                   target, need[0], need[1]);
  if (plan.bytes)
    return plan.bytes;
  for (unsigned i = 0; i < 2; ++i)
    if (need[i])
      bytes = std::max(bytes,
                       conversionSharedBytes(from[i], to[i], element, target));
  return bytes;
}

void mlir::ktc::populateDotPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    const LoweringState &state) {
  patterns.add<DotLowering>(converter, patterns.getContext(), state);
  populateWgmmaPatterns(converter, patterns);
}
