//===- FakeCuda.cpp - a stand-in for libcuda.so.1 for the launch path -----===//
//
// Enough of the CUDA driver API for CudaDevice (lib/Runtime/CUDA) to open a
// "device", load PTX and launch, on a machine without a GPU: memory is host
// memory, nothing runs. It records what the runtime asked for, so that
// FakeCudaTest.cpp can check the shared-memory plumbing (cuFuncSetAttribute,
// cuLaunchKernel's sharedMemBytes) that only a GPU would exercise
// otherwise. The device claims compute capability 13.5 (newer than LLVM
// knows, so the runtime compiles sm_90 PTX for it) with 99 KiB of
// shared memory per block (opting in), less than the sm_90 PTX ktc compiles
// for it may use (227 KiB): the runtime must check at load.
//
//===----------------------------------------------------------------------===//

#include <cstdlib>
#include <cstring>

namespace {
int lastDynamicSharedAttribute = -1; // cuFuncSetAttribute(..., 8, value)
int lastLaunchSharedBytes = -1;      // cuLaunchKernel's sharedMemBytes
int launches = 0;
int module_, function_, stream_, event_;
// Primary contexts, one per device (FAKECUDA_DEVICES, default 1, at most
// 16); the calling thread's current context (none at first).
int contexts_[16];
thread_local void *current_ = nullptr;
int deviceCount() {
  const char *n = std::getenv("FAKECUDA_DEVICES");
  int count = n ? std::atoi(n) : 1;
  return count < 1 ? 1 : count > 16 ? 16 : count;
}
} // namespace

extern "C" {
// What the test reads back (through dlsym on this library).
int fakeCudaDynamicSharedAttribute() { return lastDynamicSharedAttribute; }
int fakeCudaLaunchSharedBytes() { return lastLaunchSharedBytes; }
int fakeCudaLaunches() { return launches; }

int cuInit(unsigned) { return 0; }
int cuDeviceGetCount(int *n) { return *n = deviceCount(), 0; }
int cuDeviceGet(int *d, int i) {
  return i < 0 || i >= deviceCount() ? 101 : (*d = i, 0); // INVALID_DEVICE
}
int cuDeviceGetName(char *name, int size, int) {
  std::strncpy(name, "Fake CUDA GPU", size - 1);
  return 0;
}
int cuDeviceGetAttribute(int *v, int attribute, int) {
  switch (attribute) {
  case 5: // max grid x, y, z
    *v = 2147483647;
    break;
  case 6:
  case 7:
    *v = 65535;
    break;
  case 16: // multiprocessors
    *v = 4;
    break;
  case 75: // compute capability 13.5: newer than LLVM 22 knows, so the
    *v = 13; // runtime compiles sm_90 PTX for it
    break;
  case 76:
    *v = 5;
    break;
  case 97: // CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
    *v = 99 * 1024;
    break;
  default:
    *v = 0;
  }
  return 0;
}
int cuDevicePrimaryCtxRetain(void **ctx, int d) {
  return *ctx = &contexts_[d], 0;
}
int cuCtxSetCurrent(void *ctx) { return current_ = ctx, 0; }
int cuCtxGetCurrent(void **ctx) { return *ctx = current_, 0; }
int cuCtxGetDevice(int *d) {
  if (!current_)
    return 201; // CUDA_ERROR_INVALID_CONTEXT
  for (int i = 0; i < 16; ++i)
    if (current_ == &contexts_[i])
      return *d = i, 0;
  return *d = 0, 0; // an application's own context: on device 0
}
int cuCtxSynchronize() { return 0; }
int cuMemAlloc_v2(unsigned long long *p, size_t bytes) {
  *p = reinterpret_cast<unsigned long long>(std::calloc(1, bytes));
  return *p ? 0 : 2;
}
int cuMemFree_v2(unsigned long long p) {
  std::free(reinterpret_cast<void *>(p));
  return 0;
}
int cuMemcpyHtoD_v2(unsigned long long dst, const void *src, size_t bytes) {
  std::memcpy(reinterpret_cast<void *>(dst), src, bytes);
  return 0;
}
int cuMemcpyDtoH_v2(void *dst, unsigned long long src, size_t bytes) {
  std::memcpy(dst, reinterpret_cast<const void *>(src), bytes);
  return 0;
}
int cuModuleLoadDataEx(void **module, const void *, unsigned, int *, void **) {
  return *module = &module_, 0;
}
int cuModuleGetFunction(void **function, void *, const char *) {
  return *function = &function_, 0;
}
int cuLaunchKernel(void *, unsigned, unsigned, unsigned, unsigned, unsigned,
                   unsigned, unsigned sharedMemBytes, void *, void **,
                   void **) {
  lastLaunchSharedBytes = int(sharedMemBytes);
  ++launches;
  return 0;
}
int cuGetErrorString(int, const char **message) {
  return *message = "fake error", 0;
}
int cuFuncGetAttribute(int *v, int, void *) { return *v = 0, 0; }
int cuFuncSetAttribute(void *, int attribute, int value) {
  if (attribute == 8) // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
    lastDynamicSharedAttribute = value;
  return 0;
}
int cuStreamCreate(void **stream, unsigned) { return *stream = &stream_, 0; }
int cuStreamSynchronize(void *) { return 0; }
int cuEventCreate(void **event, unsigned) { return *event = &event_, 0; }
int cuEventRecord(void *, void *) { return 0; }
int cuEventSynchronize(void *) { return 0; }
int cuEventElapsedTime_v2(float *ms, void *, void *) { return *ms = 0, 0; }
int cuEventDestroy_v2(void *) { return 0; }
}
