//===- ktc-compile.cpp - a ktc .mlir kernel to LLVM IR, assembly, a binary --===//
//
//   ktc-compile kernel.mlir --target=gfx942 --emit=bin -o kernel.hsaco
//   ktc-compile kernel.mlir --target=sm_90 --emit=asm -o kernel.ptx
//   ktc-compile kernel.mlir --target=host --emit=llvm
//
// Bad input (unreadable or invalid .mlir, no kernel in it, an unknown target,
// stage or warp count, an unwritable output) is one "error:" line (or the
// parser's diagnostics) and exit status 1.
//
//===----------------------------------------------------------------------===//

#include "lib/Conversion/GpuPipeline.h"
#include "lib/Target/CPU/HostTarget.h"
#include "lib/Target/GpuCodegen.h"

#include "dialect/InputLimits.h"
#include "dialect/KtcDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Target/TargetMachine.h"
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
    target("target", cl::desc("host, sm_80, sm_90, gfx90a, gfx942, gfx950, "
                              "gfx1100, gfx1200, ..."),
           cl::init("host"), cl::cat(category));
static cl::opt<std::string> emitKind("emit", cl::desc("llvm, asm or bin"),
                                     cl::init("asm"), cl::cat(category));
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

static int fail(const Twine &message) {
  errs() << "ktc-compile: error: " << message << "\n";
  return 1;
}

static int compileMain(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "ktc kernel compiler\n");
  // lld (used as a library for AMDGPU code objects) resets every cl::opt
  // when it runs: keep our values.
  const std::string outputPath = output, arch = target;

  ktc::gpu::Stage stage;
  if (emitKind == "llvm")
    stage = ktc::gpu::Stage::LLVM;
  else if (emitKind == "asm")
    stage = ktc::gpu::Stage::Assembly;
  else if (emitKind == "bin")
    stage = ktc::gpu::Stage::Binary;
  else
    return fail("unknown --emit=" + emitKind + " (llvm, asm or bin)");
  bool host = target == "host";
  if (!host && !StringRef(target).starts_with("sm_") &&
      !StringRef(target).starts_with("gfx"))
    return fail("unknown --target=" + target +
                " (host, sm_<N> or gfx<N>)");
  if (!host)
    if (auto tm = ktc::gpu::createTargetMachine(target); !tm)
      return fail(toString(tm.takeError()));
  if (numWarps.getNumOccurrences() &&
      (numWarps < 1 || numWarps > 32 || !isPowerOf2_32(numWarps)))
    return fail("--num-warps=" + Twine(unsigned(numWarps)) +
                " must be a power of two from 1 to 32");
  if (host && stage == ktc::gpu::Stage::Binary)
    return fail("--emit=bin is for GPU targets; the host JIT-compiles");

  mlir::DialectRegistry registry;
  ktc::host::registerHostDialects(registry);
  mlir::ktc::registerGpuDialects(registry);
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
  bool kernels = false;
  module->walk([&](mlir::func::FuncOp func) {
    kernels |= func->hasAttr(mlir::ktc::KtcDialect::getKernelAttrName());
  });
  if (!kernels)
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

  // The host pipeline does not use ktc.divisibility, and its translation to
  // LLVM IR would warn about the attribute left on the arguments.
  if (host)
    module->walk([&](mlir::func::FuncOp func) {
      for (unsigned i = 0; i < func.getNumArguments(); ++i)
        func.removeArgAttr(i, mlir::ktc::KtcDialect::getDivisibilityAttrName());
    });

  // The kernel's own ktc.num_warps (what it was traced with) unless
  // --num-warps says otherwise.
  unsigned warps = numWarps;
  if (numWarps.getNumOccurrences() == 0)
    module->walk([&](mlir::func::FuncOp func) {
      warps = mlir::ktc::KtcDialect::getNumWarps(func).value_or(warps);
    });

  Expected<std::string> text = [&]() -> Expected<std::string> {
    if (host)
      return stage == ktc::gpu::Stage::LLVM ? ktc::host::emitLLVMIR(*module)
                                       : ktc::host::emitAssembly(*module);
    mlir::PassManager pm(&context);
    if (failed(mlir::ktc::buildGpuPipeline(pm, arch, warps)) ||
        failed(pm.run(*module)))
      return createStringError("lowering for " + arch + " failed");
    return ktc::gpu::emit(*module, arch, stage);
  }();
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
