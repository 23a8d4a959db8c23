//===- NanNarrowing.cpp - f32/f64 -> f16/bf16 keep a NaN's sign on NVIDIA --===//
//
// NVIDIA's narrowing conversions (cvt.rn.f16.f32, cvt.rn.bf16.f32 and
// their f64 forms) turn every NaN into the canonical one, 0x7fff: a
// negative NaN comes out positive. Every other target of ktc, and IEEE
// 754's recommendation, keeps the sign and the top payload bits and sets
// the quiet bit (the host: ktc-host-expand-half-floats; compiler-rt's
// __truncdfhf2; llvm::APFloat). Found by TypesCast.Fp8*EveryCodeAndEveryHalf
// on the H200: fp8's negative NaN codes, widened to f16/bf16 through f32,
// came out as +NaN.
//
// So before LLVM's optimiser, each `fptrunc` to half or bfloat (scalar or
// vector) from float or double becomes
//
//     isnan(x) ? sign(x) | quiet NaN | x's top payload bits : fptrunc(x)
//
// (for f32 -> f16: (u >> 16 & 0x8000) | 0x7e00 | (u >> 13 & 0x3ff)), the
// same bits as the host's. LLVM drops the select where it knows x is not a
// NaN (a conversion from an integer, a clamp); elsewhere it costs a
// `testp.notanumber`, a few logic operations and a `selp` per element.
//
// A block's many narrowings (a matmul's epilogue converts 128 accumulators
// a thread) are versioned instead: one test of all their inputs (`fcmp
// uno`, which LLVM pairs up: one `setp.nan` for two), then either the
// plain conversions (cvt.rn.f16x2.f32, one for two) or, where some input
// is a NaN, the conversions with the selects above. A 128x256x64 f16
// matmul's epilogue (sm_90a): about 1400 SASS instructions a thread before,
// 64 setp.nan + 64 cvt + the stores (about 230) on the path without NaNs;
// its time at 4096^3 on an H200 did not change measurably (session 16).
//
//===----------------------------------------------------------------------===//

#include "lib/Target/NVPTX/NanNarrowing.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace ktc::target {

using namespace llvm;

/// The host's NaN of the narrower type for the NaN `x` (bits `u`, of the
/// integer type as wide as x).
static Value *narrowNan(IRBuilder<> &b, Value *u, Type *from, Type *to) {
  Type *fromElement = from->getScalarType();
  Type *toElement = to->getScalarType();
  unsigned w = fromElement->getPrimitiveSizeInBits();
  unsigned m = fromElement->getFPMantissaWidth() - 1; // stored bits
  unsigned n = toElement->getFPMantissaWidth() - 1;   // 10 (f16), 7 (bf16)
  Type *i16 = b.getInt16Ty();
  if (auto *vector = dyn_cast<VectorType>(from))
    i16 = VectorType::get(i16, vector->getElementCount());
  auto c = [&](uint64_t v) { return ConstantInt::get(u->getType(), v); };
  auto c16 = [&](uint64_t v) { return ConstantInt::get(i16, v); };
  Value *sign = b.CreateTrunc(b.CreateLShr(u, c(w - 16)), i16);
  sign = b.CreateAnd(sign, c16(0x8000));
  Value *payload = b.CreateTrunc(b.CreateLShr(u, c(m - n)), i16);
  payload = b.CreateAnd(payload, c16((1u << n) - 1));
  // Every exponent bit and the quiet bit (the payload's top one).
  uint64_t quiet = ((uint64_t(1) << (15 - n)) - 1) << n | 1u << (n - 1);
  return b.CreateOr(b.CreateOr(sign, payload), c16(quiet));
}

/// Whether `t` is a narrowing to keep a NaN's sign in: to half or bfloat,
/// from float or double.
static bool isNarrowing(const Instruction &i) {
  auto *t = dyn_cast<FPTruncInst>(&i);
  if (!t)
    return false;
  Type *to = t->getType()->getScalarType();
  Type *from = t->getSrcTy()->getScalarType();
  return (to->isHalfTy() || to->isBFloatTy()) &&
         (from->isFloatTy() || from->isDoubleTy());
}

/// `t`'s uses (but the select's own) take `isnan(x) ? host's NaN : t`.
static void keepNanSign(FPTruncInst *t) {
  IRBuilder<> b(t->getNextNode());
  Value *x = t->getOperand(0);
  Type *from = x->getType();
  Type *bits = b.getIntNTy(from->getScalarSizeInBits());
  if (auto *vector = dyn_cast<VectorType>(from))
    bits = VectorType::get(bits, vector->getElementCount());
  Value *nan = b.CreateBitCast(
      narrowNan(b, b.CreateBitCast(x, bits), from, t->getType()),
      t->getType());
  Value *isNan = b.CreateFCmpUNO(x, x);
  auto *select = cast<Instruction>(b.CreateSelect(isNan, nan, t));
  t->replaceUsesWithIf(select,
                       [&](Use &use) { return use.getUser() != select; });
}

/// The narrowings of `block` from the first to the last, if there are at
/// least `atLeast`, nothing between them touches memory or has other
/// effects, and their inputs are all defined before the first: then
/// `first` and `last`.
static bool versionable(BasicBlock &block, unsigned atLeast,
                        Instruction *&first, Instruction *&last) {
  first = last = nullptr;
  unsigned count = 0;
  for (Instruction &i : block)
    if (isNarrowing(i)) {
      first = first ? first : &i;
      last = &i;
      ++count;
    }
  if (count < atLeast)
    return false;
  SmallPtrSet<Instruction *, 32> region;
  for (Instruction *i = first;; i = i->getNextNode()) {
    if (i->mayHaveSideEffects() || i->mayReadOrWriteMemory() ||
        isa<PHINode>(i) || i->isTerminator())
      return false;
    if (isNarrowing(*i))
      if (auto *x = dyn_cast<Instruction>(i->getOperand(0));
          x && region.contains(x))
        return false;
    region.insert(i);
    if (i == last)
      return true;
  }
}

/// Splits `block` around its narrowings [first, last] into a test of all
/// their inputs for NaNs, the narrowings as they are (no NaN) and a clone
/// of them that keeps each NaN's sign, joined by phis.
static void version(Instruction *first, Instruction *last) {
  BasicBlock *head = first->getParent();
  BasicBlock *fast = head->splitBasicBlock(first, "narrow.fast");
  BasicBlock *tail =
      fast->splitBasicBlock(last->getNextNode(), "narrow.join");
  // Any NaN among the inputs.
  IRBuilder<> b(head->getTerminator());
  Value *any = nullptr;
  for (Instruction &i : *fast) {
    if (!isNarrowing(i))
      continue;
    Value *isNan = b.CreateFCmpUNO(i.getOperand(0), i.getOperand(0));
    if (isNan->getType()->isVectorTy())
      isNan = b.CreateOrReduce(isNan);
    any = any ? b.CreateOr(any, isNan) : isNan;
  }
  ValueToValueMapTy map;
  BasicBlock *slow = CloneBasicBlock(fast, map, ".nan", head->getParent());
  slow->moveAfter(fast);
  SmallVector<BasicBlock *, 1> blocks{slow};
  remapInstructionsInBlocks(blocks, map);
  head->getTerminator()->eraseFromParent();
  BranchInst::Create(slow, fast, any, head);
  // Every value the region defines and is used after it: a phi.
  IRBuilder<> join(tail, tail->begin());
  for (Instruction &i : *fast) {
    if (i.isTerminator() || i.use_empty())
      continue;
    SmallVector<Use *> outside;
    for (Use &use : i.uses())
      if (cast<Instruction>(use.getUser())->getParent() != fast)
        outside.push_back(&use);
    if (outside.empty())
      continue;
    PHINode *phi = join.CreatePHI(i.getType(), 2);
    phi->addIncoming(&i, fast);
    phi->addIncoming(map[&i], slow);
    for (Use *use : outside)
      use->set(phi);
  }
  SmallVector<FPTruncInst *> narrowings;
  for (Instruction &i : *slow)
    if (isNarrowing(i))
      narrowings.push_back(cast<FPTruncInst>(&i));
  for (FPTruncInst *t : narrowings)
    keepNanSign(t);
}

void keepNanSignInNarrowing(Module &module) {
  // Blocks with this many narrowings or more are versioned.
  constexpr unsigned kVersionAtLeast = 8;
  SmallVector<std::pair<Instruction *, Instruction *>> versioned;
  SmallVector<FPTruncInst *> narrowings;
  for (Function &f : module)
    for (BasicBlock &block : f) {
      Instruction *first, *last;
      if (versionable(block, kVersionAtLeast, first, last)) {
        versioned.push_back({first, last});
        continue;
      }
      for (Instruction &i : block)
        if (isNarrowing(i))
          narrowings.push_back(cast<FPTruncInst>(&i));
    }
  for (auto [first, last] : versioned)
    version(first, last);
  for (FPTruncInst *t : narrowings)
    keepNanSign(t);
}

} // namespace ktc::target
