//===- PrintLayouts.cpp - the ktc-test-print-layouts pass ------------------===//
//
// See KtcTestPrintLayouts in KtcPasses.td: the picture of a layout that
// docs/gpu-lowering.md shows is this pass's output, pinned in
// test/Transforms/print-layouts.mlir.
//
//===----------------------------------------------------------------------===//

#include "dialect/KtcPasses.h"
#include "dialect/LinearLayout.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::ktc {
#define GEN_PASS_DEF_KTCTESTPRINTLAYOUTS
#include "dialect/KtcPasses.h.inc"
} // namespace mlir::ktc

using namespace mlir;
using namespace mlir::ktc;

namespace {
struct KtcTestPrintLayoutsPass
    : mlir::ktc::impl::KtcTestPrintLayoutsBase<KtcTestPrintLayoutsPass> {
  void runOnOperation() override {
    getOperation().walk([](func::FuncOp func) {
      for (BlockArgument arg : func.getArguments()) {
        auto type = dyn_cast<RankedTensorType>(arg.getType());
        if (!type || !isLayout(type.getEncoding()))
          continue;
        LinearLayout layout = toLinearLayout(type);
        llvm::outs() << "@" << func.getSymName() << " argument "
                     << arg.getArgNumber() << ": " << layout.str() << "\n"
                     << layout.table();
      }
    });
    markAllAnalysesPreserved();
  }
};
} // namespace
