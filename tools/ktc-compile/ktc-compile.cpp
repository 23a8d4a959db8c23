//===- ktc-compile.cpp - a ktc .mlir kernel to LLVM IR, assembly, a binary --===//
//
//   ktc-compile kernel.mlir --target=gfx942 --emit=bin -o kernel.hsaco
//   ktc-compile kernel.mlir --target=sm_90 --emit=asm -o kernel.ptx
//   ktc-compile kernel.mlir --target=host --emit=llvm
//
// It compiles through lib/Compiler, the driver the runtime uses, so what it
// prints is what a launch runs. MLIR's pass-manager flags apply to the
// lowering: --mlir-print-ir-after-all, --mlir-print-ir-after=PASS,
// --mlir-timing, --mlir-pass-pipeline-crash-reproducer=FILE, ...
//
// Bad input (unreadable or invalid .mlir, no kernel in it, an unknown target,
// stage or warp count, an unwritable output) is one "error:" line (or the
// parser's diagnostics) and exit status 1.
//
//===----------------------------------------------------------------------===//

#include "lib/Compiler/Compiler.h"
#include "lib/Conversion/GpuPipeline.h"
#include "lib/Target/CPU/HostTarget.h"

#include "dialect/InputLimits.h"
#include "dialect/KtcDialect.h"
#include "dialect/KtcPasses.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/IR/AsmState.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/ProgramStack.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace llvm;

static cl::OptionCategory category("ktc-compile options");
static cl::opt<std::string> input(cl::Positional, cl::desc("<input .mlir>"),
                                  cl::init("-"), cl::cat(category));
static cl::opt<std::string> output("o", cl::desc("output file"),
                                   cl::value_desc("file"), cl::init("-"),
                                   cl::cat(category));
static cl::opt<std::string>
    target("target", cl::desc("host, sm_80, sm_90, sm_100, sm_120, gfx90a, "
                              "gfx942, gfx950, gfx1100, gfx1200, gfx1250, "
                              "... (AMD target ids too: gfx942:sramecc+)"),
           cl::init("host"), cl::cat(category));
static cl::opt<ktc::target::Stage> emitStage(
    "emit", cl::desc("what to write"),
    cl::values(clEnumValN(ktc::target::Stage::MLIR, "mlir",
                          "the kernel as parsed (ktc dialect)"),
               clEnumValN(ktc::target::Stage::LLVM, "llvm",
                          "optimised LLVM IR"),
               clEnumValN(ktc::target::Stage::Assembly, "asm",
                          "PTX or AMDGPU/host assembly"),
               clEnumValN(ktc::target::Stage::Binary, "bin",
                          "the loadable binary: PTX or an HSACO (GPUs)")),
    cl::init(ktc::target::Stage::Assembly), cl::cat(category));
static cl::opt<bool> spec16(
    "spec16",
    cl::desc("specialise like a launch with 16-byte aligned buffers and "
             "integers divisible by 16 (ktc.divisibility = 16 on every "
             "pointer and integer argument of the kernels)"),
    cl::init(false), cl::cat(category));
static cl::opt<unsigned> numWarps(
    "num-warps",
    cl::desc("waves per workgroup (GPU); default: the kernel's "
             "ktc.num_warps, else 4"),
    cl::init(4), cl::cat(category));
static cl::opt<unsigned> numStages(
    "num-stages",
    cl::desc("software-pipelining depth of loops (GPU), 1 to 8; default: "
             "the kernel's ktc.num_stages, else 1"),
    cl::init(1), cl::cat(category));

static int fail(const Twine &message) {
  errs() << "ktc-compile: error: " << message << "\n";
  return 1;
}

static int compileMain(int argc, char **argv) {
  // Passes by name, for --mlir-print-ir-after=PASS and the like (before
  // the options that list them).
  mlir::registerTransformsPasses();
  mlir::ktc::registerKtcPasses();
  ktc::host::registerHostPipeline();
  mlir::ktc::registerGpuPipelinePasses();
  mlir::registerMLIRContextCLOptions();
  mlir::registerAsmPrinterCLOptions();
  mlir::registerPassManagerCLOptions();
  mlir::registerDefaultTimingManagerCLOptions();
  // --help lists ktc-compile's own flags and MLIR's (--mlir-*), not the
  // hundreds LLVM's libraries register.
  cl::HideUnrelatedOptions(category);
  for (auto &[name, option] : cl::getRegisteredOptions())
    if (name.starts_with("mlir-"))
      option->setHiddenFlag(cl::NotHidden);
  cl::ParseCommandLineOptions(argc, argv, "ktc kernel compiler\n");
  // lld (used as a library for AMDGPU code objects) resets every cl::opt
  // when it runs: keep our values.
  const std::string outputPath = output, targetName = target;
  const ktc::target::Stage stage = emitStage;

  auto parsed = ktc::target::Target::parse(targetName);
  if (!parsed)
    return fail(toString(parsed.takeError()));
  const ktc::target::Target arch = *parsed;
  if (numWarps.getNumOccurrences() || numStages.getNumOccurrences())
    if (auto checked = ktc::target::CompileOptions::make(
            numWarps, numStages, false, "--num-warps", "--num-stages");
        !checked)
      return fail(toString(checked.takeError()));
  if (!arch.isGpu() && stage == ktc::target::Stage::Binary)
    return fail("--emit=bin is for GPU targets; the host JIT-compiles");

  mlir::DialectRegistry registry;
  ktc::compiler::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // A diagnostic names the op's line; the whole op printed after it (a
  // module, for a failed pass) is noise here.
  context.printOpOnDiagnostic(false);

  std::string error;
  auto file = mlir::openInputFile(input, &error);
  if (!file)
    return fail(error);
  if (!mlir::ktc::checkNestingDepth(file->getBuffer(),
                                    file->getBufferIdentifier(), errs()))
    return 1;
  SourceMgr sources;
  sources.AddNewSourceBuffer(std::move(file), SMLoc());
  mlir::SourceMgrDiagnosticHandler diagnostics(sources, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sources, &context);
  if (!module)
    return 1; // the parser reported why
  if (ktc::compiler::kernelName(*module).empty())
    return fail((input == "-" ? std::string("<stdin>") : std::string(input)) +
                " has no kernel (a func.func with the ktc.kernel attribute) "
                "to compile");
  if (spec16)
    module->walk([&](mlir::func::FuncOp func) {
      if (!func->hasAttr(mlir::ktc::KtcDialect::getKernelAttrName()))
        return;
      mlir::Builder b(&context);
      for (unsigned i = 0; i < func.getNumArguments(); ++i) {
        mlir::Type t = func.getArgument(i).getType();
        if (mlir::isa<mlir::ktc::PtrType>(t) || t.isInteger(32) ||
            t.isInteger(64))
          func.setArgAttr(i, mlir::ktc::KtcDialect::getDivisibilityAttrName(),
                          b.getI32IntegerAttr(16));
      }
    });

  // The kernel's own ktc.num_warps / ktc.num_stages (what it was traced
  // with) unless the flags say otherwise.
  int64_t warps = numWarps, stages = numStages;
  module->walk([&](mlir::func::FuncOp func) {
    if (!numWarps.getNumOccurrences())
      warps = mlir::ktc::KtcDialect::getNumWarps(func).value_or(warps);
    if (!numStages.getNumOccurrences())
      if (auto attr = func->getAttrOfType<mlir::IntegerAttr>(
              mlir::ktc::KtcDialect::getNumStagesAttrName()))
        stages = attr.getInt();
  });
  auto options = ktc::target::CompileOptions::make(
      warps, stages, false, "the kernel's ktc.num_warps",
      "the kernel's ktc.num_stages");
  if (!options)
    return fail(toString(options.takeError()));

  Expected<std::string> text = ktc::compiler::emit(
      *module, arch, *options, stage, [](mlir::PassManager &pm) {
        if (failed(mlir::applyPassManagerCLOptions(pm)))
          return;
        mlir::applyDefaultTimingPassManagerCLOptions(pm);
      });
  if (!text)
    return fail(toString(text.takeError()));
  auto out = mlir::openOutputFile(outputPath, &error);
  if (!out)
    return fail(error);
  out->os() << *text;
  out->keep();
  return 0;
}

/// The stack ktc-compile runs on: input within kMaxNestingDepth (checked
/// before parsing) needs a fraction of it.
int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  int status = 1;
  runOnNewStack(64u << 20, [&] { status = compileMain(argc, argv); });
  return status;
}
