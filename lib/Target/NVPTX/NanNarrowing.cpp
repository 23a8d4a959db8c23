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
//===----------------------------------------------------------------------===//

#include "lib/Target/NVPTX/NanNarrowing.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

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

void keepNanSignInNarrowing(Module &module) {
  SmallVector<FPTruncInst *> narrowings;
  for (Function &f : module)
    for (Instruction &i : instructions(f))
      if (auto *t = dyn_cast<FPTruncInst>(&i)) {
        Type *to = t->getType()->getScalarType();
        Type *from = t->getSrcTy()->getScalarType();
        if ((to->isHalfTy() || to->isBFloatTy()) &&
            (from->isFloatTy() || from->isDoubleTy()))
          narrowings.push_back(t);
      }
  for (FPTruncInst *t : narrowings) {
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
}

} // namespace ktc::target
