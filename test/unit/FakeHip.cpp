//===- FakeHip.cpp - a stand-in for libamdhip64.so for the HIP device ------===//
//
// Enough of HIP's module API for HipDevice (lib/Runtime/HIP) to open a
// "device", load a code object and launch, on a machine without an AMD GPU:
// memory is host memory, nothing runs. Its device is an MI300X as ROCm 6/7
// describes it: compute capability 9.4 and, in hipDeviceProp_tR0600, the
// target id `gfx942:sramecc+:xnack-` (gcnArchName, byte 1160 of the 1472-byte
// struct; ROCm 6.2.2's layout), which HipDevice must read rather than guess
// from 9.4. FAKEHIP_OLD_PROPERTIES=1 makes the R0600 entry fail, so that
// the pre-6.0 layout (gcnArchName at byte 396, hipGetDevicePropertiesR0000)
// is the one read.
//
//===----------------------------------------------------------------------===//

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>

#include <cstdlib>
#include <cstring>

namespace {
int module_, function_, stream_, event_;
const char *kTargetId = "gfx942:sramecc+:xnack-";

hipError_t fillProperties(void *props, size_t at, size_t size) {
  std::memset(props, 0, size);
  std::strcpy(static_cast<char *>(props) + at, kTargetId);
  return hipSuccess;
}
} // namespace

extern "C" {
hipError_t hipInit(unsigned int) { return hipSuccess; }
hipError_t hipGetDeviceCount(int *n) { return *n = 1, hipSuccess; }
hipError_t hipSetDevice(int) { return hipSuccess; }
hipError_t hipGetDevice(int *d) { return *d = 0, hipSuccess; }
hipError_t hipDeviceGetName(char *name, int len, hipDevice_t) {
  std::strncpy(name, "Fake AMD GPU", len - 1);
  return hipSuccess;
}
hipError_t hipDeviceGetAttribute(int *v, hipDeviceAttribute_t a, int) {
  switch (a) {
  case hipDeviceAttributeComputeCapabilityMajor:
    return *v = 9, hipSuccess;
  case hipDeviceAttributeComputeCapabilityMinor:
    return *v = 4, hipSuccess;
  case hipDeviceAttributeMultiprocessorCount:
    return *v = 304, hipSuccess;
  case hipDeviceAttributeWarpSize:
    return *v = 64, hipSuccess;
  case hipDeviceAttributeMaxSharedMemoryPerBlock:
    return *v = 65536, hipSuccess;
  case hipDeviceAttributeMaxGridDimX:
    return *v = 2147483647, hipSuccess;
  default:
    return *v = 65536, hipSuccess;
  }
}
hipError_t hipGetDevicePropertiesR0600(void *props, int) {
  if (const char *old = std::getenv("FAKEHIP_OLD_PROPERTIES"); old && *old == '1')
    return hipErrorInvalidValue;
  return fillProperties(props, 1160, 1472);
}
hipError_t hipGetDevicePropertiesR0000(void *props, int) {
  return fillProperties(props, 396, 792);
}
hipError_t hipMalloc(void **p, size_t n) {
  *p = std::calloc(1, n ? n : 1);
  return hipSuccess;
}
hipError_t hipFree(void *p) {
  std::free(p);
  return hipSuccess;
}
hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void *src, size_t n) {
  std::memcpy(dst, src, n);
  return hipSuccess;
}
hipError_t hipMemcpyDtoH(void *dst, hipDeviceptr_t src, size_t n) {
  std::memcpy(dst, src, n);
  return hipSuccess;
}
hipError_t hipDeviceSynchronize() { return hipSuccess; }
hipError_t hipModuleLoadData(hipModule_t *m, const void *) {
  *m = reinterpret_cast<hipModule_t>(&module_);
  return hipSuccess;
}
hipError_t hipModuleGetFunction(hipFunction_t *f, hipModule_t, const char *) {
  *f = reinterpret_cast<hipFunction_t>(&function_);
  return hipSuccess;
}
hipError_t hipModuleLaunchKernel(hipFunction_t, unsigned, unsigned, unsigned,
                                 unsigned, unsigned, unsigned, unsigned,
                                 hipStream_t, void **, void **) {
  return hipSuccess;
}
const char *hipGetErrorString(hipError_t) { return "fake HIP error"; }
hipError_t hipStreamCreate(hipStream_t *s) {
  *s = reinterpret_cast<hipStream_t>(&stream_);
  return hipSuccess;
}
hipError_t hipStreamSynchronize(hipStream_t) { return hipSuccess; }
hipError_t hipEventCreate(hipEvent_t *e) {
  *e = reinterpret_cast<hipEvent_t>(&event_);
  return hipSuccess;
}
hipError_t hipEventRecord(hipEvent_t, hipStream_t) { return hipSuccess; }
hipError_t hipEventSynchronize(hipEvent_t) { return hipSuccess; }
hipError_t hipEventElapsedTime(float *ms, hipEvent_t, hipEvent_t) {
  return *ms = 0, hipSuccess;
}
hipError_t hipEventDestroy(hipEvent_t) { return hipSuccess; }
}
