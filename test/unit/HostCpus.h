//===- HostCpus.h - which named host CPUs this machine can run ----*- C++ -*-===//
//
// The tests that compile host code for a named CPU (host::HostCpu: x86-64,
// x86-64-v3, sapphirerapids, this CPU less some features) run it only where
// this machine has what that CPU implies.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_TEST_UNIT_HOSTCPUS_H
#define KTC_TEST_UNIT_HOSTCPUS_H

#include "lib/Target/CPU/HostTarget.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"

namespace ktc::test {

/// Whether this machine has every feature `cpu` implies (this CPU less
/// some features always runs).
inline bool canRun(const host::HostCpu &cpu) {
  llvm::StringMap<bool> host = llvm::sys::getHostCPUFeatures();
  for (llvm::StringRef f : {"f16c", "avx512bf16", "avx512fp16", "avx512f",
                            "avx2", "fma"}) {
    bool needed = cpu.cpu == "sapphirerapids" ||
                  (cpu.cpu == "x86-64-v3" &&
                   (f == "f16c" || f == "avx2" || f == "fma"));
    if (needed && !host.lookup(f))
      return false;
  }
  return true;
}

} // namespace ktc::test

#endif // KTC_TEST_UNIT_HOSTCPUS_H
