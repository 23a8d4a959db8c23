//===- Dump.h - per-stage dumps and failure reproducers (internal) -*- C++ -*-===//
//
//   KTC_DUMP=mlir,layout,llvm,asm (or "all")   which stages to write
//   KTC_DUMP_DIR=DIR                           where (default ./ktc-dump)
//
// Files are <kernel>-<hash>.<stage>.<ext>, the hash over the specialised
// kernel before lowering, so specialisations never overwrite each other.
// When a compile fails, <kernel>-<hash>.repro.mlir (in KTC_DUMP_DIR, else the
// system's temporary directory) holds the kernel before lowering in MLIR's
// reproducer format (`ktc-opt --run-reproducer FILE` runs the pipeline that
// failed) and the command that reproduces the failure.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_COMPILER_DUMP_H
#define KTC_LIB_COMPILER_DUMP_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <string>

namespace ktc::compiler {

class Dumper {
public:
  /// `module` is the kernel just before lowering.
  Dumper(mlir::ModuleOp module, llvm::StringRef kernel);

  bool wants(llvm::StringRef stage) const;
  /// Whether a stage of the lowering is asked for (the disk cache is not
  /// read then: a hit would lower nothing to dump).
  bool wantsLowering() const;
  /// Writes `text` as stage `stage` (file extension `ext`) if asked for.
  void dump(llvm::StringRef stage, llvm::StringRef ext, llvm::StringRef text);
  /// Dumps the IR after the pass `passArgument` of `pm` as stage `stage`,
  /// if that stage is asked for (MLIR's IR printing).
  void after(mlir::PassManager &pm, llvm::StringRef passArgument,
             llvm::StringRef stage);
  /// Writes the reproducer: the kernel before lowering, with MLIR's
  /// `mlir_reproducer` resource naming `pipeline` (so that
  /// `ktc-opt --run-reproducer FILE` runs it), headed by `command`, the
  /// line that reproduces the failure. Returns its path ("" if it could not
  /// be written).
  std::string reproducer(llvm::StringRef error, llvm::StringRef pipeline,
                         llvm::StringRef command);
  std::string reproducerPath() const;
  /// The kernel before lowering as printed (no locations).
  const std::string &text() const { return module_; }

private:
  std::string base(bool reproducer) const;
  std::string kernel_, module_, hash_;
};

} // namespace ktc::compiler

#endif // KTC_LIB_COMPILER_DUMP_H
