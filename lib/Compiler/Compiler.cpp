//===- Compiler.cpp - the one way from ktc IR to a loadable kernel ---------===//

#include "Compiler.h"

#include "Dump.h"

#include "dialect/KtcDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <tuple>

namespace ktc::compiler {

const target::Backend &backendFor(const Target &target) {
  switch (target.kind) {
  case Target::Kind::NVPTX:
    return target::nvptxBackend();
  case Target::Kind::AMDGPU:
    return target::amdgpuBackend();
  case Target::Kind::Host:
    break;
  }
  return target::hostBackend();
}

void registerAllDialects(mlir::DialectRegistry &registry) {
  for (Target::Kind kind :
       {Target::Kind::Host, Target::Kind::NVPTX, Target::Kind::AMDGPU}) {
    Target t;
    t.kind = kind;
    backendFor(t).registerDialects(registry);
  }
}

std::string kernelName(mlir::ModuleOp module) {
  std::string name;
  for (mlir::Operation &op : module.getBody()->getOperations())
    if (auto symbol = op.getAttrOfType<mlir::StringAttr>(
            mlir::SymbolTable::getSymbolAttrName()))
      if (op.hasAttr(mlir::ktc::KtcDialect::getKernelAttrName()) &&
          name.empty())
        name = symbol.str();
  return name;
}

/// Generates `stage` of a copy of `module`, for KTC_DUMP (the compile
/// itself makes only the binary).
static void dumpStage(mlir::ModuleOp module, llvm::StringRef kernel,
                      const Target &target, const CompileOptions &options,
                      Stage stage, llvm::StringRef ext, Dumper &dumper) {
  llvm::StringRef name = target::stageName(stage);
  if (!dumper.wants(name))
    return;
  mlir::OwningOpRef<mlir::ModuleOp> copy = module.clone();
  auto text = backendFor(target).generate(*copy, kernel, target, options,
                                          stage, {});
  if (text)
    dumper.dump(name, ext, *text);
  else
    llvm::consumeError(text.takeError());
}

/// Lowers `module` in place and generates `stage`, with KTC_DUMP's stages
/// and a reproducer on failure.
static llvm::Expected<std::string>
generate(mlir::ModuleOp module, llvm::StringRef kernel, const Target &target,
         const CompileOptions &options, Stage stage, Dumper &dumper,
         const std::function<void(mlir::PassManager &)> &instrument = {}) {
  const target::Backend &backend = backendFor(target);
  if (dumper.wantsLowering()) {
    dumpStage(module, kernel, target, options, Stage::LLVM, "ll", dumper);
    dumpStage(module, kernel, target, options, Stage::Assembly,
              target.assemblyExtension(), dumper);
  }
  target::CompileHooks hooks;
  hooks.instrument = [&](mlir::PassManager &pm) {
    // The "layout" stage: blocks with layouts (GPUs), as loops in waiting
    // (the host).
    dumper.after(pm,
                 target.isGpu() ? "ktc-assign-layouts" : "convert-ktc-to-host",
                 "layout");
    if (instrument)
      instrument(pm);
  };
  auto text = backend.generate(module, kernel, target, options, stage, hooks);
  if (text)
    return text;
  // The reproducer: the kernel and the pipeline in MLIR's format. A failed
  // pipeline reruns in ktc-opt; code generation needs ktc-compile.
  bool lowering = false;
  std::string message;
  llvm::handleAllErrors(
      text.takeError(),
      [&](const target::PipelineError &e) {
        lowering = true;
        message = e.message;
      },
      [&](const llvm::ErrorInfoBase &e) { message = e.message(); });
  std::string pipeline;
  {
    mlir::OpPassManager pm(mlir::ModuleOp::getOperationName());
    backend.buildPipeline(pm, target, options);
    llvm::raw_string_ostream os(pipeline);
    pm.printAsTextualPipeline(os);
  }
  std::string command =
      lowering ? std::string("ktc-opt --run-reproducer")
               : "ktc-compile --target=" + target.name() +
                     (target.isGpu() ? " --emit=bin" : " --emit=asm");
  std::string path = dumper.reproducer(message, pipeline, command);
  if (!path.empty())
    message += "\nreproducer: " + path + " (run: " + command + " " + path + ")";
  return llvm::createStringError(message);
}

llvm::Expected<CompiledKernel> compileUncached(mlir::ModuleOp module,
                                               const Target &target,
                                               const CompileOptions &options,
                                               Dumper &dumper) {
  std::string kernel = kernelName(module);
  auto binary = generate(module, kernel, target, options, Stage::Binary,
                         dumper);
  if (!binary)
    return binary.takeError();
  auto resources = backendFor(target).resources(*binary, kernel, target,
                                                options);
  if (!resources)
    return llvm::createStringError("reading what kernel '" + kernel +
                                   "' uses failed: " +
                                   llvm::toString(resources.takeError()));
  CompiledKernel k;
  k.name = kernel;
  k.target = target.name();
  k.binary = std::move(*binary);
  k.threadsPerBlock = target.isGpu() ? options.numWarps * target.waveSize : 1;
  k.resources = *resources;
  return k;
}

llvm::Expected<std::string>
emit(mlir::ModuleOp module, const Target &target,
     const CompileOptions &options, Stage stage,
     std::function<void(mlir::PassManager &)> instrument) {
  if (stage == Stage::MLIR) {
    std::string text;
    llvm::raw_string_ostream os(text);
    module.print(os);
    return text;
  }
  if (stage == Stage::Binary && !target.isGpu())
    return llvm::createStringError(
        "--emit=bin is for GPU targets; the host JIT-compiles");
  Dumper dumper(module, kernelName(module));
  return generate(module, kernelName(module), target, options, stage, dumper,
                  instrument);
}

//===----------------------------------------------------------------------===//
// CompiledKernel on disk
//===----------------------------------------------------------------------===//

/// Bumped whenever the layout below changes: older entries then fail to
/// parse and are rebuilt.
static constexpr llvm::StringLiteral kMagic = "ktc-compiled-kernel 1\n";

std::string CompiledKernel::serialize() const {
  const KernelResources &r = resources;
  std::string header;
  llvm::raw_string_ostream os(header);
  os << kMagic << name << "\n"
     << target << "\n"
     << threadsPerBlock << " " << r.registers << " " << r.scalarRegisters
     << " " << r.sharedBytes << " " << r.scratchBytes << " " << r.spills << " "
     << r.waveSize << " " << r.maxThreads << "\n"
     << binary.size() << "\n";
  return header + binary;
}

llvm::Expected<CompiledKernel>
CompiledKernel::deserialize(llvm::StringRef blob) {
  auto bad = [] {
    return llvm::createStringError("not a compiled kernel of this ktc");
  };
  if (!blob.consume_front(kMagic))
    return bad();
  auto line = [&] {
    auto [first, rest] = blob.split('\n');
    blob = rest;
    return first;
  };
  CompiledKernel k;
  k.name = line().str();
  k.target = line().str();
  llvm::SmallVector<llvm::StringRef> numbers;
  line().split(numbers, ' ');
  KernelResources &r = k.resources;
  int64_t *fields[] = {&r.registers,    &r.scalarRegisters, &r.sharedBytes,
                       &r.scratchBytes, &r.spills,          &r.waveSize,
                       &r.maxThreads};
  if (numbers.size() != 8 || numbers[0].getAsInteger(10, k.threadsPerBlock))
    return bad();
  for (auto [i, field] : llvm::enumerate(fields))
    if (numbers[i + 1].getAsInteger(10, *field))
      return bad();
  uint64_t size = 0;
  if (line().getAsInteger(10, size) || size != blob.size() || k.name.empty())
    return bad();
  k.binary = blob.str();
  return k;
}

} // namespace ktc::compiler
