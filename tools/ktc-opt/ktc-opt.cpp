//===- ktc-opt.cpp - the ktc optimizer driver ------------------------------===//
//
// Like mlir-opt: reads .mlir, runs passes, prints. Knows ktc plus the upstream
// dialects ktc kernels are written with (builtin, func, arith, math, scf), the
// ktc passes, and upstream's generic passes (canonicalize, cse, ...).
//
// Bad input is a diagnostic and exit status 1, never a crash: that includes
// the options of --ktc-gpu-pipeline (an unknown target or a num-warps that
// is not a power of two fail before any pass runs).
//
//===----------------------------------------------------------------------===//

#include "dialect/InputLimits.h"
#include "dialect/KtcDialect.h"
#include "dialect/KtcPasses.h"
#include "lib/Conversion/GpuPipeline.h"
#include "lib/Target/CPU/HostTarget.h"
#include "lib/Target/Backend.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/ProgramStack.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"

namespace {

/// The stack the parser, passes and printer run on: input within
/// kMaxNestingDepth needs a fraction of it.
constexpr unsigned kToolStackBytes = 64u << 20;

/// The options of --ktc-gpu-pipeline (those of the reproducers ktc writes:
/// `--ktc-gpu-pipeline="target=gfx942 num-warps=4"`).
struct GpuPipelineOptions : mlir::PassPipelineOptions<GpuPipelineOptions> {
  Option<std::string> target{*this, "target",
                             llvm::cl::desc("sm_<N> or gfx<N>"),
                             llvm::cl::init("sm_90")};
  Option<unsigned> numWarps{*this, "num-warps",
                            llvm::cl::desc("waves per workgroup, a power of "
                                           "two from 1 to 32"),
                            llvm::cl::init(4)};
};

/// Registers --ktc-gpu-pipeline so that bad options fail the run with a
/// message (a plain PassPipelineRegistration cannot report failure).
void registerCheckedGpuPipeline() {
  mlir::registerPassPipeline(
      "ktc-gpu-pipeline",
      "lower ktc kernels to the LLVM dialect for a GPU (sm_* or gfx*)",
      [](mlir::OpPassManager &pm, llvm::StringRef text,
         llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)> error)
          -> mlir::LogicalResult {
        GpuPipelineOptions options;
        if (failed(options.parseFromString(text)))
          return mlir::failure();
        auto target = ktc::target::Target::parse(options.target);
        if (!target || !target->isGpu())
          return error("ktc-gpu-pipeline: " +
                       (target ? "'host' is not a GPU target"
                               : llvm::toString(target.takeError())));
        auto compile = ktc::target::CompileOptions::make(
            unsigned(options.numWarps), 1, false,
            "ktc-gpu-pipeline: num-warps");
        if (!compile)
          return error(llvm::toString(compile.takeError()));
        mlir::ktc::buildGpuPipeline(pm, *target, compile->numWarps);
        return mlir::success();
      },
      [](llvm::function_ref<void(const mlir::detail::PassOptions &)> show) {
        show(GpuPipelineOptions());
      });
}

} // namespace

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  mlir::ktc::registerKtcPasses();
  ktc::host::registerHostPipeline();
  mlir::ktc::registerGpuPipelinePasses();
  registerCheckedGpuPipeline();

  // The dialects kernels are written in, plus those the host pipeline
  // lowers through (linalg, tensor, memref, llvm, ...).
  mlir::DialectRegistry registry;
  ktc::host::registerHostDialects(registry);
  mlir::ktc::registerGpuDialects(registry);
  llvm::InitLLVM init(argc, argv);
  auto [inputFile, outputFile] = mlir::registerAndParseCLIOptions(
      argc, argv, "ktc optimizer driver\n", registry);
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFile, outputFile, registry));

  // Read the input once (it may be stdin), refuse too deep nesting before
  // the parser recurses on it, then run mlir-opt's processing on a stack
  // with room to spare for what the scan lets through.
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file =
      mlir::openInputFile(inputFile, &error);
  if (!file) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (!mlir::ktc::checkNestingDepth(file->getBuffer(),
                                    file->getBufferIdentifier(), llvm::errs()))
    return 1;
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFile, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }
  mlir::LogicalResult result = mlir::failure();
  llvm::runOnNewStack(kToolStackBytes, [&] {
    result = mlir::MlirOptMain(output->os(), std::move(file), registry, config);
  });
  if (mlir::failed(result))
    return 1;
  output->keep();
  return 0;
}
