//===- LLVMErrors.cpp - LLVM's errors during code generation ---------------===//

#include "LLVMErrors.h"

#include "mlir/IR/Location.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

namespace ktc::target {

namespace {
/// Keeps the context's errors in an LLVMErrors; lets LLVM print the rest
/// (warnings, remarks) as it would.
struct Handler : llvm::DiagnosticHandler {
  explicit Handler(LLVMErrors &errors) : errors(errors) {}
  bool handleDiagnostics(const llvm::DiagnosticInfo &info) override {
    if (info.getSeverity() != llvm::DS_Error)
      return false;
    std::string message;
    llvm::raw_string_ostream os(message);
    llvm::DiagnosticPrinterRawOStream printer(os);
    info.print(printer);
    uint64_t cookie = 0;
    if (auto *srcMgr = llvm::dyn_cast<llvm::DiagnosticInfoSrcMgr>(&info))
      cookie = srcMgr->getLocCookie();
    else if (auto *asmInfo =
                 llvm::dyn_cast<llvm::DiagnosticInfoInlineAsm>(&info))
      cookie = asmInfo->getLocCookie();
    errors.add(std::move(message), cookie);
    return true;
  }
  LLVMErrors &errors;
};

std::string key(llvm::StringRef text, llvm::StringRef constraints) {
  return (text + llvm::Twine('\0') + constraints).str();
}
} // namespace

void LLVMErrors::watch(mlir::ModuleOp module, llvm::Module &llvmModule) {
  // Each distinct assembly's first location (the same text at two lines
  // fails the same way).
  llvm::StringMap<uint64_t> cookies;
  module.walk([&](mlir::Operation *op) {
    if (op->getName().getStringRef() != "llvm.inline_asm")
      return;
    auto text = op->getAttrOfType<mlir::StringAttr>("asm_string");
    auto constraints = op->getAttrOfType<mlir::StringAttr>("constraints");
    auto file = op->getLoc()->findInstanceOf<mlir::FileLineColLoc>();
    if (!text || !constraints || !file)
      return;
    auto [it, added] = cookies.try_emplace(
        key(text.getValue(), constraints.getValue()), locations_.size() + 1);
    if (added)
      locations_.push_back((file.getFilename().getValue() + ":" +
                            llvm::Twine(file.getLine()) + ":" +
                            llvm::Twine(file.getColumn()))
                               .str());
  });
  llvm::LLVMContext &ctx = llvmModule.getContext();
  for (llvm::Function &f : llvmModule)
    for (llvm::Instruction &inst : llvm::instructions(f)) {
      auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
      auto *code =
          call ? llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand())
               : nullptr;
      if (!code)
        continue;
      auto it = cookies.find(
          key(code->getAsmString(), code->getConstraintString()));
      if (it == cookies.end())
        continue;
      call->setMetadata(
          "srcloc",
          llvm::MDNode::get(ctx, llvm::ConstantAsMetadata::get(
                                     llvm::ConstantInt::get(
                                         llvm::Type::getInt64Ty(ctx),
                                         it->second))));
    }
  ctx.setDiagnosticHandler(std::make_unique<Handler>(*this));
}

void LLVMErrors::add(std::string message, uint64_t cookie) {
  llvm::StringRef text = llvm::StringRef(message).rtrim();
  if (cookie >= 1 && cookie <= locations_.size())
    errors_.push_back(locations_[cookie - 1] + ": error: " + text.str());
  else
    errors_.push_back("error: " + text.str());
}

llvm::Error LLVMErrors::take() {
  if (errors_.empty())
    return llvm::Error::success();
  std::string all = llvm::join(errors_, "\n");
  errors_.clear();
  return llvm::createStringError(all);
}

} // namespace ktc::target
