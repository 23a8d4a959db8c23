//===- HostJit.cpp - running host kernels through ORC ----------------------===//

#include "HostTarget.h"

#include "HostDebug.h"

#include "lib/Support/ThreadDiagnostics.h"
#include "lib/Target/LLVMErrors.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <atomic>
#include <mutex>
#include <utility>
#include <vector>

using namespace mlir;

namespace ktc::host {

static void initNativeTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // inline_asm_elementwise: the host JIT assembles x86 inline asm.
    llvm::InitializeNativeTargetAsmParser();
  });
}

/// The host as a JIT target: this CPU and its features, position-independent
/// code (objects are linked anywhere in the address space, and may come from
/// the disk cache), -O3 code generation.
static llvm::orc::JITTargetMachineBuilder
hostMachineBuilder(const HostCpu *cpu = nullptr) {
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    llvm::report_fatal_error(builder.takeError());
  if (cpu) {
    builder->setCPU(cpu->cpu);
    builder->getFeatures() = llvm::SubtargetFeatures(cpu->features);
  }
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  builder->setRelocationModel(llvm::Reloc::PIC_);
  return std::move(*builder);
}

// A kernel's symbols in its host object: its user-given name is an
// identifier, so it could be anything the process defines (expf, free,
// memset, main...); these names hold a '.', which no C or C++ symbol does,
// and the kernel function itself is made internal.
static std::string packedName(llvm::StringRef kernel) {
  return ("ktc.entry." + kernel).str();
}
static std::string kernelSymbol(llvm::StringRef kernel) {
  return ("ktc.kernel." + kernel).str();
}

llvm::Error lowerToLLVMDialect(ModuleOp module, const HostHooks *hooks) {
  MLIRContext *ctx = module.getContext();
  std::string diagnostics;
  ktc::ThreadDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
    llvm::raw_string_ostream os(diagnostics);
    os << diag.getLocation() << ": " << diag.str() << "\n";
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

/// Runs LLVM's -O3 pipeline for the host on `module`, without loop unrolling
/// or interleaving: blocks are already loops over whole tensors, which the
/// loop vectoriser widens to the host's vector registers; unrolling them
/// again multiplies the code (and the compile time) for little speed.
static void optimise(llvm::Module &module, llvm::TargetMachine &tm) {
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = false;
  tuning.LoopInterleaving = false;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm, tuning);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3)
      .run(module, mam);
}

/// The kernel as an optimised LLVM module for the host's target machine.
/// `errors` keeps what LLVM reports on `llvmContext` from then on (inline
/// assembly that does not assemble): it must outlive the context.
static llvm::Expected<std::unique_ptr<llvm::Module>>
optimisedModule(ModuleOp module, llvm::LLVMContext &llvmContext,
                std::unique_ptr<llvm::TargetMachine> &tm,
                target::LLVMErrors &errors, const HostHooks *hooks = nullptr,
                const HostCpu *cpu = nullptr) {
  initNativeTarget();
  if (llvm::Error e = lowerToLLVMDialect(module, hooks))
    return std::move(e);
  auto machine = hostMachineBuilder(cpu).createTargetMachine();
  if (!machine)
    return machine.takeError();
  tm = std::move(*machine);
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule)
    return llvm::createStringError("translation to LLVM IR failed");
  llvmModule->setDataLayout(tm->createDataLayout());
  llvmModule->setTargetTriple(tm->getTargetTriple());
  errors.watch(module, *llvmModule);
  optimise(*llvmModule, *tm);
  return std::move(llvmModule);
}

llvm::Expected<std::string> emitLLVMIR(ModuleOp module, const HostHooks *hooks,
                                       const HostCpu *cpu) {
  target::LLVMErrors errors; // outlives the context
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::TargetMachine> tm;
  auto llvmModule =
      optimisedModule(module, llvmContext, tm, errors, hooks, cpu);
  if (!llvmModule)
    return llvmModule.takeError();
  std::string text;
  llvm::raw_string_ostream os(text);
  (*llvmModule)->print(os, nullptr);
  return text;
}

llvm::Expected<std::string> emitAssembly(ModuleOp module,
                                         const HostHooks *hooks,
                                         const HostCpu *cpu) {
  target::LLVMErrors errors; // outlives the context
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::TargetMachine> tm;
  auto llvmModule =
      optimisedModule(module, llvmContext, tm, errors, hooks, cpu);
  if (!llvmModule)
    return llvmModule.takeError();
  llvm::SmallString<0> text;
  llvm::raw_svector_ostream os(text);
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr,
                              llvm::CodeGenFileType::AssemblyFile))
    return llvm::createStringError("the host target cannot emit assembly");
  pm.run(**llvmModule);
  if (llvm::Error e = errors.take())
    return std::move(e);
  return std::string(text);
}

/// The ORC JIT every host kernel is loaded into, one JITDylib per kernel
/// (a kernel's specialisations share its symbol name). Never destroyed:
/// kernels held in static caches may outlive any other owner at exit.
static llvm::orc::LLJIT &hostJit() {
  static llvm::orc::LLJIT *jit = [] {
    initNativeTarget();
    auto created = llvm::orc::LLJITBuilder()
                       .setJITTargetMachineBuilder(hostMachineBuilder())
                       .create();
    if (!created)
      llvm::report_fatal_error(created.takeError());
    return created->release();
  }();
  return *jit;
}

HostKernel::~HostKernel() {
  if (dylib_)
    llvm::consumeError(
        hostJit().getExecutionSession().removeJITDylib(*dylib_));
}
HostKernel::HostKernel(HostKernel &&other) noexcept
    : dylib_(std::exchange(other.dylib_, nullptr)),
      entry_(std::exchange(other.entry_, nullptr)) {}

/// Adds `ktc.entry.<name>(void **args)`, which loads each argument of
/// kernel `name` (the function `symbol`) through args[i] and calls it: one
/// entry for every signature. The kernel function becomes internal.
static llvm::Error addPackedEntry(llvm::Module &module, llvm::StringRef symbol,
                                  llvm::StringRef name) {
  llvm::Function *kernel = module.getFunction(symbol);
  if (!kernel)
    return llvm::createStringError("no function '" + symbol +
                                   "' in the host module");
  kernel->setLinkage(llvm::GlobalValue::InternalLinkage);
  llvm::LLVMContext &ctx = module.getContext();
  auto *ptr = llvm::PointerType::getUnqual(ctx);
  auto *entry = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr}, false),
      llvm::GlobalValue::ExternalLinkage, packedName(name), module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", entry));
  llvm::SmallVector<llvm::Value *> args;
  for (auto [i, param] : llvm::enumerate(kernel->args())) {
    llvm::Value *slot = b.CreateConstGEP1_64(ptr, entry->getArg(0), i);
    args.push_back(b.CreateLoad(param.getType(), b.CreateLoad(ptr, slot)));
  }
  b.CreateCall(kernel, args);
  b.CreateRetVoid();
  return llvm::Error::success();
}

llvm::Expected<std::string> compileObject(ModuleOp module,
                                          llvm::StringRef kernelName,
                                          const HostHooks *hooks,
                                          const HostCpu *cpu) {
  // Renamed before lowering: a kernel named like a function the lowering
  // declares (malloc, free, expf...) would become that function.
  auto func = module.lookupSymbol<func::FuncOp>(kernelName);
  if (!func)
    return llvm::createStringError("no kernel '" + kernelName +
                                   "' in the module");
  std::string symbol = kernelSymbol(kernelName);
  SymbolTable::setSymbolName(func, symbol);
  target::LLVMErrors errors; // outlives the context
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::TargetMachine> tm;
  auto llvmModule =
      optimisedModule(module, llvmContext, tm, errors, hooks, cpu);
  if (!llvmModule)
    return llvmModule.takeError();
  if (hooks && hooks->optimised)
    hooks->optimised(**llvmModule);
  if (llvm::Error e = addPackedEntry(**llvmModule, symbol, kernelName))
    return std::move(e);
  llvm::SmallString<0> object;
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr,
                              llvm::CodeGenFileType::ObjectFile))
    return llvm::createStringError("the host target cannot emit objects");
  pm.run(**llvmModule);
  if (llvm::Error e = errors.take())
    return std::move(e);
  return std::string(object);
}

std::string targetId() {
  initNativeTarget();
  std::string id = llvm::sys::getProcessTriple() + ":" +
                   llvm::sys::getHostCPUName().str();
  for (const auto &[feature, on] : llvm::sys::getHostCPUFeatures())
    if (on)
      id += "," + feature.str();
  return id;
}

llvm::Expected<HostKernel> HostKernel::load(llvm::StringRef object,
                                            llvm::StringRef kernelName) {
  static std::atomic<uint64_t> nextDylib{0};
  llvm::orc::LLJIT &jit = hostJit();
  auto dylib = jit.createJITDylib("ktc" + std::to_string(nextDylib++));
  if (!dylib)
    return dylib.takeError();
  HostKernel kernel;
  kernel.dylib_ = &*dylib;
  if (llvm::Error e = defineHostDebugSymbols(jit, *dylib))
    return std::move(e);
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(object, kernelName);
  // One kernel linked at a time: linking resolves the process's symbols
  // (malloc, expf...) through the main JITDylib's generator, which can
  // define one twice when two links race ("duplicate definition of symbol
  // 'malloc'", seen once under TSan with 8 processes x threads loading).
  // Loading happens once per compiled kernel, never per launch.
  static std::mutex linking;
  std::lock_guard<std::mutex> lock(linking);
  if (llvm::Error e = jit.addObjectFile(*dylib, std::move(buffer)))
    return std::move(e);
  auto entry = jit.lookup(*dylib, packedName(kernelName));
  if (!entry)
    return entry.takeError();
  kernel.entry_ = entry->toPtr<void(void **)>();
  return std::move(kernel);
}

llvm::Expected<HostKernel> HostKernel::compile(ModuleOp module,
                                               llvm::StringRef kernelName,
                                               const HostHooks *hooks) {
  auto object = compileObject(module, kernelName, hooks);
  if (!object)
    return object.takeError();
  return load(*object, kernelName);
}

void HostKernel::runProgram(void **args, size_t numArgs,
                            std::array<int32_t, 3> pid,
                            std::array<int32_t, 3> grid,
                            AssertRecord *asserts) const {
  AssertScope scope(asserts, grid); // device_assert's failures go there
  // The arguments, then the program id and the grid: on the stack for any
  // kernel of up to 26 arguments (a program allocates nothing).
  llvm::SmallVector<void *, 32> all(args, args + numArgs);
  for (int32_t &v : pid)
    all.push_back(&v);
  for (int32_t &v : grid)
    all.push_back(&v);
  entry_(all.data());
}

/// The threads every launch on the CPU shares, started once: a launch
/// waits only for its own programs (a task group), so launches from several
/// threads may overlap.
static llvm::DefaultThreadPool &programPool() {
  static llvm::DefaultThreadPool pool(llvm::hardware_concurrency());
  return pool;
}

void HostKernel::run(void **args, size_t numArgs, std::array<int32_t, 3> grid,
                     AssertRecord *asserts) const {
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
      runProgram(args, numArgs, pid, grid, asserts);
    }
  };
  if (workers <= 1) {
    work();
    return;
  }
  llvm::ThreadPoolTaskGroup group(programPool());
  for (unsigned w = 0; w < workers; ++w)
    group.async(work);
  group.wait();
}

} // namespace ktc::host
