//===- ParseFuzzer.cpp - ktc-opt's parse, verify and lowerings, fuzzed ----===//
//
// Parses the fuzz input as MLIR in a context that knows what ktc-opt knows
// (ktc, the dialects kernels are written in, and those the host and GPU
// pipelines lower through), verifies it, and when it verifies:
//   - prints it (custom and generic form) and parses the text again: what
//     ktc prints must read back (a failure here aborts: it is a bug);
//   - runs on a copy each lowering ktc-opt exposes: the ktc simplifications,
//     -ktc-host-pipeline, -ktc-gpu-pipeline for an NVIDIA and an AMD target,
//     and the lowering passes alone on IR they were not meant for;
//   - translates what reached the LLVM dialect to LLVM IR.
// Diagnostics are collected, never printed (KTC_FUZZ_VERBOSE=1 prints them).
// Failing to parse, verify or lower is fine; crashing is not. Input nested
// deeper than mlir::ktc::kMaxNestingDepth is refused unparsed, as the tools
// refuse it.
//
// Inputs whose shaped types have more than 4096 elements are only parsed
// and printed: the GPU lowering unrolls blocks per thread, and a block of a
// million elements takes seconds to lower, which is not a bug.
//
//===----------------------------------------------------------------------===//

#include "dialect/InputLimits.h"
#include "dialect/KtcDialect.h"
#include "dialect/KtcPasses.h"
#include "lib/Conversion/GpuPipeline.h"
#include "lib/Target/CPU/HostTarget.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

using namespace mlir;

namespace {

constexpr size_t kMaxInput = 16 * 1024;
constexpr int64_t kMaxElements = 4096;

bool verbose() {
  static bool on = [] {
    const char *env = std::getenv("KTC_FUZZ_VERBOSE");
    return env && *env && std::string(env) != "0";
  }();
  return on;
}

const DialectRegistry &registry() {
  static DialectRegistry *r = [] {
    auto *registry = new DialectRegistry;
    ::ktc::host::registerHostDialects(*registry);
    mlir::ktc::registerGpuDialects(*registry);
    return registry;
  }();
  return *r;
}

/// Whether every shaped type in `module` is small enough to lower quickly.
bool smallShapes(ModuleOp module) {
  auto small = [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    if (!shaped || !shaped.hasRank())
      return true;
    if (shaped.getRank() > 4)
      return false;
    int64_t elements = 1;
    for (int64_t d : shaped.getShape()) {
      if (ShapedType::isDynamic(d))
        continue;
      if (d > kMaxElements)
        return false;
      elements *= d;
      if (elements > kMaxElements)
        return false;
    }
    return true;
  };
  WalkResult result = module->walk([&](Operation *op) {
    for (Type t : op->getResultTypes())
      if (!small(t))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (!small(arg.getType()))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

std::string print(ModuleOp module, bool generic) {
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  if (generic)
    flags.printGenericOpForm();
  module->print(os, flags);
  return text;
}

OwningOpRef<ModuleOp> parse(llvm::StringRef text, MLIRContext *context) {
  // The lexer relies on the NUL after the text: give it a copy that has one.
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "input"),
                             llvm::SMLoc());
  return parseSourceFile<ModuleOp>(sources, ParserConfig(context));
}

/// Printed IR must parse again.
void roundTrip(ModuleOp module, bool generic) {
  std::string text = print(module, generic);
  if (!parse(text, module->getContext())) {
    std::fprintf(stderr,
                 "ktc-fuzz-parse: the %s form of a valid module does not "
                 "parse again:\n%s\n",
                 generic ? "generic" : "custom", text.c_str());
    std::abort();
  }
}

struct Lowering {
  const char *name;
  std::function<void(OpPassManager &)> build;
  bool toLLVM; // translate the result to LLVM IR
};

const std::vector<Lowering> &lowerings() {
  static const std::vector<Lowering> all = {
      {"canonicalize,cse,ktc-combine",
       [](OpPassManager &pm) {
         pm.addPass(createCanonicalizerPass());
         pm.addPass(createCSEPass());
         pm.addPass(mlir::ktc::createKtcCombine());
       },
       false},
      {"ktc-host-pipeline", [](OpPassManager &pm) { ::ktc::host::buildHostPipeline(pm); },
       true},
      {"ktc-gpu-pipeline{target=sm_90 num-warps=4}",
       [](OpPassManager &pm) { mlir::ktc::buildGpuPipeline(pm, llvm::cantFail(::ktc::target::Target::parse("sm_90")), 4); },
       true},
      {"ktc-gpu-pipeline{target=gfx942 num-warps=8}",
       [](OpPassManager &pm) { mlir::ktc::buildGpuPipeline(pm, llvm::cantFail(::ktc::target::Target::parse("gfx942")), 8); },
       true},
      // Passes alone, on IR they do not expect (no layouts, layouts on the
      // host path): they must fail cleanly.
      {"convert-ktc-to-llvm",
       [](OpPassManager &pm) { pm.addPass(mlir::ktc::createKtcConvertToLLVM()); },
       false},
      {"ktc-assign-layouts,convert-ktc-to-host",
       [](OpPassManager &pm) {
         pm.addPass(mlir::ktc::createKtcAssignLayouts(
             mlir::ktc::KtcAssignLayoutsOptions{2, 64}));
         pm.addPass(mlir::ktc::createKtcConvertToHost());
       },
       false},
  };
  return all;
}

void lower(ModuleOp module, const Lowering &lowering) {
  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager pm(module->getContext());
  pm.enableVerifier(true);
  lowering.build(pm);
  bool ok = succeeded(pm.run(*copy));
  if (verbose())
    std::fprintf(stderr, "ktc-fuzz-parse: %s: %s\n", lowering.name,
                 ok ? "lowered" : "failed");
  if (!ok || !lowering.toLLVM)
    return;
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*copy, llvmContext);
  if (verbose())
    std::fprintf(stderr, "ktc-fuzz-parse: %s: %s LLVM IR\n", lowering.name,
                 llvmModule ? "translated to" : "not translated to");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > kMaxInput)
    return -1;
  // As ktc-opt and ktc-compile: too deep nesting is refused before parsing
  // (it would overflow the stack in MLIR's recursive parser).
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  if (mlir::ktc::findTooDeepNesting(text))
    return 0;
  // A context per input: nothing an input uniques outlives it. Passes run
  // on this thread (libFuzzer's timeouts and stacks stay meaningful).
  MLIRContext context(registry(), MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler collect(&context, [](Diagnostic &diag) {
    if (verbose())
      llvm::errs() << diag.getLocation() << ": " << diag << "\n";
    return success();
  });
  OwningOpRef<ModuleOp> module =
      parse(llvm::StringRef(reinterpret_cast<const char *>(data), size),
            &context);
  if (!module)
    return 0; // did not parse or verify
  roundTrip(*module, /*generic=*/false);
  roundTrip(*module, /*generic=*/true);
  if (!smallShapes(*module))
    return 0;
  for (const Lowering &lowering : lowerings())
    lower(*module, lowering);
  return 0;
}
