//===- Debug.cpp - CUDA's printf and assert for the NVPTX target -----------===//
//
// The calls nvcc emits for printf and assert: `vprintf(format, buffer)`
// with the arguments packed in a struct on the stack (doubles for floats),
// and `__assertfail(message, file, line, function, charSize)`. The stack
// struct lives between llvm.stacksave and llvm.stackrestore, so that a
// print inside a loop does not grow the stack.
//
//===----------------------------------------------------------------------===//

#include "Debug.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

/// The declaration of `name` with `type` in the module of `anchor` (a
/// constant string's address: the insertion point may be in a region not
/// yet attached), added once.
static LLVM::LLVMFuncOp declare(OpBuilder &b, Value anchor, StringRef name,
                                LLVM::LLVMFunctionType type) {
  auto module = anchor.getDefiningOp()->getParentOfType<ModuleOp>();
  if (auto f = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return f;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
}

void mlir::ktc::nvptxPrint(OpBuilder &b, Location loc, Value format,
                           ValueRange args) {
  MLIRContext *ctx = b.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  LLVM::LLVMFuncOp vprintf =
      declare(b, format, "vprintf", LLVM::LLVMFunctionType::get(i32, {ptr, ptr}));
  Value buffer;
  Value saved;
  if (args.empty()) {
    buffer = LLVM::ZeroOp::create(b, loc, ptr);
  } else {
    SmallVector<Type> types;
    for (Value arg : args)
      types.push_back(arg.getType());
    auto type = LLVM::LLVMStructType::getLiteral(ctx, types);
    saved = LLVM::StackSaveOp::create(b, loc, ptr);
    Value one = LLVM::ConstantOp::create(b, loc, i64, 1);
    buffer = LLVM::AllocaOp::create(b, loc, ptr, type, one, /*alignment=*/8);
    for (auto [i, arg] : llvm::enumerate(args)) {
      Value field = LLVM::GEPOp::create(
          b, loc, ptr, type, buffer,
          ArrayRef<LLVM::GEPArg>{0, int32_t(i)});
      LLVM::StoreOp::create(b, loc, arg, field);
    }
  }
  LLVM::CallOp::create(b, loc, vprintf, ValueRange{format, buffer});
  if (saved)
    LLVM::StackRestoreOp::create(b, loc, saved);
}

void mlir::ktc::nvptxAssertFail(OpBuilder &b, Location loc, Value message,
                                Value file, unsigned line, Value function) {
  MLIRContext *ctx = b.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  LLVM::LLVMFuncOp assertFail = declare(
      b, message, "__assertfail",
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                  {ptr, ptr, i32, ptr, i64}));
  Value lineValue = LLVM::ConstantOp::create(b, loc, i32, line);
  Value charSize = LLVM::ConstantOp::create(b, loc, i64, 1);
  LLVM::CallOp::create(b, loc, assertFail,
                       ValueRange{message, file, lineValue, function,
                                  charSize});
}
