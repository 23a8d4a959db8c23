//===- LLVMErrors.h - LLVM's errors during code generation --------*- C++ -*-===//
//
// LLVM reports some errors through its context rather than as a failure:
// inline assembly that does not assemble for the target (the user's
// ktc.inline_asm_elementwise written for another target), or whose
// constraints name registers the target does not have. With no handler on
// the context LLVM prints such an error and calls exit(1), ending the
// user's process. LLVMErrors keeps them instead, for the compile to return
// as an error, each at the file:line of the assembly that caused it.
//
// Inline assembly is found by its text and constraints: each llvm.inline_asm
// of the MLIR module gives its location, and the LLVM module's calls of
// the same assembly get a !srcloc cookie (LLVM's way of naming a source
// location, as clang's asm statements do) that LLVM's reports carry back.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_TARGET_LLVMERRORS_H
#define KTC_LIB_TARGET_LLVMERRORS_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace ktc::target {

class LLVMErrors {
public:
  /// From now on keeps the errors reported on `llvmModule`'s context (the
  /// module `module`, in the LLVM dialect, was translated into). Must
  /// outlive that context's use: declare it before the LLVMContext.
  void watch(mlir::ModuleOp module, llvm::Module &llvmModule);
  /// The errors kept so far, as one error (success when none), each line
  /// "file:line:col: error: ..." where the assembly is known.
  llvm::Error take();

  /// For the handler: an error LLVM reported, with the !srcloc cookie of
  /// the assembly it is about (0: none).
  void add(std::string message, uint64_t cookie);

private:
  /// Cookie c - 1: "file:line:col" of an inline assembly.
  std::vector<std::string> locations_;
  std::vector<std::string> errors_;
};

} // namespace ktc::target

#endif // KTC_LIB_TARGET_LLVMERRORS_H
