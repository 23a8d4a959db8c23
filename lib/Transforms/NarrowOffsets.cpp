//===- NarrowOffsets.cpp - pointers reached through i32 offsets only -------===//

#include "NarrowOffsets.h"

#include "dialect/KtcDialect.h"
#include "dialect/KtcPasses.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir::ktc {
#define GEN_PASS_DEF_KTCTESTNARROWOFFSETS
#include "dialect/KtcPasses.h.inc"
} // namespace mlir::ktc

using namespace mlir;
using namespace mlir::ktc;

/// Per kernel argument, whether some load or store reaches that pointer
/// through ktc.addptr ops with i32 offsets and none with i64 ones. Such
/// offsets overflow before they index element 2^31, so a larger buffer is
/// refused at launch. Conservative: every pointer that flows into a value
/// (through loops, branches, selects, splats) counts as its source.
std::vector<bool> mlir::ktc::narrowlyIndexedArgs(func::FuncOp func) {
  enum : uint8_t { Direct, Narrow, Wide }; // the offsets seen so far
  std::vector<bool> narrow(func.getNumArguments(), false);
  llvm::DenseSet<std::pair<Value, uint8_t>> seen;
  llvm::SmallVector<std::pair<Value, uint8_t>> work;
  auto push = [&](Value v, uint8_t state) {
    if (isa<ktc::PtrType>(getElementTypeOrSelf(v.getType())) &&
        seen.insert({v, state}).second)
      work.push_back({v, state});
  };
  // What flows into `op`: its operands and its regions' yields.
  auto pushInputs = [&](Operation *op, uint8_t state) {
    for (Value operand : op->getOperands())
      push(operand, state);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (!block.empty() && block.back().hasTrait<OpTrait::IsTerminator>())
          for (Value operand : block.back().getOperands())
            push(operand, state);
  };
  func.walk([&](Operation *op) {
    if (auto load = dyn_cast<ktc::LoadOp>(op))
      push(load.getPtr(), Direct);
    else if (auto store = dyn_cast<ktc::StoreOp>(op))
      push(store.getPtr(), Direct);
  });
  while (!work.empty()) {
    auto [value, state] = work.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      Operation *owner = arg.getOwner()->getParentOp();
      if (owner == func.getOperation()) {
        if (state == Narrow)
          narrow[arg.getArgNumber()] = true;
      } else {
        pushInputs(owner, state); // a loop's or a branch's argument
      }
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (auto add = dyn_cast<ktc::AddPtrOp>(def)) {
      bool wide = getElementTypeOrSelf(add.getOffset().getType())
                      .isInteger(64);
      push(add.getPtr(), wide || state == Wide ? Wide : Narrow);
      continue;
    }
    pushInputs(def, state);
  }
  return narrow;
}

namespace {
struct KtcTestNarrowOffsetsPass
    : mlir::ktc::impl::KtcTestNarrowOffsetsBase<KtcTestNarrowOffsetsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    std::vector<bool> narrow = narrowlyIndexedArgs(func);
    for (auto [i, n] : llvm::enumerate(narrow))
      if (n)
        func.emitRemark() << "argument " << i << " is reached through i32 "
                          << "offsets only";
  }
};
} // namespace
