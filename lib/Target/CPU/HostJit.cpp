//===- HostJit.cpp - running host kernels through ORC ----------------------===//

#include "HostTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <atomic>
#include <mutex>
#include <vector>

using namespace mlir;

namespace ktc::host {

HostKernel::~HostKernel() = default;
HostKernel::HostKernel(HostKernel &&) noexcept = default;

static void initNativeTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

llvm::Error lowerToLLVMDialect(ModuleOp module, const HostHooks *hooks) {
  MLIRContext *ctx = module.getContext();
  std::string diagnostics;
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
    llvm::raw_string_ostream os(diagnostics);
    os << diag.getLocation() << ": " << diag.str() << "\n";
    return success();
  });
  PassManager pm(ctx);
  if (hooks && hooks->instrument)
    hooks->instrument(pm);
  buildHostPipeline(pm);
  if (failed(pm.run(module)))
    return llvm::createStringError("lowering to the host failed:\n" +
                                   diagnostics);
  return llvm::Error::success();
}

/// The kernel as an optimised LLVM module for the host's target machine.
static llvm::Expected<std::unique_ptr<llvm::Module>>
optimisedModule(ModuleOp module, llvm::LLVMContext &llvmContext,
                std::unique_ptr<llvm::TargetMachine> &tm) {
  initNativeTarget();
  if (llvm::Error e = lowerToLLVMDialect(module))
    return std::move(e);
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto machine = builder->createTargetMachine();
  if (!machine)
    return machine.takeError();
  tm = std::move(*machine);
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule)
    return llvm::createStringError("translation to LLVM IR failed");
  llvmModule->setDataLayout(tm->createDataLayout());
  llvmModule->setTargetTriple(tm->getTargetTriple());
  if (llvm::Error e = makeOptimizingTransformer(3, 0, tm.get())(llvmModule.get()))
    return std::move(e);
  return std::move(llvmModule);
}

llvm::Expected<std::string> emitLLVMIR(ModuleOp module) {
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::TargetMachine> tm;
  auto llvmModule = optimisedModule(module, llvmContext, tm);
  if (!llvmModule)
    return llvmModule.takeError();
  std::string text;
  llvm::raw_string_ostream os(text);
  (*llvmModule)->print(os, nullptr);
  return text;
}

llvm::Expected<std::string> emitAssembly(ModuleOp module) {
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::TargetMachine> tm;
  auto llvmModule = optimisedModule(module, llvmContext, tm);
  if (!llvmModule)
    return llvmModule.takeError();
  llvm::SmallString<0> text;
  llvm::raw_svector_ostream os(text);
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr,
                              llvm::CodeGenFileType::AssemblyFile))
    return llvm::createStringError("the host target cannot emit assembly");
  pm.run(**llvmModule);
  return std::string(text);
}

llvm::Expected<HostKernel> HostKernel::compile(ModuleOp module,
                                               llvm::StringRef kernelName,
                                               const HostHooks *hooks) {
  initNativeTarget();
  if (llvm::Error e = lowerToLLVMDialect(module, hooks))
    return std::move(e);
  ExecutionEngineOptions options;
  auto optimise = makeOptimizingTransformer(/*optLevel=*/3,
                                            /*sizeLevel=*/0,
                                            /*targetMachine=*/nullptr);
  auto transformer = [&](llvm::Module *m) -> llvm::Error {
    if (llvm::Error e = optimise(m))
      return e;
    if (hooks && hooks->optimised)
      hooks->optimised(*m);
    return llvm::Error::success();
  };
  options.transformer = transformer;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  auto engine = ExecutionEngine::create(module, options);
  if (!engine)
    return engine.takeError();
  HostKernel kernel;
  kernel.engine_ = std::move(*engine);
  auto entry = kernel.engine_->lookupPacked(kernelName);
  if (!entry)
    return entry.takeError();
  kernel.entry_ = *entry;
  return std::move(kernel);
}

void HostKernel::runProgram(void **args, size_t numArgs,
                            std::array<int32_t, 3> pid,
                            std::array<int32_t, 3> grid) const {
  std::vector<void *> all(args, args + numArgs);
  for (int32_t &v : pid)
    all.push_back(&v);
  for (int32_t &v : grid)
    all.push_back(&v);
  entry_(all.data());
}

void HostKernel::run(void **args, size_t numArgs,
                     std::array<int32_t, 3> grid) const {
  int64_t total = int64_t(grid[0]) * grid[1] * grid[2];
  if (total <= 0)
    return;
  unsigned workers = std::min<int64_t>(
      total, llvm::hardware_concurrency().compute_thread_count());
  std::atomic<int64_t> next{0};
  auto work = [&] {
    for (int64_t i = next++; i < total; i = next++) {
      std::array<int32_t, 3> pid{int32_t(i % grid[0]),
                                 int32_t(i / grid[0] % grid[1]),
                                 int32_t(i / (int64_t(grid[0]) * grid[1]))};
      runProgram(args, numArgs, pid, grid);
    }
  };
  if (workers <= 1) {
    work();
    return;
  }
  llvm::DefaultThreadPool pool(llvm::hardware_concurrency(workers));
  for (unsigned w = 0; w < workers; ++w)
    pool.async(work);
  pool.wait();
}

} // namespace ktc::host
