//===- HostTarget.h - the host-CPU target (internal) ------------*- C++ -*-===//
//
// ktc -> (convert-ktc-to-host) -> linalg/tensor -> bufferised loops -> LLVM
// -> an object file -> ORC LLJIT in process.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_TARGET_CPU_HOSTTARGET_H
#define KTC_LIB_TARGET_CPU_HOSTTARGET_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace llvm {
class Module;
}

namespace llvm::orc {
class JITDylib;
}

namespace ktc::host {

struct AssertRecord; // HostDebug.h

/// Registers what the host pipeline needs in a context: the dialects, the
/// bufferisation models, the LLVM IR translations.
void registerHostDialects(mlir::DialectRegistry &registry);

/// ktc dialect -> LLVM dialect for the host (see convert-ktc-to-host).
void buildHostPipeline(mlir::OpPassManager &pm);

/// Registers the `ktc-host-pipeline` pass pipeline (for ktc-opt), and the
/// passes of this target that have no tablegen definition.
void registerHostPipeline();

/// Ways to look inside a host compile (KTC_DUMP): instrument its pass
/// manager, see its optimised LLVM IR.
struct HostHooks {
  std::function<void(mlir::PassManager &)> instrument;
  std::function<void(llvm::Module &)> optimised;
};

/// Lowers `module` (ktc dialect) in place to the LLVM dialect.
llvm::Error lowerToLLVMDialect(mlir::ModuleOp module,
                               const HostHooks *hooks = nullptr);
/// An x86-64 (or other host-architecture) CPU to compile for instead of
/// this one: an LLVM CPU name ("x86-64", "sapphirerapids") and features
/// ("+f16c,-avx512bf16"). For tests that check code for CPUs without or
/// with a feature on whatever machine runs them.
struct HostCpu {
  std::string cpu;
  std::string features;
};

/// The kernel as optimised (O3) LLVM IR for the host, and as host assembly;
/// for this CPU, or for `cpu`.
llvm::Expected<std::string> emitLLVMIR(mlir::ModuleOp module,
                                       const HostHooks *hooks = nullptr,
                                       const HostCpu *cpu = nullptr);
llvm::Expected<std::string> emitAssembly(mlir::ModuleOp module,
                                         const HostHooks *hooks = nullptr,
                                         const HostCpu *cpu = nullptr);


/// `module` (ktc dialect; lowered in place) as a host object file, with the
/// entry HostKernel::load looks for; for this CPU, or for `cpu`.
llvm::Expected<std::string> compileObject(mlir::ModuleOp module,
                                          llvm::StringRef kernelName,
                                          const HostHooks *hooks = nullptr,
                                          const HostCpu *cpu = nullptr);
/// What host object code depends on (triple, CPU, features): part of the
/// disk cache's key.
std::string targetId();

/// A kernel compiled for the host. Its entry takes the kernel's arguments
/// (pointers as 64-bit addresses), then the program id (x, y, z) and the
/// grid size (x, y, z), all through an array of pointers to the values.
class HostKernel {
public:
  ~HostKernel();
  HostKernel(HostKernel &&) noexcept;

  /// Compiles `module` (ktc dialect; it is lowered in place) and loads it.
  static llvm::Expected<HostKernel> compile(mlir::ModuleOp module,
                                            llvm::StringRef kernelName,
                                            const HostHooks *hooks = nullptr);
  /// Loads an object made by compileObject (into the process's ORC JIT).
  static llvm::Expected<HostKernel> load(llvm::StringRef object,
                                         llvm::StringRef kernelName);

  /// Runs program (x, y, z) of a grid with `args` pointing at the kernel's
  /// arguments in order.
  /// Failed device_asserts go to `asserts` when given.
  void runProgram(void **args, size_t numArgs, std::array<int32_t, 3> pid,
                  std::array<int32_t, 3> grid,
                  AssertRecord *asserts = nullptr) const;
  /// Runs every program of `grid`, spread over the host's cores.
  void run(void **args, size_t numArgs, std::array<int32_t, 3> grid,
           AssertRecord *asserts = nullptr) const;

private:
  HostKernel() = default;
  llvm::orc::JITDylib *dylib_ = nullptr; // this kernel's code
  void (*entry_)(void **) = nullptr;
};

} // namespace ktc::host

#endif // KTC_LIB_TARGET_CPU_HOSTTARGET_H
