//===- TargetTest.cpp - every target string: a result or a ktc::Error -----===//
//
// kernel.emit()/info() with sm_100 or sm_120 once ended the process ("LLVM
// ERROR: PTX version 8.0 does not support target 'sm_100'"): the PTX version
// was fixed. Each class of target string is tried here: new GPUs compile,
// GPUs LLVM knows but ktc does not serve, unknown GPUs, malformed and empty
// names are a ktc::Error at the caller's line; none ends the process.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"
#include "examples/kernels/seeds.h"
#include "ktc/ktc.h"

#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/Triple.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTargetMC();
}

using namespace ktc;

namespace {

int at = 0; // the line an error must point to

void expectError(const std::function<void()> &f, const std::string &message) {
  test::expectErrorAt(f, message, __FILE__, at);
}

auto addKernel() {
  return Kernel("add", {"x", "y", "out", "n", "BLOCK"}, seeds::vector_add);
}

auto softmaxKernel() {
  return Kernel("softmax", {"in", "out", "stride", "n", "BLOCK"},
                seeds::softmax_naive);
}

/// The PTX version line of `ptx` (".version 8.6").
std::string ptxVersion(const std::string &ptx) {
  size_t at = ptx.find(".version ");
  return at == std::string::npos ? "" : ptx.substr(at, ptx.find('\n', at) - at);
}

TEST(Targets, NewNvidiaGpusGetTheirPtxVersion) {
  auto add = addKernel();
  auto softmax = softmaxKernel();
  // PTX 8.0 as before where it is enough, else LLVM's minimum for the SM.
  for (auto [arch, version] :
       {std::pair{"sm_80", ".version 8.0"}, {"sm_90", ".version 8.0"},
        {"sm_90a", ".version 8.0"}, {"sm_100", ".version 8.6"},
        {"sm_100a", ".version 8.6"}, {"sm_103", ".version 8.8"},
        {"sm_120", ".version 8.7"}, {"sm_120a", ".version 8.7"},
        {"sm_121", ".version 8.8"}, {"sm_88", ".version 9.0"},
        {"sm_110", ".version 9.0"}}) {
    std::string ptx = add.emit("asm", arch, 1024);
    EXPECT_EQ(ptxVersion(ptx), version) << arch;
    EXPECT_NE(ptx.find(std::string(".target ") + arch), std::string::npos)
        << arch;
    EXPECT_EQ(ptxVersion(softmax.emit("asm", arch, 1024)), version) << arch;
    KernelInfo info = add.info(arch, 1024);
    EXPECT_EQ(info.target, arch);
    EXPECT_EQ(info.wave_size, 32);
  }
}

TEST(Targets, AmdGpusFromGfx9) {
  auto softmax = softmaxKernel();
  for (const char *arch : {"gfx900", "gfx906", "gfx90a", "gfx942", "gfx950",
                           "gfx1010", "gfx1030", "gfx1100", "gfx1200"})
    EXPECT_NE(softmax.emit("asm", arch, 1024).find(".amdgcn_target"),
              std::string::npos)
        << arch;
}

TEST(Targets, GpusKtcDoesNotServe) {
  auto add = addKernel();
  expectError([&] { at = __LINE__; add.emit("asm", "sm_20", 1024); },
              "GPU target 'sm_20' is older than ktc supports (NVIDIA sm_70 or "
              "newer)");
  expectError([&] { at = __LINE__; add.info("sm_60", 1024); },
              "GPU target 'sm_60' is older than ktc supports (NVIDIA sm_70 or "
              "newer)");
  // Wave64 GCN before gfx9: ktc's lowering would give wrong code.
  expectError([&] { at = __LINE__; add.emit("bin", "gfx700", 1024); },
              "GPU target 'gfx700' is older than ktc supports (AMD gfx9 or "
              "newer: gfx90a, gfx942, gfx950, gfx1100, gfx1200, gfx1250, ...)");
  expectError([&] { at = __LINE__; add.info("gfx803", 1024); },
              "GPU target 'gfx803' is older than ktc supports (AMD gfx9 or "
              "newer: gfx90a, gfx942, gfx950, gfx1100, gfx1200, gfx1250, ...)");
}

TEST(Targets, LlvmFatalErrorsBecomeErrors) {
  // LLVM knows gfx9-generic but its backend ends the process with
  // report_fatal_error for code object v5: caught, the process goes on.
  auto add = addKernel();
  try {
    at = __LINE__; add.emit("asm", "gfx9-generic", 1024);
    ADD_FAILURE() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(e.line(), unsigned(at)) << e.what();
    EXPECT_NE(e.message().find("generating code for kernel 'add' (gfx9-generic) "
                               "failed: LLVM cannot generate code for it: "
                               "gfx9-generic is only available on code object "
                               "version 6 or better"),
              std::string::npos)
        << e.message();
  }
  // And the next compile works.
  EXPECT_FALSE(add.emit("asm", "gfx942", 1024).empty());
}

TEST(Targets, UnknownMalformedAndEmptyNames) {
  auto add = addKernel();
  for (const char *arch : {"sm_", "sm_x", "sm_9999", "sm_100b", "sm_-1"})
    expectError([&] { at = __LINE__; add.emit("asm", arch, 1024); },
                "unknown GPU target '" + std::string(arch) +
                    "': LLVM's NVPTX backend does not know it (ktc supports "
                    "sm_70 and newer: sm_80, sm_90, sm_100, sm_120, ...)");
  for (const char *arch : {"gfx", "gfx9999", "gfx90z", "gfx 942"})
    expectError([&] { at = __LINE__; add.info(arch, 1024); },
                "unknown GPU target '" + std::string(arch) +
                    "': LLVM's AMDGPU backend does not know it (ktc supports "
                    "gfx9 and newer: gfx90a, gfx942, gfx950, gfx1100, "
                    "gfx1200, gfx1250, ...)");
  for (const char *arch : {"", "garbage", "SM_90", " sm_90", "cuda"})
    expectError([&] { at = __LINE__; add.emit("asm", arch, 1024); },
                "unknown target '" + std::string(arch) +
                    "' (host, sm_<N> or gfx<N>)");
  expectError([&] { at = __LINE__; add.info("", 1024); },
              "unknown target '' (a device: auto, cpu, cuda, hip; or host, "
              "sm_<N>, gfx<N>)");
}

/// Every processor LLVM's NVPTX and AMDGPU backends list: each gives PTX /
/// assembly or a ktc::Error; none ends the process (adversarial: the
/// generic AMD targets, sm_1xx "a"/"f" variants, gfx6 to gfx12 all pass).
TEST(Targets, EveryProcessorLlvmKnows) {
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTargetMC();
  LLVMInitializeAMDGPUTargetInfo();
  LLVMInitializeAMDGPUTargetMC();
  auto add = addKernel();
  int compiled = 0, refused = 0;
  for (const char *name : {"nvptx64-nvidia-cuda", "amdgcn-amd-amdhsa"}) {
    llvm::Triple triple(name);
    std::string error;
    const llvm::Target *target =
        llvm::TargetRegistry::lookupTarget(triple, error);
    ASSERT_TRUE(target) << error;
    std::unique_ptr<llvm::MCSubtargetInfo> info(
        target->createMCSubtargetInfo(triple, "", ""));
    for (const llvm::SubtargetSubTypeKV &cpu :
         info->getAllProcessorDescriptions()) {
      std::string arch = cpu.Key;
      try {
        EXPECT_FALSE(add.emit("asm", arch, 1024).empty()) << arch;
        ++compiled;
      } catch (const Error &e) {
        EXPECT_FALSE(e.message().empty()) << arch;
        ++refused;
      }
    }
  }
  std::printf("every LLVM GPU processor: %d compiled, %d refused with a "
              "ktc::Error\n",
              compiled, refused);
  EXPECT_GT(compiled, 40);
}

} // namespace
