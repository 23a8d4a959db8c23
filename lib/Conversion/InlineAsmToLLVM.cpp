//===- InlineAsmToLLVM.cpp - ktc.inline_asm_elementwise on GPUs -----------===//
//
// Each thread runs the assembly on the elements it holds, `pack` at a
// time (InlineAsmEmit.h packs them into registers). The operands and
// results share one layout (ktc-assign-layouts joins them), so slot k of
// every operand and result is the same element. A thread holding a number
// of elements that `pack` does not divide (a block smaller than the
// threads' tile: each thread holds a copy of one element) fills its last
// group with copies of that group's first element and drops their
// results: the assembly treats each element on its own.
//
// The assembly is the target's own entry (TargetInfo::inlineAsmKey), else
// the "any" one; with neither the kernel cannot be compiled for this
// target, an error at the op's (the user's) line.
//
//===----------------------------------------------------------------------===//

#include "InlineAsmEmit.h"
#include "Lowering.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::ktc;

namespace {

struct InlineAsmLowering : OpConversionPattern<InlineAsmElementwiseOp> {
  InlineAsmLowering(const TypeConverter &converter, MLIRContext *ctx,
                    const LoweringState &state)
      : OpConversionPattern(converter, ctx), state(state) {}
  const LoweringState &state;

  LogicalResult
  matchAndRewrite(InlineAsmElementwiseOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    StringRef key = state.target->inlineAsmKey();
    ArrayAttr entry = op.entryFor(key);
    if (!entry) {
      SmallVector<StringRef> have;
      for (NamedAttribute e : op.getAsmByTarget())
        have.push_back(e.getName().getValue());
      return op.emitError("inline_asm_elementwise has no assembly for ")
             << key << " (" << state.target->arch() << "); it has "
             << llvm::join(have, ", ") << ": add an \"" << key
             << "\" or \"any\" entry";
    }
    // Slots per thread: the result's registers (a scalar is one).
    int64_t slots = 1;
    if (auto type = dyn_cast<RankedTensorType>(op.getResult(0).getType())) {
      for (Type t : llvm::concat<Type>(op.getArgs().getTypes(),
                                       op.getResultTypes()))
        if (cast<RankedTensorType>(t).getEncoding() != type.getEncoding())
          return op.emitError("operands and results of "
                              "inline_asm_elementwise must share one "
                              "layout: run ktc-assign-layouts first");
      slots = toLinearLayout(type).numRegisters();
    }
    int64_t pack = op.getPack();
    SmallVector<SmallVector<Value>> results(op.getNumResults());
    for (int64_t first = 0; first < slots; first += pack) {
      SmallVector<SmallVector<Value>> group;
      for (ValueRange arg : adaptor.getArgs()) {
        SmallVector<Value> &elements = group.emplace_back();
        for (int64_t k = first; k < first + pack; ++k)
          elements.push_back(arg[k < slots ? k : first]);
      }
      SmallVector<SmallVector<Value>> out =
          emitInlineAsmGroup(rewriter, loc, op, entry, group);
      for (auto [all, mine] : llvm::zip(results, out))
        all.append(mine.begin(),
                   mine.begin() + std::min(pack, slots - first));
    }
    rewriter.replaceOpWithMultiple(op, std::move(results));
    return success();
  }
};

} // namespace

void mlir::ktc::populateInlineAsmPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns,
                                          const LoweringState &state) {
  patterns.add<InlineAsmLowering>(converter, patterns.getContext(), state);
}
