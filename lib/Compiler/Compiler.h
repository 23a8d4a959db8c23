//===- Compiler.h - the one way from ktc IR to a loadable kernel -*- C++ -*-===//
//
// The compile driver every caller uses: the runtime's launches, the
// Kernel's emit() and info(), ktc-compile. It picks the target kind's
// Backend, consults the disk cache, writes the stages KTC_DUMP asks for and
// a reproducer when a compile fails.
//
//   auto target = target::Target::parse("gfx942");
//   auto options = target::CompileOptions::make(4, 1);
//   llvm::Expected<CompiledKernel> k = compile(module, *target, *options);
//
// Errors are llvm::Errors whose text is the whole message (the runtime
// turns them into ktc::Errors at the user's line).
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_COMPILER_COMPILER_H
#define KTC_LIB_COMPILER_COMPILER_H

#include "lib/Target/Backend.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/Support/Error.h"

#include <functional>

#include <cstdint>
#include <string>

namespace ktc::compiler {

using target::CompileOptions;
using target::KernelResources;
using target::Stage;
using target::Target;

/// A kernel compiled for a target: what a device loads, and what the disk
/// cache keeps.
struct CompiledKernel {
  std::string name;    // the kernel's symbol
  std::string target;  // Target::name()
  std::string binary;  // PTX, HSACO or a host object file
  unsigned threadsPerBlock = 1;
  KernelResources resources;

  /// One self-describing blob (a versioned header, then the binary).
  std::string serialize() const;
  static llvm::Expected<CompiledKernel> deserialize(llvm::StringRef blob);
};

/// The backend of `target`'s kind.
const target::Backend &backendFor(const Target &target);

/// Every dialect and translation a traced kernel and its compile use.
void registerAllDialects(mlir::DialectRegistry &registry);
/// The process's context for kernels: all of them registered and loaded.
mlir::MLIRContext &context();

/// `module` (the ktc dialect; lowered in place) compiled for `target`:
/// from the disk cache when it holds it.
llvm::Expected<CompiledKernel> compile(mlir::ModuleOp module,
                                       const Target &target,
                                       const CompileOptions &options);

/// `module` (lowered in place unless `stage` is MLIR) at `stage`: its MLIR,
/// optimised LLVM IR, assembly, or the binary compile() would make.
/// `instrument`, if given, is called on every pass manager of the lowering
/// (ktc-compile's MLIR flags: IR printing, timing, reproducers).
llvm::Expected<std::string>
emit(mlir::ModuleOp module, const Target &target,
     const CompileOptions &options, Stage stage,
     std::function<void(mlir::PassManager &)> instrument = {});

/// The kernel in `module`: its ktc.kernel function's name ("" if none).
std::string kernelName(mlir::ModuleOp module);

/// How many kernels this process compiled (not found in the disk cache).
uint64_t compileCount();
/// The SHA-256 of ktc's sources (part of every disk cache key).
const char *buildId();

} // namespace ktc::compiler

#endif // KTC_LIB_COMPILER_COMPILER_H
