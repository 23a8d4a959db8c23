//===- WgmmaToLLVM.cpp - ktc.dot as wgmma on sm_90a ------------------------===//
//
// On Hopper (sm_90a) a warpgroup -- 4 consecutive warps -- multiplies a
// 64 x n tile of A by an n-wide tile of B with one wgmma.mma_async, reading
// both operands from shared memory through 64-bit matrix descriptors and
// accumulating into registers laid out as #ktc.mma "wgmma64x<n>x16_*"
// (dialect/MmaLayouts.cpp). The operands lie in shared memory as
// wgmmaOperandLayout says (SharedBuffers.h): A K-major, B N-major (as they
// lie in global memory; the instruction's transpose bit for B), cut in
// column blocks of 32, 64 or 128 bytes swizzled as the descriptor's mode of
// that width. A descriptor is
//
//   bits  0-13  start address >> 4       bits 32-45  stride offset >> 4
//   bits 16-29  leading offset >> 4      bits 62-63  1: 128 B, 2: 64 B, 3: 32 B
//
// the stride offset being the step between groups of 8 rows (8 rows of one
// column block), the leading one the step between column blocks (B's N
// blocks; A's K never leaves a block within one instruction).
//
// Operands come from a buffer slot that ktc-pipeline-async filled with
// cp.async in this layout; any other operand (a dot outside a pipelined
// loop, or fed by arithmetic) is first written to scratch in it, then
// fenced for the async proxy and a barrier. One dot is:
//
//   wgmma.fence; the instructions (K outermost); wgmma.commit_group;
//   wgmma.wait_group 0
//
// with the accumulator registers passed through the wait (an inline asm that
// ties them), so that nothing reads them before the instructions finish.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"
#include "SharedBuffers.h"
#include "Staging.h"

#include "dialect/DotOp.h"
#include "dialect/MmaLayouts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::ktc;

namespace {

Value i64Const(OpBuilder &b, Location loc, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                  b.getI64IntegerAttr(v));
}

/// The descriptor bits every descriptor of an operand laid out as `l`
/// shares: offsets and swizzle mode.
int64_t descriptorBits(const SharedLayout &l, int64_t elementBytes,
                       int64_t leadingBytes) {
  int64_t width = l.split * elementBytes; // 32, 64 or 128
  int64_t mode = width == 128 ? 1 : width == 64 ? 2 : 3;
  int64_t stride = 8 * width;             // 8 rows of one column block
  return (leadingBytes >> 4) << 16 | (stride >> 4) << 32 | mode << 62;
}

/// An operand's place in shared memory: its start (i32 bytes) and layout.
struct WgmmaOperand {
  Value start;
  SharedLayout layout;
};

/// `text` as an inline asm with side effects: `results` f32 outputs tied
/// to the first operands.
Value inlineAsm(OpBuilder &b, Location loc, Type result, ValueRange operands,
                StringRef text, StringRef constraints) {
  auto op = LLVM::InlineAsmOp::create(
      b, loc, result ? TypeRange{result} : TypeRange{}, operands, text,
      constraints, /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr());
  return result ? op.getResult(0) : Value();
}

/// "=f,=f,...,0,1,..." for `n` tied f32 registers, then `extra`.
std::string tiedConstraints(int64_t n, StringRef extra) {
  std::string c;
  for (int64_t i = 0; i < n; ++i)
    c += "=f,";
  for (int64_t i = 0; i < n; ++i)
    c += std::to_string(i) + ",";
  c += extra;
  if (!c.empty() && c.back() == ',')
    c.pop_back();
  return c;
}

/// Waits until at most `pending` groups of the warpgroup's instructions
/// are in flight, passing `values` (the accumulators) through so that
/// their uses follow the wait.
SmallVector<Value> waitGroup(OpBuilder &b, Location loc, ValueRange values,
                             int64_t pending) {
  std::string wait =
      "wgmma.wait_group.sync.aligned " + std::to_string(pending) + ";";
  // One asm per 64 registers keeps each statement's operand list short.
  SmallVector<Value> out;
  Type f32 = b.getF32Type();
  for (size_t at = 0; at < values.size(); at += 64) {
    size_t n = std::min<size_t>(64, values.size() - at);
    auto type = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                 SmallVector<Type>(n, f32));
    Value r = inlineAsm(b, loc, type, values.slice(at, n),
                        at == 0 ? wait : "",
                        tiedConstraints(n, "~{memory}"));
    for (size_t i = 0; i < n; ++i)
      out.push_back(LLVM::ExtractValueOp::create(b, loc, r, i));
  }
  return out;
}

} // namespace

int64_t mlir::ktc::wgmmaScratchBytes(DotOp dot) {
  if (!wgmmaOf(dot))
    return 0;
  int64_t bytes = 0;
  for (unsigned i = 0; i < 2; ++i)
    if (!bufferOperand(dot, i)) {
      auto type = cast<RankedTensorType>(dot->getOperand(i).getType());
      bytes = llvm::alignTo(bytes, 1024) +
              type.getNumElements() * sharedBytes(type.getElementType());
    }
  return bytes;
}

SmallVector<Value> mlir::ktc::wgmmaDot(ConversionPatternRewriter &b,
                                       Location loc, const LoweringState &state,
                                       DotOp op, const MmaInstr &instr,
                                       ArrayRef<unsigned> warps, ValueRange a,
                                       ValueRange bv, ValueRange acc) {
  RankedTensorType at = op.getA().getType(), bt = op.getB().getType();
  int64_t M = at.getDimSize(0), K = at.getDimSize(1), N = bt.getDimSize(1);
  Type element = at.getElementType();
  int64_t e = sharedBytes(element);
  // Where each operand is: its slot, or scratch written here.
  WgmmaOperand operands[2];
  int64_t scratch = 0;
  bool staged = false;
  for (unsigned i = 0; i < 2; ++i) {
    auto type = cast<RankedTensorType>(op->getOperand(i).getType());
    SharedLayout want = wgmmaOperandLayout(instr, i, type.getShape(), e);
    operands[i].layout = want;
    if (LocalLoadOp load = bufferOperand(op, i)) {
      auto alloc = load.getBuffer().getDefiningOp<LocalAllocOp>();
      Value slot = slotStart(b, loc, state, alloc,
                             b.getRemappedValue(load.getSlot()));
      operands[i].start =
          arith::MulIOp::create(b, loc, slot, i32Const(b, loc, e));
      continue;
    }
    scratch = llvm::alignTo(scratch, 1024);
    LinearLayout from = toLinearLayout(type);
    SharedPlan plan;
    plan.shared = want;
    plan.writeVector = std::min(vectorOf(from, e, true), want.vec);
    StagedBlock block(state, from, from, element, plan, scratch);
    block.write(b, loc, i == 0 ? a : bv);
    operands[i].start = i32Const(b, loc, scratch);
    scratch += type.getNumElements() * e;
    staged = true;
  }
  if (staged) {
    // Written by this thread's ordinary stores, read by the async proxy.
    inlineAsm(b, loc, Type(), {}, "fence.proxy.async.shared::cta;", "~{memory}");
    state.target->barrier(b, loc);
  }
  // The warpgroup's tile: warp bits 2.. run along M (warpgroups), then N.
  unsigned groupsM = warps[0] / 4, groupsN = warps[1];
  int64_t wm = std::min<int64_t>(groupsM, M / 64),
          wn = std::min<int64_t>(groupsN, N / instr.n);
  int64_t repM = M / (64 * wm), repN = N / (int64_t(instr.n) * wn),
          repK = K / 16;
  // (Uniform: the descriptors built from it then stay in uniform
  // registers, as the wgmma instructions want them.)
  Value group = state.target->waveUniform(
      b, loc,
      arith::ShRUIOp::create(b, loc, state.target->threadId(b, loc),
                             i32Const(b, loc, 7)));
  Value groupM = arith::AndIOp::create(b, loc, group, i32Const(b, loc, wm - 1));
  Value groupN = arith::AndIOp::create(
      b, loc,
      arith::ShRUIOp::create(b, loc, group,
                             i32Const(b, loc, llvm::Log2_64(groupsM))),
      i32Const(b, loc, wn - 1));
  // A: rows 64 (groupM + wm m) of K block k0 / wa, column k0 % wa;
  // B: N block n0 / wb (n0 = n (groupN + wn n)), rows k0.
  const SharedLayout &la = operands[0].layout, &lb = operands[1].layout;
  int64_t wa = la.split, wb = lb.split;
  auto base = [&](Value start, Value group, int64_t step) {
    Value bytes = arith::AddIOp::create(
        b, loc, start,
        arith::MulIOp::create(b, loc, group, i32Const(b, loc, step)));
    // The shared window's address of the kernel's shared memory + bytes.
    Value ptr = sharedElement(b, loc, state, b.getI8Type(), bytes);
    Value addr = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), ptr);
    return LLVM::LShrOp::create(b, loc, addr, i64Const(b, loc, 4));
  };
  Value baseA = base(operands[0].start, groupM, 64 * wa * e);
  Value baseB = base(operands[1].start, groupN, int64_t(instr.n) / wb * K * wb * e);
  int64_t bitsA = descriptorBits(la, e, 0);
  int64_t bitsB = descriptorBits(lb, e, K * wb * e);
  auto descA = [&](int64_t m, int64_t k) {
    int64_t k0 = 16 * k;
    int64_t bytes = k0 / wa * M * wa * e + 64 * wm * m * wa * e + k0 % wa * e;
    return LLVM::AddOp::create(b, loc, baseA,
                               i64Const(b, loc, (bytes >> 4) | bitsA));
  };
  auto descB = [&](int64_t k, int64_t n) {
    int64_t n0 = int64_t(instr.n) * wn * n;
    int64_t bytes = n0 / wb * K * wb * e + 16 * k * wb * e;
    return LLVM::AddOp::create(b, loc, baseB,
                               i64Const(b, loc, (bytes >> 4) | bitsB));
  };

  int64_t nC = instr.cRegisters();
  SmallVector<Value> out(acc);
  Type f32 = b.getF32Type();
  auto result = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                 SmallVector<Type>(nC, f32));
  std::string regs;
  for (int64_t i = 0; i < nC; ++i)
    regs += (i ? ",$" : "$") + std::to_string(i);
  // scale-d = 1 (accumulate), A and B scales 1, A K-major, B N-major.
  std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, $" +
                     std::to_string(2 * nC + 2) + ", 0;\n" +
                     instr.intrinsic.str() + " {" + regs + "}, $" +
                     std::to_string(2 * nC) + ", $" +
                     std::to_string(2 * nC + 1) + ", p, 1, 1, 0, 1;\n}";
  std::string constraints = tiedConstraints(nC, "l,l,r");
  Value one = i32Const(b, loc, 1);
  LLVM::CallIntrinsicOp::create(
      b, loc, b.getStringAttr("llvm.nvvm.wgmma.fence.sync.aligned"),
      ValueRange{});
  for (int64_t k = 0; k < repK; ++k)
    for (int64_t m = 0; m < repM; ++m)
      for (int64_t n = 0; n < repN; ++n) {
        int64_t c0 = nC * (n + repN * m);
        SmallVector<Value> args(ArrayRef<Value>(out).slice(c0, nC));
        args.push_back(descA(m, k));
        args.push_back(descB(k, n));
        args.push_back(one);
        Value d = inlineAsm(b, loc, result, args, text, constraints);
        for (int64_t c = 0; c < nC; ++c)
          out[c0 + c] = LLVM::ExtractValueOp::create(b, loc, d, c);
      }
  LLVM::CallIntrinsicOp::create(
      b, loc,
      b.getStringAttr("llvm.nvvm.wgmma.commit_group.sync.aligned"),
      ValueRange{});
  // In a pipelined loop the dot may return with its group in flight
  // (ktc-pipeline-async's ktc.dot_pending; a ktc.dot_wait follows the loop).
  int64_t pending = 0;
  if (auto attr = op->getAttrOfType<IntegerAttr>(kDotPendingAttr))
    pending = attr.getInt();
  out = waitGroup(b, loc, out, pending);
  // Scratch is reused by the next op that needs it.
  if (staged)
    state.target->barrier(b, loc);
  return out;
}

namespace {
struct DotWaitLowering : OpConversionPattern<DotWaitOp> {
  using OpConversionPattern<DotWaitOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DotWaitOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> values(adaptor.getAcc());
    rewriter.replaceOpWithMultiple(
        op, {waitGroup(rewriter, op.getLoc(), values, op.getPending())});
    return success();
  }
};
} // namespace

void mlir::ktc::populateWgmmaPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns) {
  patterns.add<DotWaitLowering>(converter, patterns.getContext());
}
