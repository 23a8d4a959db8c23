//===- HipDriver.h - the HIP runtime through dlopen (internal) ---*- C++ -*-===//
//
// The HIP entry points ktc calls (types from Debian's HIP headers), found in
// libamdhip64 (.so, .so.7, .so.6, .so.5, or KTC_HIP_LIBRARY) with dlopen at
// first use, so one binary serves every ROCm a user has and starts where
// there is none. Shared by the JIT's device (lib/Runtime/HIP) and the AOT
// runtime (lib/AotRuntime): plain C++ and libdl, no LLVM, no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_DRIVERS_HIPDRIVER_H
#define KTC_LIB_DRIVERS_HIPDRIVER_H

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>

#include <string>

namespace ktc::drivers {

/// The runtime's entry points, every one found.
struct HipDriver {
#define KTC_HIP_FN(name) decltype(&::name) name = nullptr;
  KTC_HIP_FN(hipInit)
  KTC_HIP_FN(hipGetDeviceCount)
  KTC_HIP_FN(hipSetDevice)
  KTC_HIP_FN(hipGetDevice)
  KTC_HIP_FN(hipDeviceGetAttribute)
  KTC_HIP_FN(hipDeviceGetName)
  hipError_t (*hipMalloc)(void **, size_t) = nullptr; // overloaded in C++
  KTC_HIP_FN(hipFree)
  KTC_HIP_FN(hipMemcpyHtoD)
  KTC_HIP_FN(hipMemcpyDtoH)
  KTC_HIP_FN(hipDeviceSynchronize)
  KTC_HIP_FN(hipModuleLoadData)
  KTC_HIP_FN(hipModuleGetFunction)
  KTC_HIP_FN(hipModuleLaunchKernel)
  KTC_HIP_FN(hipGetErrorString)
  KTC_HIP_FN(hipStreamCreate)
  KTC_HIP_FN(hipStreamSynchronize)
  KTC_HIP_FN(hipEventCreate)
  KTC_HIP_FN(hipEventRecord)
  KTC_HIP_FN(hipEventSynchronize)
  KTC_HIP_FN(hipEventElapsedTime)
  KTC_HIP_FN(hipEventDestroy)
#undef KTC_HIP_FN
  void *library = nullptr; // for the optional entry points
};

/// The runtime, opened and initialised (hipInit) once per process; null
/// with `why` saying why not.
const HipDriver *hipDriver(std::string &why);

/// "<what> failed: <the runtime's message> (HIP error <r>)".
std::string hipError(const HipDriver &h, hipError_t r, const std::string &what);

/// The device's AMD target id as HIP reports it (gcnArchName,
/// "gfx942:sramecc+:xnack-"), or "". ROCm 6/7 export
/// hipGetDevicePropertiesR0600 (a 1472-byte struct with gcnArchName at byte
/// 1160); earlier releases, and the R0000 entry of later ones, fill the
/// 792-byte layout with it at byte 396.
std::string gcnArchName(const HipDriver &h, int device);

} // namespace ktc::drivers

#endif // KTC_LIB_DRIVERS_HIPDRIVER_H
