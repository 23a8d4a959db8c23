//===- LoopOffsets.cpp - loop pointers' offsets ptxas would recompute ------===//
//
// A K loop's async copies read through pointers the loop carries, one per
// copy, each advanced by the same stride. LLVM's loop strength reduction
// carries one of them and rebuilds the others from loop-invariant byte
// offsets, `base + sext(x) * 2`; the NVPTX backend writes each offset as
// one `mul.wide.s32 %rd, %r, 2`. ptxas then keeps the 32-bit %r instead of
// the 64-bit offset and recomputes the address inside the loop with an
// IMAD.WIDE per copy. In the wgmma matmul those IMAD.WIDEs are where the
// loop's dispatch stalls were (Nsight Compute, session 16: 3,090 dispatch
// samples in the loop against Triton's 1,004), beside the tensor cores'
// instructions. Written as `cvt.s64.s32` + `shl.b64`, the offsets stay in
// registers, and the loop adds them with IADD3 + IMAD.X as Triton's does:
// on the H200, 4096^3 f16 went from 0.228-0.233 to 0.213-0.216 ms at
// 128x256x64 and from 0.240-0.268 to 0.234-0.235 ms at 128x128x32
// (session 17, call 1, three alternating rounds; docs/bench/h200/matmul.md).
//
// The backend forms mul.wide from a shift or multiply of a sign extension
// it can see, so the extension that gives a loop-carried pointer its
// starting offset becomes an opaque `cvt.s64.s32` (inline PTX, the same
// instruction the backend writes for it). Only those extensions change: a
// 32-bit index of a pointer in the global or generic address space, the
// start of a phi in a loop's header, elements wider than a byte (a byte
// offset needs no multiply).
//
//===----------------------------------------------------------------------===//

#include "lib/Target/NVPTX/LoopOffsets.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"

namespace ktc::target {

using namespace llvm;

/// The sign extensions that index, element by element, the chain of
/// getelementptrs `start` is made by.
static void collectStartOffsets(Value *start, const DataLayout &layout,
                                SmallSetVector<SExtInst *, 16> &found) {
  auto *gep = dyn_cast<GetElementPtrInst>(start);
  for (int depth = 0; gep && depth < 8; ++depth) {
    unsigned space = gep->getPointerAddressSpace();
    if ((space != 0 && space != 1) || gep->getNumIndices() != 1)
      return;
    auto *ext = dyn_cast<SExtInst>(gep->getOperand(1));
    if (ext && ext->getSrcTy()->isIntegerTy(32) &&
        ext->getDestTy()->isIntegerTy(64) &&
        layout.getTypeAllocSize(gep->getSourceElementType()) > 1)
      found.insert(ext);
    gep = dyn_cast<GetElementPtrInst>(gep->getPointerOperand());
  }
}

void keepLoopOffsetsInRegisters(Module &module) {
  const DataLayout &layout = module.getDataLayout();
  for (Function &f : module) {
    if (f.isDeclaration())
      continue;
    DominatorTree dt(f);
    LoopInfo li(dt);
    SmallSetVector<SExtInst *, 16> found;
    for (Loop *loop : li.getLoopsInPreorder())
      for (PHINode &phi : loop->getHeader()->phis())
        if (phi.getType()->isPointerTy())
          for (unsigned i = 0, e = phi.getNumIncomingValues(); i != e; ++i)
            if (!loop->contains(phi.getIncomingBlock(i)))
              collectStartOffsets(phi.getIncomingValue(i), layout, found);
    if (found.empty())
      continue;
    LLVMContext &context = module.getContext();
    auto *type = FunctionType::get(Type::getInt64Ty(context),
                                   {Type::getInt32Ty(context)}, false);
    auto *cvt = InlineAsm::get(type, "cvt.s64.s32 $0, $1;", "=l,r",
                               /*hasSideEffects=*/false);
    for (SExtInst *ext : found) {
      auto *opaque =
          CallInst::Create(type, cvt, {ext->getOperand(0)}, ext->getName(),
                           ext->getIterator());
      opaque->setDoesNotAccessMemory();
      opaque->setDoesNotThrow();
      ext->replaceAllUsesWith(opaque);
      ext->eraseFromParent();
    }
  }
}

} // namespace ktc::target
