//===- Target.h - what ktc compiles for, parsed once ------------*- C++ -*-===//
//
// A Target names the machine a kernel is compiled for: the host CPU, an
// NVIDIA GPU (sm_<N>, sm_<N>a, sm_<N>f) or an AMD GPU (gfx<N>, with an AMD
// target id's features: "gfx942:sramecc+:xnack-"). It is parsed from its
// name once, where the name enters ktc (Kernel::emit/info, a device,
// ktc-compile, ktc-opt's pipeline options); nothing else looks at the
// spelling of a target's name.
//
//   llvm::Expected<Target> t = Target::parse("gfx942");
//   t->kind == Target::Kind::AMDGPU, t->waveSize == 64
//
// Unknown names, names LLVM knows but ktc does not serve (sm_60, gfx803)
// and malformed target ids are errors that say what is accepted.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_TARGET_TARGET_H
#define KTC_LIB_TARGET_TARGET_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace ktc::target {

struct Target {
  enum class Kind : uint8_t { Host, NVPTX, AMDGPU };

  Kind kind = Kind::Host;
  /// The processor: "sm_90", "sm_100a", "gfx942", or the host CPU's LLVM
  /// name ("znver4", "x86-64").
  std::string arch;
  /// LLVM subtarget features: "+ptx80" (the PTX version), "+sramecc,-xnack"
  /// (from an AMD target id), the host CPU's features.
  std::string features;
  /// Threads per wave (warp): 32 on NVIDIA and RDNA (gfx10+), 64 on CDNA
  /// (gfx9); 1 on the host.
  unsigned waveSize = 1;

  /// Parses "host", "sm_<N>[a|f]" or "gfx<N>[:feature(+|-)...]".
  static llvm::Expected<Target> parse(llvm::StringRef name);
  /// The CPU this process runs on, or the named one (an LLVM CPU name and
  /// features, for tests that compile for a CPU other than this one).
  static Target host();
  static Target host(llvm::StringRef cpu, llvm::StringRef features);

  /// Whether `name` is spelt like a target of a known kind ("host",
  /// "sm_...", "gfx..."), valid or not: callers that also take other names
  /// (devices) tell the two apart with it.
  static bool namesAKind(llvm::StringRef name);

  bool isGpu() const { return kind != Kind::Host; }
  /// The name it was parsed from, as ktc prints it: "host", "sm_90",
  /// "gfx942:sramecc+:xnack-".
  std::string name() const;
  /// The LLVM target triple.
  llvm::StringRef triple() const;
  /// What generated code depends on besides the kernel (triple, processor,
  /// features): part of the disk cache's key.
  std::string cacheId() const;
  /// The assembly file's extension: "ptx" or "s".
  llvm::StringRef assemblyExtension() const;
  /// "NVPTX", "AMDGPU", "host".
  llvm::StringRef kindName() const;

  /// For an NVIDIA target, the SM number (90 for sm_90a); else 0.
  unsigned smVersion() const;
  /// For an AMD target, the ISA major version (9 for gfx942, 12 for
  /// gfx1250); else 0.
  unsigned gfxMajor() const;

  bool operator==(const Target &) const = default;
};

/// The names ktc documents as examples of each kind, for error messages.
llvm::StringRef exampleTargets();

} // namespace ktc::target

#endif // KTC_LIB_TARGET_TARGET_H
