//===- Backend.h - one code generator per kind of target --------*- C++ -*-===//
//
// A Backend turns a traced kernel (ktc dialect) into what its kind of
// target loads: PTX (NVPTX), an HSACO code object (AMDGPU), a relocatable
// object for the in-process JIT (host). One implementation per
// Target::Kind, in lib/Target/<T>/Backend.cpp; the compile driver
// (lib/Compiler) is their only caller. Everything a kind needs lives behind
// it: its dialects, its pass pipeline, its code emission, how to read what
// a binary uses.
//
// Adding a processor of a known kind is a row in Target.cpp (and its
// occupancy numbers in lib/Target/Occupancy.cpp); adding a kind is one
// folder with a Backend and a TargetInfo.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_TARGET_BACKEND_H
#define KTC_LIB_TARGET_BACKEND_H

#include "lib/Target/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <string>

namespace llvm {
class Module;
}

namespace ktc::target {

/// How a kernel is compiled besides its IR and its target: Triton's launch
/// options. Valid only as made by make(), which holds the rules.
struct CompileOptions {
  /// Waves (warps) per workgroup: a power of two from 1 to 32.
  unsigned numWarps = 4;
  /// Software-pipelining depth of loops, 1 to kMaxNumStages (GPUs).
  unsigned numStages = 1;
  /// The host's checked mode (Options::check_bounds); GPUs ignore it.
  bool checkBounds = false;

  /// The options, or an error naming the value that breaks its rule (as
  /// the caller spells it: "Options::num_warps", "--num-warps") and the
  /// rule.
  static llvm::Expected<CompileOptions>
  make(int64_t numWarps, int64_t numStages, bool checkBounds = false,
       llvm::StringRef warpsName = "num_warps",
       llvm::StringRef stagesName = "num_stages");
  bool operator==(const CompileOptions &) const = default;
};

/// The stages a kernel can be seen at.
enum class Stage { MLIR, LLVM, Assembly, Binary };
/// "mlir", "llvm", "asm", "bin"; anything else is an error listing them.
llvm::Expected<Stage> parseStage(llvm::StringRef name);
llvm::StringRef stageName(Stage stage);

/// What one compiled kernel uses (-1: not known offline).
struct KernelResources {
  int64_t registers = -1;       // VGPRs / registers per thread
  int64_t scalarRegisters = -1; // SGPRs (AMDGPU)
  int64_t sharedBytes = 0;      // LDS / static shared memory
  int64_t scratchBytes = 0;     // private segment / local memory per thread
  int64_t spills = 0;
  int64_t waveSize = 0;
  int64_t maxThreads = 0;
};

/// Ways to look inside a compile (KTC_DUMP, ktc-compile's MLIR flags):
/// each is optional.
struct CompileHooks {
  /// Called on every pass manager the backend runs, before it runs.
  std::function<void(mlir::PassManager &)> instrument;
  /// The optimised LLVM IR, before code generation.
  std::function<void(llvm::Module &)> optimised;
};

/// A failure of a backend's pass pipeline (buildPipeline), as opposed to
/// one of LLVM's code generation: MLIR's reproducer reproduces it.
class PipelineError : public llvm::ErrorInfo<PipelineError> {
public:
  static char ID;
  explicit PipelineError(std::string message) : message(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override { os << message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  std::string message;
};

class Backend {
public:
  virtual ~Backend();

  /// The dialects and LLVM IR translations the backend's passes create.
  virtual void registerDialects(mlir::DialectRegistry &registry) const = 0;
  /// ktc dialect -> LLVM dialect, for `target` with `options`.
  virtual void buildPipeline(mlir::OpPassManager &pm, const Target &target,
                             const CompileOptions &options) const = 0;
  /// Lowers `module` (ktc dialect, changed in place) and generates code:
  /// optimised LLVM IR, assembly or the loadable binary.
  virtual llvm::Expected<std::string>
  generate(mlir::ModuleOp module, llvm::StringRef kernel, const Target &target,
           const CompileOptions &options, Stage stage,
           const CompileHooks &hooks) const = 0;
  /// What `kernel` in `binary` uses, as far as it is known without a device.
  virtual llvm::Expected<KernelResources>
  resources(llvm::StringRef binary, llvm::StringRef kernel,
            const Target &target, const CompileOptions &options) const = 0;
};

/// The backends, one per kind (lib/Target/<T>/Backend.cpp); the compile
/// driver picks one by a target's kind (compiler::backendFor).
const Backend &hostBackend();
const Backend &nvptxBackend();
const Backend &amdgpuBackend();

} // namespace ktc::target

#endif // KTC_LIB_TARGET_BACKEND_H
