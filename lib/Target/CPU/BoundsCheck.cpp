//===- BoundsCheck.cpp - checked loads and stores on the host --------------===//

#include "BoundsCheck.h"

#include "dialect/KtcDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"

#include <string>

using namespace mlir;
using namespace mlir::ktc;

/// The kernel argument `ptr` is computed from, when the IR says so plainly.
static int64_t sourceArgument(Value ptr, func::FuncOp kernel) {
  while (true) {
    if (auto arg = dyn_cast<BlockArgument>(ptr))
      return arg.getOwner()->getParentOp() == kernel.getOperation()
                 ? int64_t(arg.getArgNumber())
                 : -1;
    Operation *def = ptr.getDefiningOp();
    if (auto add = dyn_cast<AddPtrOp>(def))
      ptr = add.getPtr();
    else if (isa<SplatOp, BroadcastOp, ExpandDimsOp, TransOp, ReshapeOp>(
                 def))
      ptr = def->getOperand(0);
    else
      return -1; // a select, a loop-carried pointer, ...
  }
}

/// "load\nFILE\nLINE\nCOLUMN" for `op`.
static std::string siteText(Operation *op) {
  std::string text = isa<LoadOp>(op) ? "load" : "store";
  if (auto file = op->getLoc()->findInstanceOf<FileLineColLoc>())
    text += "\n" + file.getFilename().str() + "\n" +
            std::to_string(file.getLine()) + "\n" +
            std::to_string(file.getColumn());
  return text;
}

void mlir::ktc::prepareCheckedAccesses(func::FuncOp kernel,
                                       CheckedAccesses &sites) {
  kernel->removeAttr(KtcDialect::getCheckBoundsAttrName());
  MLIRContext *ctx = kernel.getContext();
  OpBuilder b(ctx);
  Location loc = kernel.getLoc();
  (void)kernel.insertArgument(kernel.getNumArguments(), b.getI64Type(), {},
                              loc);
  b.setInsertionPointToStart(&kernel.getBody().front());
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  Value hook = LLVM::IntToPtrOp::create(b, loc, ptr, kernel.getArguments().back());

  auto module = kernel->getParentOfType<ModuleOp>();
  OpBuilder globals(ctx);
  globals.setInsertionPointToStart(module.getBody());
  kernel.walk([&](Operation *op) {
    if (!isa<LoadOp, StoreOp>(op))
      return;
    Value pointer = isa<LoadOp>(op) ? cast<LoadOp>(op).getPtr()
                                    : cast<StoreOp>(op).getPtr();
    std::string text = siteText(op) + '\0';
    std::string name = "__ktc_access_site_" + kernel.getSymName().str() +
                       "_" + std::to_string(sites.size());
    auto global = LLVM::GlobalOp::create(
        globals, op->getLoc(),
        LLVM::LLVMArrayType::get(globals.getI8Type(), text.size()),
        /*isConstant=*/true, LLVM::Linkage::Internal, name,
        globals.getStringAttr(text));
    sites[op] = {hook, global.getSymName(), sourceArgument(pointer, kernel)};
  });
}

Value mlir::ktc::emitAccessCheck(OpBuilder &b, Location loc,
                                 const AccessSite &site, Value address,
                                 int64_t bytes) {
  MLIRContext *ctx = b.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  // hook->check is the hook's first field.
  Value check = LLVM::LoadOp::create(b, loc, ptr, site.hook);
  Value text = LLVM::AddressOfOp::create(b, loc, ptr, site.text);
  Value size = LLVM::ConstantOp::create(b, loc, i64, bytes);
  Value argument = LLVM::ConstantOp::create(b, loc, i64, site.argument);
  auto type = LLVM::LLVMFunctionType::get(i32, {ptr, i64, i64, ptr, i64});
  Value ok = LLVM::CallOp::create(b, loc, type,
                                  ValueRange{check, site.hook, address, size,
                                             text, argument})
                 .getResult();
  Value zero = LLVM::ConstantOp::create(b, loc, i32, 0);
  return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, ok, zero);
}
