//===- CompileCache.cpp - compiled kernels kept on disk --------------------===//
//
// Every compile of a kernel for a device goes through compileCached: the key
// hashes what the binary depends on (ktc's version and build id, LLVM's
// version, the device's target, the launch options, the specialised kernel's
// IR), the disk cache (lib/Cache) answers or the device compiles and the
// result is stored. The Kernel's in-memory cache sits in front, so this runs
// once per specialisation per process.
//
//   KTC_CACHE_LOG=1   one line per compile or hit on stderr
//
//===----------------------------------------------------------------------===//

#include "Device.h"

#include "lib/Cache/DiskCache.h"
#include "lib/Support/Env.h"

#include "dialect/KtcDialect.h"

#include "mlir/IR/OperationSupport.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace ktc {
namespace detail {
namespace {

/// SHA-256 over ktc's sources (cmake/BuildId.cmake).
constexpr const char *kBuildId =
#include "BuildId.inc"
    ;

std::atomic<uint64_t> compiles{0};

bool logging() { return env::flag("KTC_CACHE_LOG", false); }

std::string cacheKey(mlir::ModuleOp module, DeviceImpl &device,
                     unsigned numWarps, int numStages) {
  // Without locations: moving a kernel in its file changes no code. A
  // checked kernel has its ops' lines in its code (ktc.check_bounds).
  bool checked = false;
  module.walk([&](mlir::Operation *op) {
    checked |= op->hasAttr(mlir::ktc::KtcDialect::getCheckBoundsAttrName());
  });
  std::string ir;
  llvm::raw_string_ostream os(ir);
  module.print(os, mlir::OpPrintingFlags().enableDebugInfo(checked));
  return cache::KeyBuilder()
      .add("ktc kernel")
      .add(KTC_VERSION)
      .add(kBuildId)
      .add(LLVM_VERSION_STRING)
      .add(device.target())
      .add(int64_t(numWarps))
      .add(int64_t(numStages))
      .add(ir)
      .hex();
}

} // namespace

const char *buildId() { return kBuildId; }

std::shared_ptr<Executable> compileCached(mlir::ModuleOp module,
                                          llvm::StringRef kernel,
                                          DeviceImpl &device, unsigned numWarps,
                                          int numStages, Dumper &dumper) {
  cache::DiskCache &disk = cache::DiskCache::global();
  std::string key;
  if (disk.enabled()) {
    key = cacheKey(module, device, numWarps, numStages);
    if (!dumper.wantsLowering())
      if (std::optional<std::string> binary = disk.get(key)) {
        if (logging())
          std::fprintf(stderr, "ktc: cache hit: %s for %s (%s)\n",
                       kernel.str().c_str(), device.name().c_str(),
                       disk.pathFor(key).c_str());
        return device.load(*binary, kernel, numWarps);
      }
  }
  auto start = std::chrono::steady_clock::now();
  std::string binary = device.codegen(module, kernel, numWarps, dumper);
  ++compiles;
  bool stored = !key.empty() && disk.put(key, binary);
  if (logging())
    std::fprintf(
        stderr, "ktc: compiled: %s for %s in %.1f ms%s%s%s\n",
        kernel.str().c_str(), device.name().c_str(),
        std::chrono::duration<double, std::milli>(
            std::chrono::steady_clock::now() - start)
            .count(),
        stored ? " (stored in " : "", stored ? disk.pathFor(key).c_str() : "",
        stored ? ")" : "");
  return device.load(binary, kernel, numWarps);
}

} // namespace detail

CacheStats cache_stats() {
  cache::DiskCache &disk = cache::DiskCache::global();
  cache::Stats s = disk.stats();
  CacheStats stats;
  stats.compiles = detail::compiles;
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
