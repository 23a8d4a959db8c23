//===- CompilerTest.cpp - Target values, compile options, compiled kernels -===//
//
// The compiler room's own values, without a kernel: target names parsed
// once (kinds, wave sizes, PTX versions, AMD target ids), the one rule for
// num_warps and num_stages, and the CompiledKernel the disk cache keeps.
//
//===----------------------------------------------------------------------===//

#include "lib/Compiler/Compiler.h"

#include <gtest/gtest.h>

using namespace ktc;
using target::CompileOptions;
using target::Target;

namespace {

Target parse(llvm::StringRef name) {
  auto t = Target::parse(name);
  if (!t) {
    ADD_FAILURE() << name.str() << ": " << llvm::toString(t.takeError());
    return Target();
  }
  return *t;
}

std::string parseError(llvm::StringRef name) {
  auto t = Target::parse(name);
  if (t) {
    ADD_FAILURE() << name.str() << " parsed";
    return "";
  }
  return llvm::toString(t.takeError());
}

TEST(CompilerTarget, KindsAndWaveSizes) {
  struct Row {
    const char *name;
    Target::Kind kind;
    unsigned wave;
  } rows[] = {{"sm_80", Target::Kind::NVPTX, 32},
              {"sm_90a", Target::Kind::NVPTX, 32},
              {"sm_100", Target::Kind::NVPTX, 32},
              {"sm_120", Target::Kind::NVPTX, 32},
              {"gfx90a", Target::Kind::AMDGPU, 64},
              {"gfx942", Target::Kind::AMDGPU, 64},
              {"gfx950", Target::Kind::AMDGPU, 64},
              {"gfx1100", Target::Kind::AMDGPU, 32},
              {"gfx1200", Target::Kind::AMDGPU, 32},
              {"gfx1250", Target::Kind::AMDGPU, 32},
              {"host", Target::Kind::Host, 1}};
  for (const Row &row : rows) {
    Target t = parse(row.name);
    EXPECT_EQ(t.kind, row.kind) << row.name;
    EXPECT_EQ(t.waveSize, row.wave) << row.name;
    EXPECT_EQ(t.name(), row.name);
  }
  EXPECT_EQ(parse("gfx1250").gfxMajor(), 12u);
  EXPECT_EQ(parse("sm_90a").smVersion(), 90u);
  EXPECT_TRUE(parse("sm_90").isGpu());
  EXPECT_FALSE(parse("host").isGpu());
}

// PTX 8.0 up to sm_90a (as ktc always compiled); the SM's own minimum
// beyond, where asking for 8.0 is a fatal error inside LLVM.
TEST(CompilerTarget, PtxVersionFollowsTheSm) {
  EXPECT_EQ(parse("sm_80").features, "+ptx80");
  EXPECT_EQ(parse("sm_90a").features, "+ptx80");
  EXPECT_EQ(parse("sm_100").features, "");
  EXPECT_EQ(parse("sm_120").features, "");
}

TEST(CompilerTarget, AmdTargetIds) {
  Target t = parse("gfx942:sramecc+:xnack-");
  EXPECT_EQ(t.arch, "gfx942");
  EXPECT_EQ(t.features, "+sramecc,-xnack");
  EXPECT_EQ(t.name(), "gfx942:sramecc+:xnack-");
  EXPECT_NE(t.cacheId(), parse("gfx942").cacheId());
  EXPECT_EQ(parseError("gfx942:sramecc"),
            "malformed target id 'gfx942:sramecc': 'sramecc' is not a feature "
            "gfx942 has, with + or - (AMD target ids: gfx942:sramecc+:xnack-)");
  EXPECT_NE(parseError("gfx942:fast+").find("'fast+' is not a feature"),
            std::string::npos);
  EXPECT_NE(parseError("gfx942:xnack+:xnack-").find("xnack is set twice"),
            std::string::npos);
  // gfx1100 has no SRAM ECC.
  EXPECT_NE(parseError("gfx1100:sramecc+").find("not a feature gfx1100 has"),
            std::string::npos);
}

TEST(CompilerTarget, NamesOfNoKnownKind) {
  for (const char *name : {"", "tpu", "SM_90", " gfx942", "cuda", "host2"}) {
    EXPECT_FALSE(Target::namesAKind(name)) << name;
    EXPECT_EQ(parseError(name),
              "unknown target '" + std::string(name) +
                  "' (host, sm_<N> or gfx<N>)");
  }
  EXPECT_NE(parseError("sm_60").find("older than ktc supports"),
            std::string::npos);
  EXPECT_NE(parseError("gfx803").find("older than ktc supports"),
            std::string::npos);
}

TEST(CompilerOptions, OneRuleForWarpsAndStages) {
  for (int warps : {1, 2, 4, 8, 16, 32})
    EXPECT_TRUE(static_cast<bool>(CompileOptions::make(warps, 1)));
  for (int warps : {0, -4, 3, 6, 64}) {
    auto o = CompileOptions::make(warps, 1, false, "Options::num_warps");
    ASSERT_FALSE(static_cast<bool>(o));
    EXPECT_EQ(llvm::toString(o.takeError()),
              "Options::num_warps must be a power of two from 1 to 32, got " +
                  std::to_string(warps));
  }
  auto o = CompileOptions::make(4, 9, false, "w", "--num-stages");
  ASSERT_FALSE(static_cast<bool>(o));
  EXPECT_EQ(llvm::toString(o.takeError()),
            "--num-stages must be from 1 to 8, got 9");
}

TEST(CompilerStages, ParsedByName) {
  for (const char *name : {"mlir", "llvm", "asm", "bin"}) {
    auto stage = target::parseStage(name);
    ASSERT_TRUE(static_cast<bool>(stage));
    EXPECT_EQ(target::stageName(*stage), name);
  }
  auto bad = target::parseStage("obj");
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "unknown stage 'obj' to emit (mlir, llvm, asm or bin)");
}

TEST(CompiledKernel, RoundTripsThroughTheDiskFormat) {
  compiler::CompiledKernel k;
  k.name = "softmax";
  k.target = "gfx942:sramecc+";
  k.binary = std::string("\x7f" "ELF\0\n\nbinary\n", 15);
  k.threadsPerBlock = 256;
  k.resources.registers = 14;
  k.resources.scalarRegisters = 20;
  k.resources.sharedBytes = 2048;
  k.resources.spills = 0;
  k.resources.waveSize = 64;
  k.resources.maxThreads = 256;
  std::string blob = k.serialize();
  auto back = compiler::CompiledKernel::deserialize(blob);
  ASSERT_TRUE(static_cast<bool>(back));
  EXPECT_EQ(back->name, k.name);
  EXPECT_EQ(back->target, k.target);
  EXPECT_EQ(back->binary, k.binary);
  EXPECT_EQ(back->threadsPerBlock, 256u);
  EXPECT_EQ(back->resources.registers, 14);
  EXPECT_EQ(back->resources.scalarRegisters, 20);
  EXPECT_EQ(back->resources.sharedBytes, 2048);
  EXPECT_EQ(back->resources.waveSize, 64);
  // Truncated, extended, or of another format: refused (and rebuilt).
  for (std::string bad : {blob.substr(0, blob.size() - 1), blob + "x",
                          std::string("ktc-compiled-kernel 0\n"),
                          std::string(), std::string("garbage")}) {
    auto r = compiler::CompiledKernel::deserialize(bad);
    ASSERT_FALSE(static_cast<bool>(r));
    llvm::consumeError(r.takeError());
  }
}

} // namespace
