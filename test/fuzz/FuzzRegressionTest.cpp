//===- FuzzRegressionTest.cpp - what the fuzzers found, as plain tests -----===//
//
// Each test is a crash ktc-fuzz-builder or ktc-fuzz-parse found, reduced to
// the kernel (or IR) that showed it, with what ktc must do instead. The
// inputs themselves are in regressions/ and replayed by fuzz/replay-*.
//
//===----------------------------------------------------------------------===//

#include "ktc/ktc.h"

#include <gtest/gtest.h>

#include <vector>

using namespace ktc;

namespace {

Device &cpu() { return Device::get("cpu"); }

// ktc-fuzz-builder, regressions/builder/if-without-vars: an if_ on a runtime
// condition while no Var was alive gave scf.if blocks that already ended in
// scf.yield, so the body went after the terminator ("ktc internal error:
// invalid IR: 'scf.yield' op must be the last operation in the parent
// block"). Fixed in lib/Builder/Control.cpp.
TEST(FuzzRegression, IfWithoutVars) {
  auto kernel = Kernel("if_without_vars", [](Ptr<float> p, Int n) {
    if_(n > 0, [&] { store(p, 1.0f); }, [&] { store(p + 1, 2.0f); });
    if_(n > 5, [&] { store(p + 2, 3.0f); });
    if_(n > 9, [&] {}); // an empty body
  });
  Buffer<float> out(cpu(), std::vector<float>{0, 0, 0});
  kernel.launch({1}, out, 1);
  EXPECT_EQ(out.to_host(), (std::vector<float>{1, 0, 0}));
  kernel.launch({1}, out, 0);
  EXPECT_EQ(out.to_host(), (std::vector<float>{1, 2, 0}));
  kernel.launch({1}, out, 6);
  EXPECT_EQ(out.to_host(), (std::vector<float>{1, 2, 3}));
}

// Found by ktc-fuzz-builder: log() or log2() in a kernel lowered for an
// NVIDIA target ended the process (LLVM has no NVPTX lowering of llvm.log2
// and calls exit). They now go through the target's log2 (lg2.approx.f32),
// as exp goes through exp2.
TEST(FuzzRegression, LogOnNvidia) {
  auto kernel = Kernel("log_on_nvidia", [](Ptr<float> p) {
    auto offs = arange(0, 128);
    store(p + offs, log(load(p + offs)) + log2(load(p + offs)));
  });
  for (const char *target : {"sm_80", "sm_90", "gfx942"})
    EXPECT_NE(kernel.emit("asm", target).size(), 0u) << target;
}

} // namespace
