//===- Generate.h - ktc-aot: compiling exported kernels (internal) -*- C++ -*-===//

#ifndef KTC_LIB_AOT_GENERATE_H
#define KTC_LIB_AOT_GENERATE_H

#include "ktc/Aot.h"

#include <string>
#include <vector>

namespace ktc::aot {

struct GenerateOptions {
  std::string name;                 // NAME.h, NAME.cpp, NAME_host.a
  std::string ns;                   // the launch functions' namespace
  std::vector<std::string> targets; // host, sm_90, gfx942, ...
  std::string outDir;
  /// Launches on a device with no code object go to ktc's JIT
  /// (ktc::aot::jitLaunch, lib/Aot/JitFallback.cpp) instead of failing.
  bool jitFallback = false;
};

/// Compiles every export for every target and writes the header, the
/// source and the host archive into options.outDir. Throws ktc::Error.
void generate(const std::vector<Export> &exports,
              const GenerateOptions &options);

} // namespace ktc::aot

#endif // KTC_LIB_AOT_GENERATE_H
