//===- Compile.cpp - from a traced kernel to the compiler and back ---------===//
//
// The runtime's side of compiling: a launch's specialisation written into
// the traced IR (divisibility, arguments equal to one), the compile by
// lib/Compiler for the device's target, and the device's load. Kernel's
// emit() and info() for a named target go through the same compiler (their
// _as_launched forms with a launch's specialisation, written the same way).
// Every
// llvm::Error becomes a ktc::Error here.
//
//===----------------------------------------------------------------------===//

#include "Device.h"

#include "lib/Builder/Trace.h"
#include "lib/Cache/DiskCache.h"
#include "lib/Support/Env.h"
#include "lib/Transforms/NarrowOffsets.h"

#include "dialect/KtcDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include <cstdio>

namespace ktc::detail {

/// Kernels are traced in the compiler's context (installed before main).
static const bool contextInstalled = [] {
  setGlobalContextProvider(&compiler::context);
  return true;
}();

/// The compile options of `options`, or a ktc::Error at `loc`.
static target::CompileOptions compileOptions(const Options &options,
                                             std::source_location loc) {
  auto made = target::CompileOptions::make(
      options.num_warps, options.num_stages, options.check_bounds,
      "Options::num_warps", "Options::num_stages");
  if (!made)
    throw Error(llvm::toString(made.takeError()), loc);
  return *made;
}

void checkOptions(const Options &options, std::source_location loc) {
  (void)compileOptions(options, loc);
}

/// A target named by the user (Kernel::emit/info), or a ktc::Error at `loc`.
static target::Target parseTarget(const std::string &name,
                                  std::source_location loc) {
  auto target = target::Target::parse(name);
  if (!target)
    throw Error(llvm::toString(target.takeError()), loc);
  return *target;
}

/// Writes the launch's specialisation into the traced kernel: ktc.divisibility
/// on its arguments (the axis analysis reads it), arguments equal to one
/// folded. Returns the log line KTC_LOG_SPECIALIZATIONS shows.
static std::string specialise(mlir::func::FuncOp func,
                              std::span<const uint8_t> spec) {
  mlir::OpBuilder b(func.getContext());
  std::string log;
  bool constants = false;
  for (size_t i = 0, arg = 0; i < spec.size(); ++i) {
    if (spec[i] == 0)
      continue; // a constexpr
    if (spec[i] == 16)
      func.setArgAttr(arg, mlir::ktc::KtcDialect::getDivisibilityAttrName(),
                      b.getI32IntegerAttr(16));
    if (spec[i] == kEqualToOne) {
      // The argument is 1 in every launch of this specialisation: fold it
      // (a stride of 1 makes addresses contiguous).
      mlir::BlockArgument value = func.getArgument(arg);
      b.setInsertionPointToStart(&func.getBody().front());
      auto one = mlir::arith::ConstantOp::create(
          b, func.getLoc(), b.getIntegerAttr(value.getType(), 1));
      value.replaceAllUsesWith(one);
      constants = true;
    }
    log += (log.empty() ? "" : ", ") + std::string("arg") +
           std::to_string(arg) +
           (spec[i] == 16 ? ":16" : spec[i] == kEqualToOne ? ":=1" : ":1");
    ++arg;
  }
  if (constants) {
    mlir::PassManager pm(func.getContext());
    pm.addPass(mlir::createCanonicalizerPass());
    pm.addPass(mlir::createCSEPass());
    if (failed(pm.run(func->getParentOfType<mlir::ModuleOp>())))
      throw Error("simplifying kernel '" + func.getSymName().str() +
                  "' for its constant arguments failed");
  }
  return log;
}

std::shared_ptr<const Compiled> compileFor(Trace &trace, Device &device,
                                           const std::vector<uint8_t> &spec) {
  mlir::ModuleOp module = trace.impl().finalize();
  mlir::func::FuncOp func = trace.impl().func;
  std::vector<bool> narrow = mlir::ktc::narrowlyIndexedArgs(func);
  std::string log = specialise(func, spec);
  const target::Target &target = device.impl().target();
  if (env::flag("KTC_LOG_SPECIALIZATIONS", false)) {
    std::string constexprs;
    if (auto dict = func->getAttrOfType<mlir::DictionaryAttr>(
            mlir::ktc::KtcDialect::getConstexprAttrName())) {
      llvm::raw_string_ostream os(constexprs);
      os << " " << dict;
    }
    std::fprintf(stderr, "ktc: compiling %s%s [%s] for %s\n",
                 func.getSymName().str().c_str(), constexprs.c_str(),
                 log.c_str(), device.name().c_str());
  }
  target::CompileOptions options =
      compileOptions(trace.impl().options, std::source_location::current());
  // A checked launch is the host's only (GPUs ignore the option).
  options.checkBounds &= !target.isGpu();
  auto compiled = compiler::compile(module, target, options);
  if (!compiled)
    throw Error(llvm::toString(compiled.takeError()));
  auto result = std::make_shared<Compiled>();
  result->kernel = std::move(*compiled);
  result->narrowOffsets = std::move(narrow);
  result->checkBounds = options.checkBounds;
  return result;
}

std::shared_ptr<Executable> loadOn(const Compiled &compiled, Device &device) {
  std::shared_ptr<Executable> executable = device.impl().load(compiled.kernel);
  executable->narrowOffsets = compiled.narrowOffsets;
  executable->checkBounds = compiled.checkBounds;
  return executable;
}

std::shared_ptr<Executable> compile(Trace &trace, Device &device,
                                    const std::vector<uint8_t> &spec) {
  return loadOn(*compileFor(trace, device, spec), device);
}

/// Whether `name` names a device of this process rather than a target.
static bool isDeviceName(const std::string &name) {
  llvm::StringRef kind = llvm::StringRef(name).split(':').first;
  return kind == "cpu" || kind == "cuda" || kind == "hip" || name == "auto";
}

KernelInfo info(Trace &trace, const std::string &name,
                std::source_location loc, std::span<const uint8_t> spec) {
  if (isDeviceName(name))
    return info(trace, Device::get(name, loc), spec);
  if (!target::Target::namesAKind(name))
    throw Error("unknown target '" + name +
                    "' (a device: auto, cpu, cuda, hip; or host, sm_<N>, "
                    "gfx<N>)",
                loc);
  target::Target target = parseTarget(name, loc);
  if (!target.isGpu())
    return info(trace, Device::get("cpu", loc), spec);
  target::CompileOptions options =
      compileOptions(trace.impl().options, loc);
  mlir::ModuleOp module = trace.impl().finalize();
  specialise(trace.impl().func, spec);
  auto compiled = compiler::compile(module, target, options);
  if (!compiled)
    throw Error(llvm::toString(compiled.takeError()), loc);
  return toInfo(compiled->resources, target.name());
}

KernelInfo info(Trace &trace, Device &device, std::span<const uint8_t> spec) {
  std::vector<uint8_t> specialisation(spec.begin(), spec.end());
  if (spec.empty()) // every argument `1`: nothing specialised
    specialisation.assign(trace.impl().args.size(), 1);
  return compile(trace, device, specialisation)->info();
}

std::string emit(Trace &trace, const std::string &what,
                 const std::string &name, std::source_location loc,
                 std::span<const uint8_t> spec) {
  auto stage = target::parseStage(what);
  if (!stage)
    throw Error(llvm::toString(stage.takeError()), loc);
  target::Target target = parseTarget(name, loc);
  mlir::ModuleOp module = trace.impl().finalize();
  specialise(trace.impl().func, spec);
  if (*stage == target::Stage::MLIR)
    return trace.finish();
  target::CompileOptions options =
      compileOptions(trace.impl().options, loc);
  auto text = compiler::emit(module, target, options, *stage);
  if (!text)
    throw Error(llvm::toString(text.takeError()), loc);
  return *text;
}

} // namespace ktc::detail

namespace ktc {
CacheStats cache_stats() {
  cache::DiskCache &disk = cache::DiskCache::global();
  cache::Stats s = disk.stats();
  CacheStats stats;
  stats.compiles = compiler::compileCount();
  stats.disk_enabled = disk.enabled();
  stats.disk_dir = disk.dir();
  stats.disk_hits = s.hits;
  stats.disk_misses = s.misses;
  stats.disk_corrupt = s.corrupt;
  stats.disk_writes = s.writes;
  stats.disk_write_failures = s.write_failures;
  return stats;
}
} // namespace ktc
