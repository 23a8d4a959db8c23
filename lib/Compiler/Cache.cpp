//===- Cache.cpp - compiled kernels kept on disk ---------------------------===//
//
// compile() asks the disk cache (lib/Cache) first. The key hashes what the
// compiled kernel depends on: ktc's version and build id, LLVM's version,
// the target (triple, processor, features), the compile options and the
// kernel's IR. The entry is the whole CompiledKernel (binary and what it
// uses), so that a hit needs no code generator. The runtime's in-memory
// cache sits in front, so this runs once per specialisation per process.
//
//   KTC_CACHE_LOG=1   one line per compile or hit on stderr
//
//===----------------------------------------------------------------------===//

#include "Compiler.h"
#include "Dump.h"

#include "lib/Cache/DiskCache.h"
#include "lib/Support/Env.h"

#include "mlir/IR/OperationSupport.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <cstdio>

namespace ktc::compiler {

llvm::Expected<CompiledKernel> compileUncached(mlir::ModuleOp module,
                                               const Target &target,
                                               const CompileOptions &options,
                                               Dumper &dumper);

namespace {

/// SHA-256 over ktc's sources (cmake/BuildId.cmake).
constexpr const char *kBuildId =
#include "BuildId.inc"
    ;

std::atomic<uint64_t> compiles{0};

bool logging() { return env::flag("KTC_CACHE_LOG", false); }

std::string cacheKey(mlir::ModuleOp module, const Dumper &dumper,
                     const Target &target, const CompileOptions &options) {
  // Without locations (the dumper's text): moving a kernel in its file
  // changes no code. A checked kernel has its ops' lines in its code.
  std::string withLines;
  if (options.checkBounds) {
    llvm::raw_string_ostream os(withLines);
    module.print(os, mlir::OpPrintingFlags().enableDebugInfo());
  }
  const std::string &ir = options.checkBounds ? withLines : dumper.text();
  return cache::KeyBuilder()
      .add("ktc compiled kernel")
      .add(KTC_VERSION)
      .add(kBuildId)
      .add(LLVM_VERSION_STRING)
      .add(target.cacheId())
      .add(int64_t(options.numWarps))
      .add(int64_t(options.numStages))
      .add(int64_t(options.checkBounds))
      .add(ir)
      .hex();
}

} // namespace

const char *buildId() { return kBuildId; }
uint64_t compileCount() { return compiles; }

llvm::Expected<CompiledKernel> compile(mlir::ModuleOp module,
                                       const Target &target,
                                       const CompileOptions &options) {
  cache::DiskCache &disk = cache::DiskCache::global();
  Dumper dumper(module, kernelName(module));
  std::string key;
  if (disk.enabled()) {
    key = cacheKey(module, dumper, target, options);
    if (!dumper.wantsLowering())
      if (std::optional<std::string> blob = disk.get(key)) {
        if (auto hit = CompiledKernel::deserialize(*blob)) {
          if (logging())
            std::fprintf(stderr, "ktc: cache hit: %s for %s (%s)\n",
                         hit->name.c_str(), target.name().c_str(),
                         disk.pathFor(key).c_str());
          return hit;
        } else {
          llvm::consumeError(hit.takeError()); // rebuilt and stored again
        }
      }
  }
  auto start = std::chrono::steady_clock::now();
  auto compiled = compileUncached(module, target, options, dumper);
  if (!compiled)
    return compiled.takeError();
  ++compiles;
  bool stored = !key.empty() && disk.put(key, compiled->serialize());
  if (logging())
    std::fprintf(
        stderr, "ktc: compiled: %s for %s in %.1f ms%s%s%s\n",
        compiled->name.c_str(), target.name().c_str(),
        std::chrono::duration<double, std::milli>(
            std::chrono::steady_clock::now() - start)
            .count(),
        stored ? " (stored in " : "", stored ? disk.pathFor(key).c_str() : "",
        stored ? ")" : "");
  return compiled;
}

} // namespace ktc::compiler
