//===- Target.cpp - what ktc compiles for, parsed once --------------------===//
//
// The one place that reads a target's name. A GPU is accepted when LLVM's
// backend knows the processor and ktc's lowering serves its generation:
// NVIDIA sm_70 and newer (shfl.sync and independent thread scheduling as
// the lowering uses them), AMD gfx9 and newer (the DPP and ds_bpermute
// controls the lowering emits). Each known kind's facts are here: the wave
// size (CDNA's 64 or RDNA's 32, from LLVM's AMDGPU target parser) and the
// PTX version an SM is compiled with.
//
//===----------------------------------------------------------------------===//

#include "Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/TargetParser.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <memory>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTargetMC();
}

namespace ktc::target {

static constexpr llvm::StringLiteral kNVPTXTriple = "nvptx64-nvidia-cuda";
static constexpr llvm::StringLiteral kAMDGPUTriple = "amdgcn-amd-amdhsa";

llvm::StringRef exampleTargets() {
  return "host, sm_<N> or gfx<N>";
}

static llvm::Error unknown(llvm::StringRef name) {
  return llvm::createStringError("unknown target '" + name.str() + "' (" +
                                 exampleTargets().str() + ")");
}

/// A GPU name LLVM's backend for it does not know.
static llvm::Error unknownGpu(llvm::StringRef name, bool nvidia) {
  return llvm::createStringError(
      "unknown GPU target '" + name.str() + "': LLVM's " +
      (nvidia ? "NVPTX" : "AMDGPU") + " backend does not know it (ktc " +
      "supports " +
      (nvidia ? "sm_70 and newer: sm_80, sm_90, sm_100, sm_120, ..."
              : "gfx9 and newer: gfx90a, gfx942, gfx950, gfx1100, gfx1200, "
                "gfx1250, ...") +
      ")");
}

//===----------------------------------------------------------------------===//
// NVIDIA
//===----------------------------------------------------------------------===//

/// The number N of "sm_<N>[a|f]" (0 when the name is not of that form).
static unsigned smNumber(llvm::StringRef arch) {
  if (!arch.consume_front("sm_"))
    return 0;
  if (arch.ends_with("a") || arch.ends_with("f"))
    arch = arch.drop_back();
  unsigned n = 0;
  if (arch.empty() || !llvm::all_of(arch, llvm::isDigit) ||
      arch.getAsInteger(10, n))
    return 0;
  return n;
}

/// Whether LLVM's NVPTX backend knows the processor `arch`. Its processor
/// table is made once: targets are parsed again by occupancy queries.
static bool nvptxKnows(llvm::StringRef arch) {
  static const std::unique_ptr<llvm::MCSubtargetInfo> subtarget = [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTargetMC();
    llvm::Triple triple(kNVPTXTriple);
    std::string error;
    const llvm::Target *target =
        llvm::TargetRegistry::lookupTarget(triple, error);
    return std::unique_ptr<llvm::MCSubtargetInfo>(
        target ? target->createMCSubtargetInfo(triple, "", "") : nullptr);
  }();
  return subtarget && subtarget->isCPUStringValid(arch);
}

/// The PTX ISA version an SM is compiled with: 8.0 where LLVM's minimum for
/// the SM is no higher (everything up to sm_90a, as ktc has always
/// compiled), else the SM's own minimum, which LLVM picks when no version
/// is asked for (LLVM 22: sm_100 8.6, sm_103 8.8, sm_120 8.7, sm_88 and
/// sm_110 9.0). Asking for 8.0 there is a fatal error inside LLVM.
static std::string ptxFeatures(unsigned sm) {
  return sm <= 90 && sm != 88 ? "+ptx80" : "";
}

static llvm::Expected<Target> parseNVPTX(llvm::StringRef name) {
  unsigned sm = smNumber(name);
  if (!sm || !nvptxKnows(name))
    return unknownGpu(name, true);
  if (sm < 70)
    return llvm::createStringError(
        "GPU target '" + name.str() +
        "' is older than ktc supports (NVIDIA sm_70 or newer)");
  Target t;
  t.kind = Target::Kind::NVPTX;
  t.arch = name.str();
  t.features = ptxFeatures(sm);
  t.waveSize = 32;
  return t;
}

//===----------------------------------------------------------------------===//
// AMD
//===----------------------------------------------------------------------===//

/// "gfx942:sramecc+:xnack-": the processor, then features named with their
/// setting (AMD's target id, as HIP's gcnArchName reports it).
static llvm::Expected<Target> parseAMDGPU(llvm::StringRef name) {
  llvm::SmallVector<llvm::StringRef> parts;
  name.split(parts, ':');
  llvm::StringRef arch = parts.front();
  llvm::AMDGPU::GPUKind gpu = llvm::AMDGPU::parseArchAMDGCN(arch);
  if (gpu == llvm::AMDGPU::GK_NONE)
    return unknownGpu(arch, false);
  llvm::AMDGPU::IsaVersion isa = llvm::AMDGPU::getIsaVersion(arch);
  if (isa.Major < 9)
    return llvm::createStringError(
        "GPU target '" + name.str() +
        "' is older than ktc supports (AMD gfx9 or newer: gfx90a, gfx942, "
        "gfx950, gfx1100, gfx1200, gfx1250, ...)");
  unsigned attributes = llvm::AMDGPU::getArchAttrAMDGCN(gpu);
  Target t;
  t.kind = Target::Kind::AMDGPU;
  t.arch = arch.str();
  // RDNA runs wave32 (its native width), CDNA and GCN wave64.
  t.waveSize = attributes & llvm::AMDGPU::FEATURE_WAVE32 ? 32 : 64;
  llvm::SmallVector<std::string> features;
  for (llvm::StringRef part : llvm::drop_begin(parts)) {
    char setting = part.empty() ? 0 : part.back();
    llvm::StringRef feature = part.drop_back();
    bool known = (feature == "xnack" &&
                  (attributes & llvm::AMDGPU::FEATURE_XNACK)) ||
                 (feature == "sramecc" &&
                  (attributes & llvm::AMDGPU::FEATURE_SRAMECC));
    if ((setting != '+' && setting != '-') || !known)
      return llvm::createStringError(
          "malformed target id '" + name.str() + "': '" + part.str() +
          "' is not a feature " + arch.str() +
          " has, with + or - (AMD target ids: gfx942:sramecc+:xnack-)");
    std::string f = std::string(1, setting) + feature.str();
    if (llvm::any_of(features, [&](const std::string &g) {
          return llvm::StringRef(g).drop_front() == feature;
        }))
      return llvm::createStringError("malformed target id '" + name.str() +
                                     "': " + feature.str() +
                                     " is set twice");
    features.push_back(f);
  }
  t.features = llvm::join(features, ",");
  return t;
}

//===----------------------------------------------------------------------===//
// Target
//===----------------------------------------------------------------------===//

llvm::Expected<Target> Target::parse(llvm::StringRef name) {
  if (name == "host")
    return host();
  if (!namesAKind(name))
    return unknown(name);
  return name.starts_with("sm_") ? parseNVPTX(name) : parseAMDGPU(name);
}

bool Target::namesAKind(llvm::StringRef name) {
  return name == "host" || name.starts_with("sm_") || name.starts_with("gfx");
}

Target Target::host() {
  static const Target self = [] {
    llvm::SmallVector<std::string> features;
    for (const auto &[feature, on] : llvm::sys::getHostCPUFeatures())
      features.push_back((on ? "+" : "-") + feature.str());
    llvm::sort(features);
    return host(llvm::sys::getHostCPUName(), llvm::join(features, ","));
  }();
  return self;
}

Target Target::host(llvm::StringRef cpu, llvm::StringRef features) {
  Target t;
  t.kind = Kind::Host;
  t.arch = cpu.str();
  t.features = features.str();
  t.waveSize = 1;
  return t;
}

std::string Target::name() const {
  if (kind == Kind::Host)
    return "host";
  std::string s = arch;
  if (kind == Kind::AMDGPU && !features.empty()) {
    llvm::SmallVector<llvm::StringRef> list;
    llvm::StringRef(features).split(list, ',');
    for (llvm::StringRef f : list)
      s += ":" + f.drop_front().str() + f.front();
  }
  return s;
}

llvm::StringRef Target::triple() const {
  static const std::string process = llvm::sys::getProcessTriple();
  switch (kind) {
  case Kind::NVPTX:
    return kNVPTXTriple;
  case Kind::AMDGPU:
    return kAMDGPUTriple;
  case Kind::Host:
    break;
  }
  return process;
}

std::string Target::cacheId() const {
  return triple().str() + ":" + arch + ":" + features;
}

llvm::StringRef Target::assemblyExtension() const {
  return kind == Kind::NVPTX ? "ptx" : "s";
}

llvm::StringRef Target::kindName() const {
  switch (kind) {
  case Kind::NVPTX:
    return "NVPTX";
  case Kind::AMDGPU:
    return "AMDGPU";
  case Kind::Host:
    break;
  }
  return "host";
}

unsigned Target::smVersion() const {
  return kind == Kind::NVPTX ? smNumber(arch) : 0;
}

unsigned Target::gfxMajor() const {
  return kind == Kind::AMDGPU ? llvm::AMDGPU::getIsaVersion(arch).Major : 0;
}

} // namespace ktc::target
