//===- Ptxas.h - PTX to a cubin with the toolkit's ptxas ---------*- C++ -*-===//
//
// KTC_PTXAS=<ptxas>: kernels are assembled by that ptxas (as Triton does
// with the one it ships) instead of the driver's JIT, and the cubin is
// loaded. For comparing the two compilers on one device, and for drivers
// whose JIT is older than the toolkit.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_RUNTIME_CUDA_PTXAS_H
#define KTC_LIB_RUNTIME_CUDA_PTXAS_H

#include <optional>
#include <string>

namespace ktc::detail {

/// KTC_PTXAS's value, or nullopt when it is unset or empty.
std::optional<std::string> ptxasFromEnvironment();

/// `ptx` assembled for `arch` (sm_90a, ...) by the program `ptxas` (a path,
/// or a name looked up in PATH): the cubin's bytes. Throws ktc::Error
/// naming the program and carrying its diagnostics when it cannot be run
/// or fails.
std::string assembleWithPtxas(const std::string &ptxas, const std::string &ptx,
                              const std::string &arch);

} // namespace ktc::detail

#endif // KTC_LIB_RUNTIME_CUDA_PTXAS_H
