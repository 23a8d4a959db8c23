//===- PtxasLoops.cpp - keep ptxas from unrolling loops it miscounts ------===//
//
// ptxas (CUDA 13.0's, and the driver's JIT of the H200 runs of session 10)
// unrolls a loop whose induction variable steps AWAY from its exit, such
//
//     r = k + 1;  do { r -= 1; } while (r < 0);
//
// as if it counted towards it: it takes (r - 0) / 1 as the trip count and
// runs the loop 42 times for k = 41, storing 0 instead of 41 (the loop of
// `while_([&] { return v < 0; }, [&] { v = v - 1; })`, test While.
// FalseAtOnceRunsNothing). The SASS shows it: an unrolled-by-4 body
// `IADD R, R, -4` while R > 3, then a remainder. Such a loop runs once or
// until its variable wraps around (unsigned: a real use, e.g.
// `do { u -= 1; } while (u < 10u)` from u = 5), so unrolling buys nothing
// for it; with `.pragma "nounroll"` ptxas keeps the loop as written and
// gets it right. Loops that step towards their exit (every for_range, and
// the usual while_) are left alone.
//
// The loops are found on the optimised LLVM IR, just before the NVPTX
// backend, by ScalarEvolution: an exit branch on an integer compare of an
// affine recurrence {start, +, step} of the loop (step a constant) with a
// loop-invariant value, whose condition to stay in the loop is "less than"
// for a negative step or "greater than" for a positive one (signed or
// unsigned). They get llvm.loop.unroll.disable, which the NVPTX printer
// writes as `.pragma "nounroll";` at the loop's header.
//
//===----------------------------------------------------------------------===//

#include "lib/Target/NVPTX/PtxasLoops.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

namespace ktc::target {

using namespace llvm;

/// Whether an exit of `loop` through `exiting` stays in the loop while an
/// affine recurrence moves away from the bound it is compared with.
static bool stepsAwayFromExit(ScalarEvolution &se, Loop &loop,
                              BasicBlock *exiting) {
  auto *branch = dyn_cast<BranchInst>(exiting->getTerminator());
  if (!branch || !branch->isConditional())
    return false;
  auto *cmp = dyn_cast<ICmpInst>(branch->getCondition());
  if (!cmp || !cmp->getOperand(0)->getType()->isIntegerTy())
    return false;
  // The predicate under which the loop goes on.
  CmpInst::Predicate stay = loop.contains(branch->getSuccessor(0))
                                ? cmp->getPredicate()
                                : cmp->getInversePredicate();
  const SCEV *lhs = se.getSCEV(cmp->getOperand(0));
  const SCEV *rhs = se.getSCEV(cmp->getOperand(1));
  auto *rec = dyn_cast<SCEVAddRecExpr>(lhs);
  const SCEV *bound = rhs;
  if (!rec || rec->getLoop() != &loop) {
    rec = dyn_cast<SCEVAddRecExpr>(rhs);
    bound = lhs;
    stay = CmpInst::getSwappedPredicate(stay);
  }
  if (!rec || rec->getLoop() != &loop || !rec->isAffine() ||
      !se.isLoopInvariant(bound, &loop))
    return false;
  auto *step = dyn_cast<SCEVConstant>(rec->getStepRecurrence(se));
  if (!step || step->getValue()->isZero())
    return false;
  bool down = step->getAPInt().isNegative();
  bool less = ICmpInst::isLT(stay) || ICmpInst::isLE(stay);
  bool greater = ICmpInst::isGT(stay) || ICmpInst::isGE(stay);
  return down ? less : greater;
}

static void markLoops(ScalarEvolution &se, Loop &loop) {
  for (Loop *inner : loop)
    markLoops(se, *inner);
  SmallVector<BasicBlock *, 4> exiting;
  loop.getExitingBlocks(exiting);
  for (BasicBlock *block : exiting)
    if (stepsAwayFromExit(se, loop, block)) {
      addStringMetadataToLoop(&loop, "llvm.loop.unroll.disable");
      return;
    }
}

void keepPtxasFromMiscountingLoops(Module &module) {
  for (Function &f : module) {
    if (f.isDeclaration())
      continue;
    DominatorTree dt(f);
    LoopInfo li(dt);
    if (li.empty())
      continue;
    TargetLibraryInfoImpl tlii(module.getTargetTriple());
    TargetLibraryInfo tli(tlii, &f);
    AssumptionCache ac(f);
    ScalarEvolution se(f, tli, ac, dt, li);
    for (Loop *loop : li)
      markLoops(se, *loop);
  }
}

} // namespace ktc::target
